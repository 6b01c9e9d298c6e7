package memory

import (
	"context"
	"fmt"
	"io"
	"os"
	"os/exec"
	"path/filepath"
	"strconv"
	"strings"
	"sync"
	"testing"
	"time"

	"github.com/memory-lsp/memory-lsp/core/category"
	"github.com/memory-lsp/memory-lsp/core/config"
	"github.com/memory-lsp/memory-lsp/core/memfile"
	"github.com/memory-lsp/memory-lsp/core/rules"
	"github.com/memory-lsp/memory-lsp/core/store"
)

// TestMain lets the test binary act as a second writer process: the
// concurrency tests below start copies of it with MEMLSP_STORE_HELPER set.
func TestMain(m *testing.M) {
	if root := os.Getenv("MEMLSP_STORE_HELPER"); root != "" {
		os.Exit(storeHelper(root))
	}
	if dir := os.Getenv("MEMLSP_HOLD_LOCK"); dir != "" {
		os.Exit(holdLockLikeHackLM(dir))
	}
	os.Exit(m.Run())
}

// holdLockLikeHackLM takes .memory/.lock exactly as HackLM's crossProcessLock
// does (exclusive create, compact JSON, no newline), announces it on stdout,
// holds it for 400 ms and removes it.
func holdLockLikeHackLM(dir string) int {
	path := filepath.Join(dir, ".lock")
	f, err := os.OpenFile(path, os.O_CREATE|os.O_EXCL|os.O_WRONLY, 0o666)
	if err != nil {
		fmt.Fprintln(os.Stderr, err)
		return 1
	}
	fmt.Fprintf(f, `{"pid":%d,"ts":%d}`, os.Getpid(), time.Now().UnixMilli())
	f.Close()
	fmt.Println("locked")
	time.Sleep(400 * time.Millisecond)
	os.Remove(path)
	return 0
}

// storeHelper stores MEMLSP_STORE_CONTENTS (separated by "|") one by one.
func storeHelper(root string) int {
	svc := newService(root)
	if n, err := strconv.Atoi(os.Getenv("MEMLSP_DECISION_LIMIT")); err == nil {
		svc.Cfg.Limits[category.Decision] = n
	}
	for _, c := range strings.Split(os.Getenv("MEMLSP_STORE_CONTENTS"), "|") {
		if _, err := svc.Store(context.Background(), StoreRequest{Category: "Decision", Content: c}, false); err != nil {
			fmt.Fprintln(os.Stderr, err)
			return 1
		}
	}
	return 0
}

func newService(root string) *Service {
	ws, err := store.Open(root)
	if err != nil {
		panic(err)
	}
	return &Service{WS: ws, Cfg: config.Default()}
}

func entriesOf(t *testing.T, root string) []memfile.Entry {
	t.Helper()
	b, err := os.ReadFile(filepath.Join(root, ".memory", "decisions.md"))
	if err != nil {
		t.Fatal(err)
	}
	return memfile.Parse(b).Entries
}

func TestStoreRefusalLeavesFileUntouched(t *testing.T) {
	root := t.TempDir()
	svc := newService(root)
	// Instructions to agents and hidden text are refused with review off;
	// with it on they are held (review_test.go).
	svc.Cfg.Review = config.ReviewOff
	if _, err := svc.Store(context.Background(), StoreRequest{Category: "Decision", Content: "Use Postgres for the ledger."}, false); err != nil {
		t.Fatal(err)
	}
	path := filepath.Join(root, ".memory", "decisions.md")
	before, _ := os.ReadFile(path)
	for _, tt := range validationCases {
		req := tt.req
		if req.Category == "Security" {
			req.Category = "Decision" // refuse into the file that exists
		}
		_, err := svc.Store(context.Background(), req, false)
		if in, ok := err.(*InputError); !ok || in.Field != tt.wantField {
			t.Errorf("%s: store returned %v, want a refusal of %s", tt.name, err, tt.wantField)
		}
	}
	after, _ := os.ReadFile(path)
	if string(after) != string(before) {
		t.Errorf("refused stores changed the file:\n%q\n->\n%q", before, after)
	}
	if _, err := os.Stat(filepath.Join(root, ".memory", ".lock")); !os.IsNotExist(err) {
		t.Errorf("lock file left behind: %v", err)
	}
}

func TestDryRunWritesNothing(t *testing.T) {
	root := t.TempDir()
	svc := newService(root)
	res, err := svc.Store(context.Background(), StoreRequest{Category: "Decision", Content: "Use Postgres."}, true)
	if err != nil || res.Action != ActionStored {
		t.Fatalf("dry run: %+v, %v", res, err)
	}
	if _, err := os.Stat(filepath.Join(root, ".memory")); !os.IsNotExist(err) {
		t.Errorf("dry run created .memory: %v", err)
	}
}

func TestIdenticalStoresFromGoroutinesLeaveOneEntry(t *testing.T) {
	root := t.TempDir()
	svc := newService(root)
	var wg sync.WaitGroup
	errs := make(chan error, 8)
	for range 8 {
		wg.Add(1)
		go func() {
			defer wg.Done()
			_, err := svc.Store(context.Background(), StoreRequest{Category: "Decision", Content: "Ship the ledger on Postgres 16."}, false)
			errs <- err
		}()
	}
	wg.Wait()
	close(errs)
	for err := range errs {
		if err != nil {
			t.Fatal(err)
		}
	}
	if n := len(entriesOf(t, root)); n != 1 {
		t.Errorf("%d entries, want exactly 1", n)
	}
}

func runHelpers(t *testing.T, root string, contents [][]string) {
	t.Helper()
	exe, err := os.Executable()
	if err != nil {
		t.Fatal(err)
	}
	var cmds []*exec.Cmd
	for _, c := range contents {
		cmd := exec.Command(exe, "-test.run=^$")
		cmd.Env = append(os.Environ(), "MEMLSP_STORE_HELPER="+root, "MEMLSP_STORE_CONTENTS="+strings.Join(c, "|"))
		cmd.Stderr = os.Stderr
		if err := cmd.Start(); err != nil {
			t.Fatal(err)
		}
		cmds = append(cmds, cmd)
	}
	for _, cmd := range cmds {
		if err := cmd.Wait(); err != nil {
			t.Fatalf("helper process: %v", err)
		}
	}
}

func TestIdenticalStoresFromProcessesLeaveOneEntry(t *testing.T) {
	root := t.TempDir()
	same := []string{"Ship the ledger on Postgres 16."}
	runHelpers(t, root, [][]string{same, same, same, same})
	if n := len(entriesOf(t, root)); n != 1 {
		t.Errorf("%d entries, want exactly 1", n)
	}
}

// distinctContent makes texts that share no keywords, so dedup keeps them all.
func distinctContent(p, i int) string {
	return "Service" + strconv.Itoa(p) + "x" + strconv.Itoa(i) + " owns queue" + strconv.Itoa(p*1000+i) + " exclusively"
}

func TestDistinctStoresFromProcessesAreAllKept(t *testing.T) {
	if testing.Short() {
		t.Skip("starts 4 processes writing 200 entries")
	}
	root := t.TempDir()
	// The default limit of 40 would evict; the helpers inherit this.
	t.Setenv("MEMLSP_DECISION_LIMIT", "200")
	var contents [][]string
	for p := range 4 {
		var c []string
		for i := range 50 {
			c = append(c, distinctContent(p, i))
		}
		contents = append(contents, c)
	}
	runHelpers(t, root, contents)
	got := entriesOf(t, root)
	seen := map[string]int{}
	for _, e := range got {
		seen[e.Content]++
	}
	for _, c := range contents {
		for _, s := range c {
			if seen[s] != 1 {
				t.Errorf("%q present %d times, want 1", s, seen[s])
			}
		}
	}
	if len(got) != 200 {
		t.Errorf("%d entries, want 200", len(got))
	}
}

// TestStoreWaitsForHackLMLock: while another process holds the lock the way
// HackLM writes it, a store waits, then succeeds once the lock is released.
func TestStoreWaitsForHackLMLock(t *testing.T) {
	root := t.TempDir()
	dir := filepath.Join(root, ".memory")
	if err := os.Mkdir(dir, 0o755); err != nil {
		t.Fatal(err)
	}
	exe, err := os.Executable()
	if err != nil {
		t.Fatal(err)
	}
	holder := exec.Command(exe, "-test.run=^$")
	holder.Env = append(os.Environ(), "MEMLSP_HOLD_LOCK="+dir)
	out, err := holder.StdoutPipe()
	if err != nil {
		t.Fatal(err)
	}
	if err := holder.Start(); err != nil {
		t.Fatal(err)
	}
	buf := make([]byte, len("locked\n"))
	if _, err := io.ReadFull(out, buf); err != nil || string(buf) != "locked\n" {
		t.Fatalf("holder did not take the lock: %q %v", buf, err)
	}
	start := time.Now()
	res, err := newService(root).Store(context.Background(), StoreRequest{Category: "Decision", Content: "Use Postgres for the ledger."}, false)
	waited := time.Since(start)
	if werr := holder.Wait(); werr != nil {
		t.Fatalf("holder: %v", werr)
	}
	if err != nil || res.Action != ActionStored {
		t.Fatalf("store: %+v, %v", res, err)
	}
	if waited < 250*time.Millisecond {
		t.Errorf("store finished after %v, before the holder released the lock", waited)
	}
	if n := len(entriesOf(t, root)); n != 1 {
		t.Errorf("%d entries, want 1", n)
	}
}

// The cleanup plan is shown before anything is written, and written only
// if the files are still the ones it was made from: a file changed while
// the plan was shown (another writer) makes the apply write nothing.
func TestCleanupAppliesOnlyThePlanThatWasShown(t *testing.T) {
	root := t.TempDir()
	path := filepath.Join(root, ".memory", "decisions.md")
	if err := os.MkdirAll(filepath.Dir(path), 0o755); err != nil {
		t.Fatal(err)
	}
	messy := "# Decisions\n\n* Use Postgres for the ledger.\n- Use Postgres for the ledger.\n"
	if err := os.WriteFile(path, []byte(messy), 0o644); err != nil {
		t.Fatal(err)
	}
	svc := newService(root)
	shown := false
	agent := messy + "- An agent wrote this while the plan was on screen.\n"
	_, _, err := svc.Cleanup(context.Background(), CleanupOptions{}, true, func(plan *CleanupPlan, files []rules.File) error {
		shown = true
		if cur, _ := os.ReadFile(path); string(cur) != messy {
			t.Errorf("the file was written before the plan was shown: %q", cur)
		}
		return os.WriteFile(path, []byte(agent), 0o644)
	})
	if !shown || err == nil || !strings.Contains(err.Error(), "changed after the cleanup plan was made") {
		t.Fatalf("shown %v, error %v; want the apply refused", shown, err)
	}
	if cur, _ := os.ReadFile(path); string(cur) != agent {
		t.Errorf("the refused apply wrote %q", cur)
	}
	// Unchanged files: the shown plan is written.
	plan, _, err := svc.Cleanup(context.Background(), CleanupOptions{}, true, nil)
	if err != nil || len(plan.Steps) == 0 {
		t.Fatalf("apply: %v, %d steps", err, len(plan.Steps))
	}
	if cur, _ := os.ReadFile(path); string(cur) == agent {
		t.Errorf("the plan was not written")
	}
}
