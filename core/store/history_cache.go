package store

import (
	"bytes"
	"context"
	"crypto/sha256"
	"encoding/binary"
	"encoding/hex"
	"hash/crc32"
	"math"
	"path/filepath"
	"strconv"
	"time"
)

// A one-shot process (the CLI's query and check) would read the history's
// moves anew on every run: `git log --name-status -M` over the last few
// thousand commits, a tenth of a second in this project's own repository
// and seconds in a large one, for a query that otherwise answers from its
// index in milliseconds. The moves are a function of Project.history (the
// commit HEAD named when the project was listed, history.go) and the depth
// read, so they are kept in a cache file per work tree under that key, and
// read again only when HEAD moved. A language server keeps the same
// answers in memory between listings under the same key (core/repo's
// Reopen).

// maxMovesCaches is how many moves files (one per work tree) the cache
// folder keeps.
const maxMovesCaches = 32

var movesMagic = []byte("mlspmov1")

// MovesCached is Moves, kept in a file of the folder dir (a cache folder:
// see cachefile.go) under the project's history key: a later call at the
// same commit and depth reads it instead of the history. Without dir,
// outside git, with no commit yet, or when the file cannot be read or
// written, it is Moves.
func (p *Project) MovesCached(ctx context.Context, depth int, dir string) map[string]Move {
	if dir == "" || p.head() == "" || depth <= 0 {
		return p.Moves(ctx, depth)
	}
	sum := sha256.Sum256([]byte(p.Top))
	path := filepath.Join(dir, "moves", hex.EncodeToString(sum[:16])+".bin")
	key := movesKey(p.Top, p.history, depth)
	if data, err := ReadOne(path); err == nil {
		if moves, ok := decodeMoves(data, key); ok {
			return moves
		}
	}
	moves := p.Moves(ctx, depth)
	if moves != nil {
		_ = WriteCacheFile(path, encodeMoves(key, moves), maxMovesCaches)
	}
	return moves
}

// movesKey is what a moves file must have been written for.
func movesKey(top, history string, depth int) []byte {
	return []byte(top + "\x00" + history + "\x00" + strconv.Itoa(depth))
}

// encodeMoves lays out moves for key: magic, CRC-32 of the rest, then
// uvarint-prefixed strings and uvarints: the key, the count, and per move
// its old path, new path, commit, time (unix seconds, zigzag; the least
// int64 for none) and Seq.
func encodeMoves(key []byte, moves map[string]Move) []byte {
	b := append([]byte(nil), movesMagic...)
	b = append(b, 0, 0, 0, 0)
	str := func(s []byte) {
		b = binary.AppendUvarint(b, uint64(len(s)))
		b = append(b, s...)
	}
	str(key)
	b = binary.AppendUvarint(b, uint64(len(moves)))
	for old, m := range moves {
		str([]byte(old))
		str([]byte(m.New))
		str([]byte(m.Commit))
		when := int64(math.MinInt64) // no time
		if !m.When.IsZero() {
			when = m.When.Unix()
		}
		b = binary.AppendVarint(b, when)
		b = binary.AppendUvarint(b, uint64(m.Seq))
	}
	binary.LittleEndian.PutUint32(b[len(movesMagic):], crc32.ChecksumIEEE(b[len(movesMagic)+4:]))
	return b
}

// decodeMoves reads a moves file written for key; false for any other
// file, damaged or not.
func decodeMoves(b, key []byte) (map[string]Move, bool) {
	n := len(movesMagic)
	if len(b) < n+4 || !bytes.Equal(b[:n], movesMagic) ||
		binary.LittleEndian.Uint32(b[n:]) != crc32.ChecksumIEEE(b[n+4:]) {
		return nil, false
	}
	r := b[n+4:]
	ok := true
	uv := func() uint64 {
		v, k := binary.Uvarint(r)
		if k <= 0 {
			ok = false
			return 0
		}
		r = r[k:]
		return v
	}
	str := func() string {
		l := uv()
		if !ok || l > uint64(len(r)) {
			ok = false
			return ""
		}
		s := string(r[:l])
		r = r[l:]
		return s
	}
	if got := str(); !ok || got != string(key) {
		return nil, false
	}
	count := uv()
	if !ok || count > uint64(len(r)) {
		return nil, false
	}
	moves := make(map[string]Move, count)
	for range count {
		old := str()
		m := Move{New: str(), Commit: str()}
		when, k := binary.Varint(r)
		if k <= 0 {
			return nil, false
		}
		r = r[k:]
		if when != math.MinInt64 {
			m.When = time.Unix(when, 0)
		}
		seq := uv()
		if !ok || seq > math.MaxInt32 {
			return nil, false
		}
		m.Seq = int(seq)
		moves[old] = m
	}
	if len(r) != 0 {
		return nil, false
	}
	return moves, true
}
