package text

import "bytes"

// CommonPrefix is the length of the longest common prefix of a and b,
// compared a block at a time: what a rescan of an edited file (one line
// changed in a megabyte) needs to know first.
func CommonPrefix(a, b []byte) int {
	const block = 4096
	n := min(len(a), len(b))
	i := 0
	for i+block <= n && bytes.Equal(a[i:i+block], b[i:i+block]) {
		i += block
	}
	for i < n && a[i] == b[i] {
		i++
	}
	return i
}

// CommonSuffix is the length of the longest common suffix of a and b,
// compared a block at a time.
func CommonSuffix(a, b []byte) int {
	const block = 4096
	n := min(len(a), len(b))
	i := 0
	for i+block <= n && bytes.Equal(a[len(a)-i-block:len(a)-i], b[len(b)-i-block:len(b)-i]) {
		i += block
	}
	for i < n && a[len(a)-1-i] == b[len(b)-1-i] {
		i++
	}
	return i
}
