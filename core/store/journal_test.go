package store

import (
	"bytes"
	"context"
	"os"
	"path/filepath"
	"strings"
	"testing"
	"time"
)

func TestJournalReadSkipsTornAndOldRecords(t *testing.T) {
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
	recs, err := ReadJournal(dir, now)
	if err != nil {
		t.Fatal(err)
	}
	if len(recs) != 2 || recs[0].ID != a.ID || recs[1].ID != b.ID || recs[1].Drop[0] != "- Gone." {
		t.Fatalf("ReadJournal = %+v", recs)
	}
	if a.ID == b.ID {
		t.Error("two records share an ID")
	}
	if recs, err := ReadJournal(t.TempDir(), now); err != nil || recs != nil {
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
	recs, _ := ReadJournal(dir, now)
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
