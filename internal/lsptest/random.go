package lsptest

import (
	"math/rand/v2"
	"os"
	"path/filepath"
	"strings"
	"testing"
	"time"
)

// Words is a small vocabulary for random memory entries: entries drawn from
// it share words, so a query has several hits whose order depends on every
// file's statistics (the tests that compare a warm index with a cold one).
var Words = strings.Fields(`cache redis deploy pipeline token session auth
postgres replica timeout retry worker queue build test lint release branch
merge commit docker image secret rotate config schema migration index query`)

// Sentence is an entry's content of 3 to 8 words of Words, with a leading
// "[slug] " made of two of them one time in three when slugged.
func Sentence(r *rand.Rand, slugged bool) string {
	words := make([]string, 3+r.IntN(6))
	for i := range words {
		words[i] = Words[r.IntN(len(Words))]
	}
	s := strings.Join(words, " ") + "."
	if slugged && r.IntN(3) == 0 {
		s = "[" + Words[r.IntN(len(Words))] + "-" + Words[r.IntN(len(Words))] + "] " + s
	}
	return s
}

// Rewrite changes the memory file at path as another program would, and
// says how: one of its lines replaced by a new entry (the file created when
// absent), written in place or through a rename, or the file deleted. Half
// the time the file's modification time is then set to *past, which each
// such call advances by a second: old enough to be judged by its stat, and
// never the same twice.
func Rewrite(tb testing.TB, r *rand.Rand, path string, past *time.Time) string {
	tb.Helper()
	old, _ := os.ReadFile(path)
	lines := strings.Split(string(old), "\n")
	lines[r.IntN(len(lines))] = "- " + Sentence(r, true)
	data := []byte(strings.Join(lines, "\n"))
	what := "rewrote " + filepath.Base(path) + " in place"
	var err error
	switch r.IntN(4) {
	case 0:
		what = "deleted " + filepath.Base(path)
		_ = os.Remove(path)
	case 1:
		what = "replaced " + filepath.Base(path)
		if err = os.WriteFile(path+".new", data, 0o644); err == nil {
			err = os.Rename(path+".new", path)
		}
	default:
		err = os.WriteFile(path, data, 0o644)
	}
	if err != nil {
		tb.Fatal(err)
	}
	if r.IntN(2) == 0 {
		*past = past.Add(time.Second)
		_ = os.Chtimes(path, *past, *past)
		what += ", with an old time"
	}
	return what
}
