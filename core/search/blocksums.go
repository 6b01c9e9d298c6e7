package search

import (
	"encoding/binary"
	"hash/crc32"
)

// An index file's body is checked a block at a time, as a query first
// reads each block, against the CRC-32 the writer stored for it. A query
// at 100,000 entries reads a tenth of a 6 MB index (its terms'
// dictionary entries and postings, its candidates' lengths, its hits'
// places); checking the whole file on every run cost more than the rest
// of the query, and faulted in every page of the mapping.
const (
	blockShift = 10
	blockSize  = 1 << blockShift
)

// blocksOf is how many blocks hold n bytes.
func blocksOf(n int) int { return (n + blockSize - 1) >> blockShift }

// appendBlockSums appends the CRC-32 of each block of body.
func appendBlockSums(b, body []byte) []byte {
	for lo := 0; lo < len(body); lo += blockSize {
		b = binary.LittleEndian.AppendUint32(b, crc32.ChecksumIEEE(body[lo:min(lo+blockSize, len(body))]))
	}
	return b
}

// blockSums checks the blocks of one index file's body. A block that does
// not match its sum makes the whole file damaged: every later check
// fails, and the query that found it answers from the memory files and
// builds the index again. Not safe for concurrent use: a query reads its
// index on one goroutine.
type blockSums struct {
	body    []byte
	sums    []byte // 4 bytes a block
	checked []uint64
	damaged bool
}

func newBlockSums(body, sums []byte) *blockSums {
	return &blockSums{body: body, sums: sums, checked: make([]uint64, (blocksOf(len(body))+63)/64)}
}

// ok checks the blocks holding body[off:off+n]; false when the span is
// outside the body or a block of it is damaged. A nil blockSums checks
// nothing: a part built in memory has no sums and needs none.
func (c *blockSums) ok(off, n int) bool {
	if c == nil {
		return true
	}
	if c.damaged || off < 0 || n < 0 || off > len(c.body)-n {
		c.damaged = true
		return false
	}
	if n == 0 {
		return true
	}
	for blk := off >> blockShift; blk <= (off+n-1)>>blockShift; blk++ {
		if c.checked[blk>>6]&(1<<(blk&63)) != 0 {
			continue
		}
		lo := blk << blockShift
		if crc32.ChecksumIEEE(c.body[lo:min(lo+blockSize, len(c.body))]) != binary.LittleEndian.Uint32(c.sums[4*blk:]) {
			c.damaged = true
			return false
		}
		c.checked[blk>>6] |= 1 << (blk & 63)
	}
	return true
}

// failed reports whether a block read was damaged.
func (c *blockSums) failed() bool { return c != nil && c.damaged }
