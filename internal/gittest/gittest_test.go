package gittest

import (
	"path/filepath"
	"testing"
	"time"
)

// A commit is dated as asked and made by the fixed identity in the new
// repository, though the test inherited a GIT_DIR naming another.
func TestCommit(t *testing.T) {
	elsewhere := New(t)
	t.Setenv("GIT_DIR", filepath.Join(elsewhere.Dir, ".git"))
	r := New(t)
	r.Write(map[string]string{"a/b.txt": "x\n"})
	r.Commit("2024-02-01", "first")
	r.Write(map[string]string{"a/b.txt": "y\n"})
	r.Commit("2024-03-01T10:00:00Z", "second")
	got := r.Git("log", "--format=%an <%ae> %cI %aI %s")
	want := "Memory Test <memory@example.com> 2024-03-01T10:00:00+00:00 2024-03-01T10:00:00+00:00 second\n" +
		"Memory Test <memory@example.com> 2024-02-01T00:00:00+00:00 2024-02-01T00:00:00+00:00 first\n"
	if got != want {
		t.Errorf("log:\n%s\nwant:\n%s", got, want)
	}
	if got := elsewhere.Git("rev-list", "--all"); got != "" {
		t.Errorf("the inherited GIT_DIR received commits:\n%s", got)
	}
	if d := Day("2024-02-01"); !d.Equal(time.Date(2024, 2, 1, 0, 0, 0, 0, time.UTC)) {
		t.Errorf("Day = %v", d)
	}
}
