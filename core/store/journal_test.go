package store

import (
	"bytes"
	"context"
	"os"
	"os/exec"
	"path/filepath"
	"strings"
	"testing"
	"time"
)

func TestJournalReadSkipsTornRecords(t *testing.T) {
	dir := t.TempDir()
	now := time.Now()
	old := NewAck("decisions.md", "- Old.", nil, "cli", now.Add(-2*JournalKeep))
	a := NewAck("decisions.md", "- A.", nil, "cli", now)
	b := NewAck("quirks.md", "- B.", []string{"- Gone."}, "mcp", now)
	data := append(old.Encode(), a.Encode()...)
	data = append(data, []byte("{\"id\":\"torn\",\"at\"")...) // a writer killed mid-append
	data = append(data, '\n')
	data = append(data, b.Encode()...)
	if err := os.WriteFile(filepath.Join(dir, JournalName), data, 0o644); err != nil {
		t.Fatal(err)
	}
	recs, err := ReadJournal(dir)
	if err != nil {
		t.Fatal(err)
	}
	// The old record too: a reader judges records by ID, never by the
	// clock of the process that wrote them.
	if len(recs) != 3 || recs[0].ID != old.ID || recs[1].ID != a.ID || recs[2].ID != b.ID || recs[2].Drop[0] != "- Gone." {
		t.Fatalf("ReadJournal = %+v", recs)
	}
	if a.ID == b.ID {
		t.Error("two records share an ID")
	}
	if recs, err := ReadJournal(t.TempDir()); err != nil || recs != nil {
		t.Errorf("an absent journal: %v %v", recs, err)
	}
}

func TestJournalAppendPrunes(t *testing.T) {
	dir := t.TempDir()
	path := filepath.Join(dir, JournalName)
	now := time.Now()
	// Past the size bound: the newest records that fit in half of it stay.
	var last Ack
	for i := 0; i < 3000; i++ { // 3000 records are past the bound
		last = NewAck("decisions.md", "- Entry "+strings.Repeat("x", 100)+".", nil, "cli", now)
		if err := appendJournal(path, last.Encode(), now); err != nil {
			t.Fatal(err)
		}
		if fi, _ := os.Stat(path); fi.Size() > journalMaxBytes {
			t.Fatalf("the journal is %d bytes, over its bound", fi.Size())
		}
	}
	recs, _ := ReadJournal(dir)
	if len(recs) == 0 || recs[len(recs)-1].ID != last.ID {
		t.Fatalf("the newest record is not kept")
	}
	// A journal whose first record is old is rewritten with the young ones.
	os.Remove(path)
	oldRec := NewAck("decisions.md", "- Old.", nil, "cli", now.Add(-2*JournalKeep))
	os.WriteFile(path, oldRec.Encode(), 0o644)
	young := NewAck("decisions.md", "- Young.", nil, "cli", now)
	if err := appendJournal(path, young.Encode(), now); err != nil {
		t.Fatal(err)
	}
	if got := string(mustRead(t, path)); got != string(young.Encode()) {
		t.Errorf("after pruning the old record: %q", got)
	}
}

func mustRead(t *testing.T, path string) []byte {
	b, err := os.ReadFile(path)
	if err != nil && !os.IsNotExist(err) {
		t.Fatal(err)
	}
	return b
}

// The journal is written inside the lock, after the files, and only by
// appending; it is not reported as a written memory file.
func TestUpdateAppendsJournalLast(t *testing.T) {
	root := t.TempDir()
	w, err := Open(root)
	if err != nil {
		t.Fatal(err)
	}
	a := NewAck("decisions.md", "- A.", nil, "cli", time.Now())
	jpath := filepath.Join(w.Dir, JournalName)
	inside := false
	w.hook = func(s stage) {
		if s == stageWritten {
			_, jerr := os.Stat(jpath)
			_, lerr := os.Stat(filepath.Join(w.Dir, ".lock"))
			inside = jerr == nil && lerr == nil
		}
	}
	written, err := w.Update(context.Background(), func(*Snapshot) ([]Change, error) {
		return []Change{{Path: jpath, Data: a.Encode(), Append: true}, {Path: filepath.Join(w.Dir, "decisions.md"), Data: []byte("- A.\n")}}, nil
	})
	if err != nil {
		t.Fatal(err)
	}
	if len(written) != 1 || filepath.Base(written[0].Path) != "decisions.md" {
		t.Errorf("written = %+v", written)
	}
	if !inside {
		t.Error("the journal was not written while the lock was held")
	}
	w.hook = nil
	if got := mustRead(t, jpath); !bytes.Equal(got, a.Encode()) {
		t.Errorf("journal = %q", got)
	}
	if _, err := os.Stat(filepath.Join(w.Dir, ".lock")); !os.IsNotExist(err) {
		t.Errorf("the lock is left: %v", err)
	}
	_, err = w.Update(context.Background(), func(*Snapshot) ([]Change, error) {
		return []Change{{Path: jpath, Data: []byte("x")}}, nil
	})
	if err == nil || !strings.Contains(err.Error(), "only appended") {
		t.Errorf("a replacement of the journal: %v", err)
	}
}

// Something else than a regular file where the journal goes (committed or
// planted) refuses the update before any file is written, naming it; a
// journal too large to be ours is pruned to what was just appended.
func TestJournalPathPlanted(t *testing.T) {
	for _, kind := range []string{"folder", "symlink"} {
		t.Run(kind, func(t *testing.T) {
			root := t.TempDir()
			w, err := Open(root)
			if err != nil {
				t.Fatal(err)
			}
			os.MkdirAll(w.Dir, 0o755)
			jpath := filepath.Join(w.Dir, JournalName)
			mem := filepath.Join(w.Dir, "decisions.md")
			os.WriteFile(mem, []byte("- A.\n"), 0o644)
			if kind == "folder" {
				os.MkdirAll(filepath.Join(jpath, "keep"), 0o755)
			} else {
				os.Symlink("decisions.md", jpath)
			}
			a := NewAck("decisions.md", "- B.", nil, "cli", time.Now())
			_, err = w.Update(context.Background(), func(*Snapshot) ([]Change, error) {
				return []Change{{Path: mem, Data: []byte("- A.\n- B.\n")}, {Path: jpath, Data: a.Encode(), Append: true}}, nil
			})
			if err == nil || !strings.Contains(err.Error(), JournalName) {
				t.Fatalf("the update went on: %v", err)
			}
			if got := string(mustRead(t, mem)); got != "- A.\n" {
				t.Errorf("the memory file was written before the refusal: %q", got)
			}
		})
	}
	t.Run("too large", func(t *testing.T) {
		dir := t.TempDir()
		path := filepath.Join(dir, JournalName)
		os.WriteFile(path, bytes.Repeat([]byte("x"), journalReadBytes+1), 0o644)
		a := NewAck("decisions.md", "- B.", nil, "cli", time.Now())
		if err := appendJournal(path, a.Encode(), time.Now()); err != nil {
			t.Fatal(err)
		}
		if recs, err := ReadJournal(dir); err != nil || len(recs) != 1 || recs[0].ID != a.ID {
			t.Errorf("after the append: %+v %v", recs, err)
		}
	})
}

// The line git is given ignores the journal of a workspace in a subfolder
// of the repository too.
func TestJournalIgnoredAtAnyDepth(t *testing.T) {
	if _, err := exec.LookPath("git"); err != nil {
		t.Skip("git is not installed")
	}
	top := t.TempDir()
	if out, err := exec.Command("git", "init", "-q", top).CombinedOutput(); err != nil {
		t.Fatalf("git init: %v %s", err, out)
	}
	for _, sub := range []string{"", "services/api"} {
		dir := filepath.Join(top, sub, DirName)
		os.MkdirAll(dir, 0o755)
		a := NewAck("decisions.md", "- B.", nil, "cli", time.Now())
		if err := appendJournal(filepath.Join(dir, JournalName), a.Encode(), time.Now()); err != nil {
			t.Fatal(err)
		}
		out, err := exec.Command("git", "-C", top, "status", "--porcelain", "--untracked-files=all").CombinedOutput()
		if err != nil || strings.Contains(string(out), JournalName) {
			t.Errorf("git status lists the journal of %q: %v\n%s", sub, err, out)
		}
	}
	ex, _ := os.ReadFile(filepath.Join(top, ".git", "info", "exclude"))
	if strings.Count(string(ex), journalPattern) != 1 {
		t.Errorf("git's exclude file:\n%s", ex)
	}
}
