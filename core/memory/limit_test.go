package memory

import (
	"context"
	"errors"
	"fmt"
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/memory-lsp/memory-lsp/core/config"
	"github.com/memory-lsp/memory-lsp/core/memfile"
	"github.com/memory-lsp/memory-lsp/core/rules"
	"github.com/memory-lsp/memory-lsp/internal/poison"
)

// TestStoreUpToTheLimit: a store that would take a file past
// memfile.MaxBytes is refused before anything is written, naming the file,
// its size, the size it would have and the limit, through the service (as
// the CLI and MCP run it) and its dry run; one that fills the file to the
// byte is stored, since a file of exactly MaxBytes is still read (the
// limit is inclusive: rules.File.TooLarge is size > MaxFileBytes).
func TestStoreUpToTheLimit(t *testing.T) {
	roomy := config.Default()
	for i := range roomy.Limits {
		roomy.Limits[i] = poison.RoomyLimit
	}
	const content = "Tag every release from the main branch."
	line := len(memfile.EntryLine("", content)) + 1
	longer := "Use Postgres for the ledger and for the reporting replica."
	grows := len(longer) - len("Use Postgres for the ledger.")
	tests := []struct {
		name    string
		size    int
		req     StoreRequest
		stored  bool
		grownTo int
	}{
		{"an append that fills it to the byte", rules.MaxFileBytes - line, StoreRequest{Category: "Decision", Content: content}, true, 0},
		{"an append one byte past", rules.MaxFileBytes - line + 1, StoreRequest{Category: "Decision", Content: content}, false, rules.MaxFileBytes + 1},
		{"an update in place that grows it past", rules.MaxFileBytes - grows + 1, StoreRequest{Category: "Decision", Content: longer, Slug: "db"}, false, rules.MaxFileBytes + 1},
		{"an update in place that fills it", rules.MaxFileBytes - grows, StoreRequest{Category: "Decision", Content: longer, Slug: "db"}, true, 0},
	}
	for _, tc := range tests {
		t.Run(tc.name, func(t *testing.T) {
			root := gitRoot(t)
			path := filepath.Join(root, ".memory", "decisions.md")
			if err := os.MkdirAll(filepath.Dir(path), 0o755); err != nil {
				t.Fatal(err)
			}
			if err := os.WriteFile(path, []byte(poison.FileOfSize(tc.size)), 0o644); err != nil {
				t.Fatal(err)
			}
			before := poison.Files(t, root)
			svc := newService(root)
			svc.Cfg = roomy
			for _, dry := range []bool{true, false} {
				res, err := svc.Store(context.Background(), tc.req, dry)
				if tc.stored {
					if err != nil || (res.Action != ActionStored && res.Action != ActionUpdated) {
						t.Fatalf("dry run %v: %v, %+v; want it stored", dry, err, res)
					}
					continue
				}
				var tl *FileTooLargeError
				if !errors.As(err, &tl) || tl.Size != int64(tc.size) || tl.Grown != int64(tc.grownTo) {
					t.Fatalf("dry run %v: %v (%+v); want a FileTooLargeError of a %d-byte file grown to %d", dry, err, tl, tc.size, tc.grownTo)
				}
				for _, w := range []string{"refusing to store into decisions.md", fmt.Sprintf("it is %d bytes", tc.size), fmt.Sprintf("%d bytes, over the limit of a memory file (%d MiB, %d bytes)", tc.grownTo, rules.MaxFileBytes>>20, rules.MaxFileBytes), "nothing was written"} {
					if !strings.Contains(err.Error(), w) {
						t.Errorf("the refusal %q does not say %q", err, w)
					}
				}
			}
			if !tc.stored {
				poison.Unchanged(t, root, before, "a refused store")
				return
			}
			after, err := os.ReadFile(path)
			if err != nil {
				t.Fatal(err)
			}
			if len(after) != rules.MaxFileBytes {
				t.Fatalf("the file is %d bytes after the store, want exactly %d", len(after), rules.MaxFileBytes)
			}
			// Filled to the byte, it is read, parsed and checked like any other.
			f := rules.NewFile(path, after)
			if f.TooLarge() || !strings.Contains(f.Doc.Entries[len(f.Doc.Entries)-1].Content+f.Doc.Entries[0].Content, tc.req.Content) {
				t.Errorf("the filled file is not read as it holds the stored entry")
			}
			// Then not one byte more goes in.
			if _, err := svc.Store(context.Background(), StoreRequest{Category: "Decision", Content: "Ship on Tuesdays."}, false); !errors.As(err, new(*FileTooLargeError)) {
				t.Errorf("a store into the full file: %v, want a refusal", err)
			}
		})
	}
}

// TestAssignSlugsUpToTheLimit: slugs that would take a file past the limit
// are refused for every file (slugs are unique across them), and nothing is
// planned; with room they are assigned.
func TestAssignSlugsUpToTheLimit(t *testing.T) {
	base := poison.FileOfSize(rules.MaxFileBytes - 40)
	text := base + "- Deploy with blue green releases.\n"
	files := []rules.File{rules.NewFile("/w/.memory/decisions.md", []byte(text))}
	a, err := PlanAssignSlugs(files, config.Default(), "")
	var tl *FileTooLargeError
	if !errors.As(err, &tl) || tl.Op != "assign slugs in" || tl.Size != int64(len(text)) || tl.Grown <= rules.MaxFileBytes || len(a.After) != 0 {
		t.Fatalf("PlanAssignSlugs near the limit: %v, %d files planned; want a refusal", err, len(a.After))
	}
	small := []rules.File{rules.NewFile("/w/.memory/decisions.md", []byte("# Decisions\n\n- Deploy with blue green releases.\n"))}
	if a, err := PlanAssignSlugs(small, config.Default(), ""); err != nil || len(a.Assigned) != 1 {
		t.Errorf("PlanAssignSlugs with room: %v, %v", err, a.Assigned)
	}
}

// TestStoreUpToTheLineLimit: a store that would take a file past
// memfile.MaxLines is refused before anything is written, naming the lines
// it holds, those it would hold and the limit; a file past the limit
// already is refused as one that is not parsed. Both through the service,
// as the CLI and MCP run it.
func TestStoreUpToTheLineLimit(t *testing.T) {
	roomy := config.Default()
	for i := range roomy.Limits {
		roomy.Limits[i] = poison.RoomyLimit
	}
	head := "# Decisions\n\n- [db] Use Postgres for the ledger.\n"
	full := head + strings.Repeat("\n", memfile.MaxLines-memfile.Lines([]byte(head)))
	if memfile.Lines([]byte(full)) != memfile.MaxLines {
		t.Fatalf("fixture holds %d lines", memfile.Lines([]byte(full)))
	}
	for _, tc := range []struct {
		name, text string
		want       []string
		grown      bool
	}{
		{"at the limit", full, []string{"refusing to store into decisions.md", fmt.Sprintf("it holds %d lines, and this would make it", memfile.MaxLines), fmt.Sprintf("over the limit of a memory file (%d lines)", memfile.MaxLines), "nothing was written"}, true},
		{"past the limit", full + "\n", []string{"decisions.md: it holds", fmt.Sprintf("holds %d lines, over the %d-line limit of a memory file", memfile.MaxLines+1, memfile.MaxLines), "nothing is written"}, false},
	} {
		t.Run(tc.name, func(t *testing.T) {
			root := gitRoot(t)
			path := filepath.Join(root, ".memory", "decisions.md")
			if err := os.MkdirAll(filepath.Dir(path), 0o755); err != nil {
				t.Fatal(err)
			}
			if err := os.WriteFile(path, []byte(tc.text), 0o644); err != nil {
				t.Fatal(err)
			}
			before := poison.Files(t, root)
			svc := newService(root)
			svc.Cfg = roomy
			for _, dry := range []bool{true, false} {
				_, err := svc.Store(context.Background(), StoreRequest{Category: "Decision", Content: "Ship on Tuesdays."}, dry)
				var tl *FileTooLargeError
				if !errors.As(err, &tl) || (tl.GrownLines > memfile.MaxLines) != tc.grown {
					t.Fatalf("dry run %v: %v (%+v); want a FileTooLargeError, grown %v", dry, err, tl, tc.grown)
				}
				for _, w := range tc.want {
					if !strings.Contains(err.Error(), w) {
						t.Errorf("the refusal %q does not say %q", err, w)
					}
				}
			}
			poison.Unchanged(t, root, before, "a refused store")
		})
	}
}
