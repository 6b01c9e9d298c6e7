package search

import (
	"bytes"
	"encoding/binary"
	"errors"
	"github.com/memory-lsp/memory-lsp/core/store"
	"hash/crc32"
	"math"
	"strings"
	"sync"
)

// An index file holds the parts of the memory files of one folder, each
// with the stamp of the file it was built from, so that a part is used
// only while its file is provably unchanged (Stamp.Vouches):
//
//	magic (8 bytes), version u32, CRC-32C of everything after these 16 bytes u32,
//	the tokenizer's fingerprint u32, nFiles u32, then per file: uvarint name length, name, size, mtime,
//	ctime (ns), inode, device, built (ns, when the file was read), part length (u64 each), part
//
// The checksum makes a file that a crash, a disk or another program
// damaged read as no index at all rather than as a different one.

var indexMagic = []byte("mlspqix\x00")

// indexVersion changes whenever the layout, the tokenizer, the stemmer or
// anything else that decides a part's content does. The tokenizer's
// fingerprint is a second guard, for a change to the analysis that forgot
// the version.
const indexVersion = 1

// fingerprintText exercises what decides the terms of a part: word parts
// and compounds, versions, possessives, C++ and C#, stop words, stems,
// full-width letters, accents and CJK bigrams.
const fingerprintText = "The users' auto-scaling policies don't cache API responses: v1.8.2, snake_case, " +
	"openapi.yaml, C++ and C# builds; running, ran, queries, queried, flies, happily, caresses. " +
	"Ｆｕｌｌ résumé naïve 变更日志 データベース 데이터베이스 Никогда не коммитьте секреты."

// fingerprint is the CRC-32C of the terms Tokens gives fingerprintText.
var fingerprint = sync.OnceValue(func() uint32 {
	return crc32.Checksum([]byte(strings.Join(Tokens(fingerprintText), "\x00")), castagnoli())
})

// castagnoli is the CRC-32C table, made on first use: making it at
// package initialisation cost every command of the binary 0.15 ms.
var castagnoli = sync.OnceValue(func() *crc32.Table { return crc32.MakeTable(crc32.Castagnoli) })

// IndexedFile is one memory file's part in an index file.
type IndexedFile struct {
	Name  string
	Stamp store.Stamp
	Built int64 // when the file was read, in ns since the epoch
	Part  []byte
}

var errIndexFile = errors.New("not an index file of this version")

// EncodeIndexFile lays out files as an index file.
func EncodeIndexFile(files []IndexedFile) []byte {
	n := 24
	for _, f := range files {
		n += binary.MaxVarintLen64 + len(f.Name) + 7*8 + len(f.Part)
	}
	b := make([]byte, 16, n)
	copy(b, indexMagic)
	le := binary.LittleEndian
	le.PutUint32(b[8:], indexVersion)
	b = le.AppendUint32(b, fingerprint())
	b = le.AppendUint32(b, uint32(len(files)))
	for _, f := range files {
		b = binary.AppendUvarint(b, uint64(len(f.Name)))
		b = append(b, f.Name...)
		for _, v := range []uint64{uint64(f.Stamp.Size), uint64(f.Stamp.ModNs), uint64(f.Stamp.ChangeNs), f.Stamp.Ino, f.Stamp.Dev, uint64(f.Built), uint64(len(f.Part))} {
			b = le.AppendUint64(b, v)
		}
		b = append(b, f.Part...)
	}
	le.PutUint32(b[12:], crc32.Checksum(b[16:], castagnoli()))
	return b
}

// DecodeIndexFile reads an index file; its parts are views of b. Anything
// but an intact index file of this version is an error.
func DecodeIndexFile(b []byte) ([]IndexedFile, error) {
	le := binary.LittleEndian
	if len(b) < 24 || !bytes.Equal(b[:8], indexMagic) || le.Uint32(b[8:]) != indexVersion ||
		le.Uint32(b[16:]) != fingerprint() || le.Uint32(b[12:]) != crc32.Checksum(b[16:], castagnoli()) {
		return nil, errIndexFile
	}
	count := le.Uint32(b[20:])
	r := b[24:]
	var out []IndexedFile
	for range count {
		l, k := binary.Uvarint(r)
		if k <= 0 || l > uint64(len(r)-k) {
			return nil, errIndexFile
		}
		f := IndexedFile{Name: string(r[k : k+int(l)])}
		r = r[k+int(l):]
		if len(r) < 7*8 {
			return nil, errIndexFile
		}
		var v [7]uint64
		for i := range v {
			v[i] = le.Uint64(r[8*i:])
		}
		r = r[7*8:]
		f.Stamp = store.Stamp{Size: int64(v[0]), ModNs: int64(v[1]), ChangeNs: int64(v[2]), Ino: v[3], Dev: v[4]}
		f.Built = int64(v[5])
		if v[6] > uint64(len(r)) || v[6] > math.MaxInt32 {
			return nil, errIndexFile
		}
		f.Part, r = r[:v[6]:v[6]], r[v[6]:]
		out = append(out, f)
	}
	if len(r) != 0 {
		return nil, errIndexFile
	}
	return out, nil
}
