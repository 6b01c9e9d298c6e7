package store

import (
	"context"
	"fmt"
	"os"
	"path/filepath"
	"strings"
	"testing"
)

// BenchmarkUpdateSmall measures one write transaction: lock, snapshot,
// decide, atomic write of a 40-line file, release.
func BenchmarkUpdateSmall(b *testing.B) {
	w, err := Open(b.TempDir())
	if err != nil {
		b.Fatal(err)
	}
	os.Mkdir(w.Dir, 0o755)
	lines := make([]string, 40)
	for i := range lines {
		lines[i] = fmt.Sprintf("- [entry-%d] Decision number %d about something worth remembering", i, i)
	}
	dec := filepath.Join(w.Dir, "decisions.md")
	if err := os.WriteFile(dec, []byte("# Decisions\n\n"+strings.Join(lines, "\n")+"\n"), 0o644); err != nil {
		b.Fatal(err)
	}
	ctx := context.Background()
	b.ResetTimer()
	for i := 0; b.Loop(); i++ {
		_, err := w.Update(ctx, func(s *Snapshot) ([]Change, error) {
			ls := strings.Split(string(s.Lookup("decisions.md").Data), "\n")
			ls[2+i%40] = fmt.Sprintf("- [entry-%d] rewritten in round %d", i%40, i)
			return []Change{{Path: dec, Data: []byte(strings.Join(ls, "\n"))}}, nil
		})
		if err != nil {
			b.Fatal(err)
		}
	}
}
