package search

import (
	"bytes"
	"encoding/binary"
	"errors"
	"github.com/memory-lsp/memory-lsp/core/store"
	"hash/crc32"
	"math"
)

// An index file holds the parts of the memory files of one folder, each
// with the stamp of the file it was built from, so that a part is used
// only while its file is provably unchanged (Stamp.Vouches):
//
//	magic (8 bytes), version u32, CRC-32 of the header after these 16 bytes u32,
//	the tokenizer's fingerprint u32, nFiles u32, body length u64,
//	the CRC-32 of each 1 KiB block of the body (u32 each), then the body:
//	per file: uvarint name length, name, size, mtime, ctime (ns), inode,
//	device, built (ns, when the file was read), part length (u64 each), part
//
// The sums make a file that a crash, a disk or another program damaged
// read as no index at all rather than as a different one: the header and
// the list of files are checked when the file is read, every other block
// when a query first reads it (blockSums).

var indexMagic = []byte("mlspqix\x00")

// indexVersion changes whenever the layout, the tokenizer, the stemmer or
// anything else that decides a part's content does.
const indexVersion = 3

// indexFingerprint is what TestIndexFingerprint computes from the terms
// the tokenizer gives a text that exercises all it does: a second guard,
// for a change to the analysis that forgot the version. It is a constant,
// checked by that test, rather than computed by every process: tokenizing
// the text cost each query 0.25 ms.
const indexFingerprint uint32 = 0xb1a77e6f

const indexHeaderLen = 32

// IndexedFile is one memory file's part in an index file.
type IndexedFile struct {
	Name  string
	Stamp store.Stamp
	Built int64 // when the file was read, in ns since the epoch
	Part  []byte

	// sums checks the blocks of the index file Part is a view of, at
	// offset at of its body; nil for a part built in memory.
	sums *blockSums
	at   int
}

var errIndexFile = errors.New("not an index file of this version")

// EncodeIndexFile lays out files as an index file.
func EncodeIndexFile(files []IndexedFile) []byte {
	n := 0
	for _, f := range files {
		n += binary.MaxVarintLen64 + len(f.Name) + 7*8 + len(f.Part)
	}
	body := make([]byte, 0, n)
	le := binary.LittleEndian
	for _, f := range files {
		body = binary.AppendUvarint(body, uint64(len(f.Name)))
		body = append(body, f.Name...)
		for _, v := range []uint64{uint64(f.Stamp.Size), uint64(f.Stamp.ModNs), uint64(f.Stamp.ChangeNs), f.Stamp.Ino, f.Stamp.Dev, uint64(f.Built), uint64(len(f.Part))} {
			body = le.AppendUint64(body, v)
		}
		body = append(body, f.Part...)
	}
	b := make([]byte, indexHeaderLen, indexHeaderLen+4*blocksOf(len(body))+len(body))
	copy(b, indexMagic)
	le.PutUint32(b[8:], indexVersion)
	le.PutUint32(b[16:], indexFingerprint)
	le.PutUint32(b[20:], uint32(len(files)))
	le.PutUint64(b[24:], uint64(len(body)))
	b = appendBlockSums(b, body)
	le.PutUint32(b[12:], crc32.ChecksumIEEE(b[16:]))
	return append(b, body...)
}

// IndexFile is an index file read back (DecodeIndexFile).
type IndexFile struct {
	Files []IndexedFile
	sums  *blockSums
}

// Damaged reports whether a query found a block of the file's parts
// damaged: what it read of them must not be trusted.
func (f *IndexFile) Damaged() bool { return f != nil && f.sums.failed() }

// DecodeIndexFile reads an index file; its parts are views of b, whose
// blocks are checked as they are read (IndexedFile.ReadPart). A file
// whose header or list of files is not intact, or that is of another
// version, is an error.
func DecodeIndexFile(b []byte) (*IndexFile, error) {
	le := binary.LittleEndian
	if len(b) < indexHeaderLen || !bytes.Equal(b[:8], indexMagic) || le.Uint32(b[8:]) != indexVersion ||
		le.Uint32(b[16:]) != indexFingerprint {
		return nil, errIndexFile
	}
	bodyLen := le.Uint64(b[24:])
	if bodyLen > uint64(len(b)) {
		return nil, errIndexFile
	}
	sumsEnd := indexHeaderLen + 4*blocksOf(int(bodyLen))
	if sumsEnd > len(b) || uint64(len(b)-sumsEnd) != bodyLen || le.Uint32(b[12:]) != crc32.ChecksumIEEE(b[16:sumsEnd]) {
		return nil, errIndexFile
	}
	body := b[sumsEnd:]
	sums := newBlockSums(body, b[indexHeaderLen:sumsEnd])
	out := &IndexFile{sums: sums}
	at := 0
	for range le.Uint32(b[20:]) {
		if !sums.ok(at, min(binary.MaxVarintLen64, len(body)-at)) {
			return nil, errIndexFile
		}
		l, k := binary.Uvarint(body[at:])
		if k <= 0 || l > uint64(len(body)-at-k) {
			return nil, errIndexFile
		}
		at += k
		if !sums.ok(at, int(l)+7*8) {
			return nil, errIndexFile
		}
		f := IndexedFile{Name: string(body[at : at+int(l)]), sums: sums}
		at += int(l)
		var v [7]uint64
		for i := range v {
			v[i] = le.Uint64(body[at+8*i:])
		}
		at += 7 * 8
		f.Stamp = store.Stamp{Size: int64(v[0]), ModNs: int64(v[1]), ChangeNs: int64(v[2]), Ino: v[3], Dev: v[4]}
		f.Built = int64(v[5])
		if v[6] > uint64(len(body)-at) || v[6] > math.MaxInt32 {
			return nil, errIndexFile
		}
		f.Part, f.at = body[at:at+int(v[6]):at+int(v[6])], at
		at += int(v[6])
		out.Files = append(out.Files, f)
	}
	if at != len(body) {
		return nil, errIndexFile
	}
	return out, nil
}

// ReadPart reads f's part (ReadPart), its bytes checked as they are read
// when f was read from an index file.
func (f IndexedFile) ReadPart() (*Part, error) {
	if !f.sums.ok(f.at, min(partHeaderLen, len(f.Part))) {
		return nil, errPart
	}
	p, err := ReadPart(f.Part)
	if err != nil {
		return nil, err
	}
	p.attach(f.sums, f.at)
	return p, nil
}
