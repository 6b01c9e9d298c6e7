package store

import (
	"bytes"
	"encoding/binary"
	"errors"
	"fmt"
)

// The paths of git's index, read from the file itself: a project updated
// after `git mv`, `git add` or a commit learns what the index lists now in a
// few milliseconds, where `git ls-files` spends more than ten on a
// 100,000-file index (most of it checking the file's trailing hash, which a
// file git replaced by a rename does not need). The format is git's
// Documentation/gitformat-index.txt, versions 2 to 4. An index this reader
// does not know whole — a split index (its entries live in another file), a
// sparse one (a folder stands for its files), anything malformed — is an
// error, and the caller asks git for the whole listing instead.

// errIndexUnsupported says the index holds what this reader does not read.
var errIndexUnsupported = errors.New("an index this reader does not read (split, sparse or unknown)")

// indexEntryFixed is the size of an entry's fixed fields before the object
// name: ctime, mtime (seconds and nanoseconds each), dev, ino, mode, uid,
// gid, size.
const indexEntryFixed = 40

// indexDiff reads the index file at name and compares the paths it lists,
// each once (an unmerged path has an entry per stage) and without those
// skip names, with the tracked ones of files: those not in untracked (both
// sorted, from an earlier reading). left are the tracked paths it no
// longer lists, joined those it lists anew (an untracked one among them),
// both sorted. hashSize is the object format's (20 for SHA-1, 32 for
// SHA-256). Nothing is allocated for a path both hold, so rereading an
// index of 100,000 paths after a `git mv` costs a comparison per path.
func indexDiff(name string, hashSize int, files, untracked []string, skip func(string) bool) (left, joined []string, err error) {
	b, unmap, err := mapFile(name)
	if err != nil {
		return nil, nil, err
	}
	defer unmap()
	bad := func(what string) error { return fmt.Errorf("reading git's index %s: %s", name, what) }
	if len(b) < 12+hashSize || string(b[:4]) != "DIRC" {
		return nil, nil, bad("not an index")
	}
	version := binary.BigEndian.Uint32(b[4:8])
	if version < 2 || version > 4 {
		return nil, nil, fmt.Errorf("%w: version %d", errIndexUnsupported, version)
	}
	n := int(binary.BigEndian.Uint32(b[8:12]))
	end := len(b) - hashSize // the trailing hash
	var last []byte          // the previous name (version 4 names are its prefix plus a suffix)
	var name4 []byte         // version 4's name buffer
	j := 0                   // the next of files not compared yet
	u := 0                   // the next of untracked not passed yet
	// isUntracked is asked of files in order.
	isUntracked := func(f string) bool {
		for u < len(untracked) && untracked[u] < f {
			u++
		}
		return u < len(untracked) && untracked[u] == f
	}
	at := 12
	for i := range n {
		start := at
		at += indexEntryFixed + hashSize
		if at+2 > end {
			return nil, nil, bad("truncated entry")
		}
		mode := binary.BigEndian.Uint32(b[start+24 : start+28])
		flags := binary.BigEndian.Uint16(b[at : at+2])
		at += 2
		if flags&0x4000 != 0 { // extended flags (version 3 on)
			if version < 3 {
				return nil, nil, bad("extended flags in a version 2 index")
			}
			at += 2
		}
		var p []byte
		if version == 4 {
			strip, k := indexVarint(b[at:end])
			if k == 0 || strip > len(last) {
				return nil, nil, bad("bad name prefix")
			}
			at += k
			nul := bytes.IndexByte(b[at:end], 0)
			if nul < 0 {
				return nil, nil, bad("unterminated name")
			}
			name4 = append(name4[:0], last[:len(last)-strip]...)
			name4 = append(name4, b[at:at+nul]...)
			p = name4
			at += nul + 1
		} else {
			// The flags hold the name's length when it is under 0xfff.
			nul := int(flags & 0xfff)
			if nul == 0xfff {
				nul = bytes.IndexByte(b[at:end], 0)
			}
			if nul < 0 || at+nul >= end || b[at+nul] != 0 {
				return nil, nil, bad("unterminated name")
			}
			p = b[at : at+nul]
			// The entry is padded with NULs to a multiple of eight bytes.
			at = start + (at-start+nul+8)&^7
		}
		if l := int(flags & 0xfff); l != 0xfff && l != len(p) {
			return nil, nil, bad("name length does not match its flags")
		}
		if mode&0o170000 == 0o040000 {
			return nil, nil, fmt.Errorf("%w: a sparse folder entry", errIndexUnsupported)
		}
		dup := i > 0 && bytes.Equal(p, last) // another stage of an unmerged path
		if version == 4 {
			last = append(last[:0], p...)
		} else {
			last = p
		}
		if dup {
			continue
		}
		if j < len(files) && files[j] == string(p) {
			// The common case: a path both hold.
			if isUntracked(files[j]) {
				joined = append(joined, files[j])
			}
			j++
			continue
		}
		for j < len(files) && files[j] < string(p) {
			if !isUntracked(files[j]) {
				left = append(left, files[j])
			}
			j++
		}
		if j < len(files) && files[j] == string(p) {
			if isUntracked(files[j]) {
				joined = append(joined, files[j])
			}
			j++
		} else if s := string(p); !skip(s) {
			joined = append(joined, s)
		}
	}
	for ; j < len(files); j++ {
		if !isUntracked(files[j]) {
			left = append(left, files[j])
		}
	}
	if at > end {
		return nil, nil, bad("truncated")
	}
	// Extensions: a split index keeps its entries in another file, and a
	// sparse one lists folders; neither is read here.
	for at+8 <= end {
		sig := string(b[at : at+4])
		size := int(binary.BigEndian.Uint32(b[at+4 : at+8]))
		if sig == "link" || sig == "sdir" {
			return nil, nil, fmt.Errorf("%w: %s extension", errIndexUnsupported, sig)
		}
		at += 8 + size
	}
	return left, joined, nil
}

// indexVarint decodes git's offset varint (each continuation adds one
// before shifting); k is the bytes read, 0 when malformed.
func indexVarint(b []byte) (v, k int) {
	if len(b) == 0 {
		return 0, 0
	}
	c := b[0]
	v, k = int(c&0x7f), 1
	for c&0x80 != 0 {
		if k >= len(b) || k > 8 {
			return 0, 0
		}
		c = b[k]
		k++
		v = (v+1)<<7 | int(c&0x7f)
	}
	return v, k
}
