//go:build unix

package store

import (
	"bufio"
	"bytes"
	"context"
	"fmt"
	"io"
	"os"
	"os/exec"
	"path/filepath"
	"slices"
	"strconv"
	"strings"
	"testing"
	"time"

	"github.com/memory-lsp/memory-lsp/core/config"
	"github.com/memory-lsp/memory-lsp/core/rules"
)

// crashRounds is how often each stage is crashed in one folder; round 0
// starts without decisions.md, so a crash while creating the file is covered.
const crashRounds = 3

// TestCrashInsideUpdate kills (SIGKILL) a writer process at each stage of
// Update and checks what it leaves: the file is exactly the old or exactly the
// new version, a dead writer's lock and temp file are cleared by the next
// writer, whose own write lands, and a leftover temp file is never read as
// memory.
func TestCrashInsideUpdate(t *testing.T) {
	tests := []struct {
		at      stage
		renamed bool // the new content is in place when the writer dies
		temp    bool // a temp file is left behind
	}{
		{stageLocked, false, false},
		{stageTempSynced, false, true},
		{stageRenamed, true, false},
		{stageWritten, true, false},
	}
	for _, tc := range tests {
		t.Run(tc.at.String(), func(t *testing.T) {
			w, err := Open(t.TempDir())
			if err != nil {
				t.Fatal(err)
			}
			dec := filepath.Join(w.Dir, "decisions.md")
			for round := range crashRounds {
				old, oldExists := readIfExists(t, dec)
				line := fmt.Sprintf("- crashed at %v in round %d", tc.at, round)
				want := planAppend(t, w, line)

				pid := crashAt(t, w.Root, tc.at, line)

				got, exists := readIfExists(t, dec)
				switch {
				case tc.renamed && !bytes.Equal(got, want):
					t.Fatalf("round %d: file is %q, want the new version %q", round, got, want)
				case !tc.renamed && (exists != oldExists || !bytes.Equal(got, old)):
					t.Fatalf("round %d: file is %q (exists %v), want the old version %q (exists %v)", round, got, exists, old, oldExists)
				}
				if l := readString(t, filepath.Join(w.Dir, LockFile)); !strings.HasPrefix(l, fmt.Sprintf(`{"pid":%d,"ts":`, pid)) {
					t.Fatalf("round %d: lock holds %q, want the dead writer's (pid %d)", round, l, pid)
				}
				temps := tempFiles(t, w.Dir)
				if tc.temp {
					if len(temps) != 1 {
						t.Fatalf("round %d: temp files %q, want the dead writer's one", round, temps)
					}
					if b := readString(t, filepath.Join(w.Dir, temps[0])); b != string(want) {
						t.Errorf("round %d: the temp file holds %q, want the synced new version", round, b)
					}
				} else if len(temps) != 0 {
					t.Fatalf("round %d: temp files %q left", round, temps)
				}
				checkReadsNoTemp(t, w, got, exists)

				// The next writer, in another process than the dead one.
				next := fmt.Sprintf("- written after the crash in round %d", round)
				want = planAppend(t, w, next)
				w2, err := Open(w.Root)
				if err != nil {
					t.Fatal(err)
				}
				if _, err := w2.Update(context.Background(), appendIfAbsent(next+"\n")); err != nil {
					t.Fatalf("round %d: the next writer failed: %v", round, err)
				}
				if got := readString(t, dec); got != string(want) {
					t.Fatalf("round %d: after the next write the file is %q, want %q", round, got, want)
				}
				noLeftovers(t, w.Dir, "decisions.md")
			}
			// Every round's next writer landed, and exactly the crashed
			// writers that had renamed did.
			final := readString(t, dec)
			for round := range crashRounds {
				crashed := fmt.Sprintf("\n- crashed at %v in round %d\n", tc.at, round)
				if n := strings.Count(final, crashed); n != map[bool]int{true: 1, false: 0}[tc.renamed] {
					t.Errorf("%q appears %d times in %q", crashed, n, final)
				}
				if n := strings.Count(final, fmt.Sprintf("\n- written after the crash in round %d\n", round)); n != 1 {
					t.Errorf("round %d's next write appears %d times", round, n)
				}
			}
		})
	}
}

// crashAt starts a writer process that appends line, waits until it reports
// reaching stage at, kills it with SIGKILL and returns its pid.
func crashAt(t *testing.T, root string, at stage, line string) int {
	t.Helper()
	cmd, stdin, stderr := startStaged(t, "crash-at", root, strconv.Itoa(int(at))+":"+line, at)
	defer stdin.Close()
	if err := cmd.Process.Kill(); err != nil {
		t.Fatal(err)
	}
	werr := cmd.Wait()
	if ws, ok := cmd.ProcessState.Sys().(interface{ Signaled() bool }); !ok || !ws.Signaled() {
		t.Fatalf("writer was not killed by the signal: %v: %s", werr, stderr.String())
	}
	return cmd.Process.Pid
}

// startStaged starts the test binary as the helper role and returns once the
// helper says it reached stage at; the rest of its output is discarded.
func startStaged(t *testing.T, role, root, arg string, at stage) (*exec.Cmd, io.WriteCloser, *bytes.Buffer) {
	t.Helper()
	cmd := exec.Command(os.Args[0], "-test.run=^$")
	cmd.Env = append(os.Environ(), "MEMLSP_HELPER="+role, "MEMLSP_ROOT="+root, "MEMLSP_ARG="+arg)
	stderr := new(bytes.Buffer)
	cmd.Stderr = stderr
	stdin, err := cmd.StdinPipe()
	if err != nil {
		t.Fatal(err)
	}
	stdout, err := cmd.StdoutPipe()
	if err != nil {
		t.Fatal(err)
	}
	if err := cmd.Start(); err != nil {
		t.Fatal(err)
	}
	// A safety net only: a helper that never reaches the stage is killed,
	// and the read below then fails.
	guard := time.AfterFunc(time.Minute, func() { cmd.Process.Kill() })
	t.Cleanup(func() { guard.Stop() })
	r := bufio.NewReader(stdout)
	said, rerr := r.ReadString('\n')
	go io.Copy(io.Discard, r)
	if rerr != nil || said != fmt.Sprintf("at %v\n", at) {
		cmd.Process.Kill()
		werr := cmd.Wait()
		t.Fatalf("writer said %q (%v), exit %v: %s", said, rerr, werr, stderr.String())
	}
	return cmd, stdin, stderr
}

// planAppend is what appendIfAbsent(line) makes of the folder's current
// decisions.md.
func planAppend(t *testing.T, w *Workspace, line string) []byte {
	t.Helper()
	s, err := w.Snapshot()
	if err != nil {
		t.Fatal(err)
	}
	ch, err := appendIfAbsent(line + "\n")(s)
	if err != nil || len(ch) != 1 {
		t.Fatalf("planning %q: %v, %v", line, ch, err)
	}
	return ch[0].Data
}

func readIfExists(t *testing.T, p string) ([]byte, bool) {
	t.Helper()
	b, err := os.ReadFile(p)
	if os.IsNotExist(err) {
		return nil, false
	}
	if err != nil {
		t.Fatal(err)
	}
	return b, true
}

func tempFiles(t *testing.T, dir string) []string {
	t.Helper()
	ents, err := os.ReadDir(dir)
	if err != nil {
		t.Fatal(err)
	}
	var out []string
	for _, e := range ents {
		if strings.Contains(e.Name(), tempMarker) {
			if !isTempName(e.Name()) {
				t.Errorf("%q looks like a temp file but does not match our pattern", e.Name())
			}
			out = append(out, e.Name())
		}
	}
	return out
}

// checkReadsNoTemp: whatever a crash left, Snapshot and the rules see the
// category file as it is on disk and nothing else.
func checkReadsNoTemp(t *testing.T, w *Workspace, dec []byte, exists bool) {
	t.Helper()
	s, err := w.Snapshot()
	if err != nil {
		t.Fatal(err)
	}
	var files []rules.File
	for _, f := range s.Files {
		if isTempName(f.Name) || strings.Contains(f.Name, tempMarker) {
			t.Errorf("Snapshot lists %s", f.Name)
		}
		if f.Exists {
			files = append(files, rules.NewFile(f.Path, f.Data))
		}
	}
	var names []string
	for _, f := range files {
		names = append(names, f.Name)
	}
	if wantNames := map[bool][]string{true: {"decisions.md"}, false: nil}[exists]; !slices.Equal(names, wantNames) {
		t.Fatalf("read files %q, want %q", names, wantNames)
	}
	if exists && !bytes.Equal(files[0].Doc.Src, dec) {
		t.Errorf("Snapshot read %q, the disk holds %q", files[0].Doc.Src, dec)
	}
	for _, fd := range rules.Check(files, config.Default()) {
		if fd.Severity == rules.Error || fd.Code == "unknown-file" {
			t.Errorf("finding after the crash: %s %s: %s", files[fd.File].Name, fd.Code, fd.Message)
		}
	}
}
