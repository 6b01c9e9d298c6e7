package memory

import (
	"fmt"
	"strings"
	"testing"

	"github.com/memory-lsp/memory-lsp/core/memfile"
)

// TestReconcileNotBroughtInIsNotBrought: an entry another writer stored
// that the buffer cannot take without passing the file's limits is told
// as not brought in, and never also as brought.
func TestReconcileNotBroughtInIsNotBrought(t *testing.T) {
	var b strings.Builder
	b.WriteString("# Instructions\n\n")
	for i := 0; b.Len() < memfile.MaxBytes-200; i++ {
		fmt.Fprintf(&b, "- [e%d] %s\n", i, strings.Repeat("x", 200))
	}
	base := []byte(b.String())
	buffer := append(append([]byte(nil), base...), "- [unsaved] "+strings.Repeat("y", 300)+"\n"...)
	disk := append(append([]byte(nil), base...), "- [theirs] "+strings.Repeat("z", 300)+"\n"...)
	r := Reconcile(base, buffer, nil, disk)
	if len(r.NotBroughtIn) != 1 || !strings.Contains(r.NotBroughtIn[0], "[theirs]") {
		t.Fatalf("NotBroughtIn = %q, want the other writer's entry", r.NotBroughtIn)
	}
	if len(r.Brought) != 0 || string(r.Buffer) != string(buffer) {
		t.Errorf("Brought = %q (buffer changed: %v), want nothing brought and the buffer as it was", r.Brought, string(r.Buffer) != string(buffer))
	}
}
