package refs

import (
	"testing"
	"unsafe"
)

// TestRefSize: the language server keeps a Ref for every reference a folder
// cites (90,000 at 100,000 entries); the one-byte fields packed together
// keep it at 128 bytes.
func TestRefSize(t *testing.T) {
	if n := unsafe.Sizeof(Ref{}); n > 128 {
		t.Errorf("a Ref is %d bytes, want at most 128: are its one-byte fields together?", n)
	}
}
