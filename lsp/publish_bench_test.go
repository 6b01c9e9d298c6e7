package lsp

import (
	"encoding/json"
	"fmt"
	"os"
	"path/filepath"
	"strings"
	"testing"
	"time"

	"github.com/tliron/commonlog"

	"github.com/memory-lsp/memory-lsp/core/config"
	"github.com/memory-lsp/memory-lsp/core/rules"
)

// The server's own share of a keystroke at 10,000 entries, without the
// check (core's) and without the client: building the folder's view, and
// turning the findings into the publishDiagnostics bytes. The view has the
// path it replaced beside it ("uncached"). Figures are in BENCHMARKS.md
// ("Language server").

// benchFolder is a .memory folder with BenchDecisions(10000) as
// decisions.md, open in the server, and a 40-entry quirks.md on disk;
// under HackLM's limits it has over 13,000 findings.
func benchFolder(b *testing.B) (*Server, string) {
	b.Helper()
	root := b.TempDir()
	decisions := BenchDecisions(10000)
	var q strings.Builder
	q.WriteString("# Quirks\n\n")
	for i := range 40 {
		fmt.Fprintf(&q, "- [quirk-%d] The build %d needs a warm cache.\n", i, i)
	}
	dir := filepath.Join(root, ".memory")
	path := filepath.Join(dir, "decisions.md")
	for name, text := range map[string]string{"decisions.md": decisions, "quirks.md": q.String()} {
		if err := os.MkdirAll(dir, 0o755); err != nil {
			b.Fatal(err)
		}
		if err := os.WriteFile(filepath.Join(dir, name), []byte(text), 0o644); err != nil {
			b.Fatal(err)
		}
		// Older than store.RacyWindow, as a folder is between an agent's writes.
		old := time.Now().Add(-time.Hour)
		if err := os.Chtimes(filepath.Join(dir, name), old, old); err != nil {
			b.Fatal(err)
		}
	}
	s := NewServer(Options{}, commonlog.GetLogger("bench"))
	s.openForTest(path, 1, decisions)
	return s, filepath.Dir(path)
}

func BenchmarkView10k(b *testing.B) {
	s, dir := benchFolder(b)
	b.Run("uncached", func(b *testing.B) {
		for b.Loop() {
			uncachedView(b, s, dir)
		}
	})
	// Without a watcher the disk side is read every time; the open buffer's
	// parse is still reused.
	b.Run("unwatched", func(b *testing.B) {
		for b.Loop() {
			s.snapshot(s.folderFor(dir))
		}
	})
	// A watched folder (the watcher's bookkeeping alone: no events come in
	// a benchmark) serves the disk side from the cache after a stat.
	b.Run("watched", func(b *testing.B) {
		s.watch = &watcher{s: s, dirs: map[string]watchMode{dir: watchFolder}}
		defer func() { s.watch = nil }()
		for b.Loop() {
			s.snapshot(s.folderFor(dir))
		}
	})
}

func BenchmarkEncodePublish10k(b *testing.B) {
	s, dir := benchFolder(b)
	v, _ := s.snapshot(s.folderFor(dir))
	findings := rules.Check(v.files, config.Default())
	fi := v.find(filepath.Join(dir, "decisions.md"))
	var own []int32
	for k, f := range findings {
		if f.File == fi {
			own = append(own, int32(k))
		}
	}
	for b.Loop() {
		if _, err := json.Marshal(notificationOut{JSONRPC: "2.0", Method: "textDocument/publishDiagnostics", Params: s.publishParams(v, fi, findings, own)}); err != nil {
			b.Fatal(err)
		}
	}
	b.ReportMetric(float64(len(own)), "diagnostics")
}
