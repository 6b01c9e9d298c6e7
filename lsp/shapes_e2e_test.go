package lsp_test

// Single memory files within the limits (memfile.MaxBytes,
// memfile.MaxLines) whose shapes the red team of issue 26 found to take
// `memory-lsp serve --stdio` past the promise — diagnostics published, a
// store by the server and one by the CLI landing in the buffer, within
// shapeMemoryBound of peak resident memory (VmHWM) — before a file listed
// at most maxListed findings of a rule, the dense windows let go of the
// shapes they passed and duplicate-slug's renames stopped searching from 2.
// Each comment gives what was measured before (a 2-CPU Linux machine).

import (
	"fmt"
	"os"
	"os/exec"
	"path/filepath"
	"strings"
	"sync/atomic"
	"testing"
	"time"

	"github.com/memory-lsp/memory-lsp/core/memfile"
	"github.com/memory-lsp/memory-lsp/internal/fixture"
	"github.com/memory-lsp/memory-lsp/internal/longtest"
	"github.com/memory-lsp/memory-lsp/internal/lsptest"
)

// shapeFill is "# Decision" and then line(0), line(1), … while both limits
// of a memory file allow, less a kilobyte and a few lines for two stores
// (as fullFiles leaves).
func shapeFill(line func(i int) string) string {
	maxBytes, maxLines := memfile.MaxBytes-1024, memfile.MaxLines-8
	var b strings.Builder
	b.WriteString("# Decision\n\n")
	lines := 3
	for i := 0; ; i++ {
		l := line(i)
		if b.Len()+len(l) > maxBytes || lines+1 >= maxLines {
			return b.String()
		}
		b.WriteString(l)
		lines++
	}
}

// shapeWord is a six-letter word, one per i (fixture.Word cut short so
// that a line of the reversal registry fits the line limit before the size
// limit; a few collide, which makes a few exact duplicates).
func shapeWord(i int) string { return fixture.Word(i)[:6] }

// shapeCJK is a run of k common Chinese characters, one run per i.
func shapeCJK(i, k int) string {
	const alphabet = "的一是在不了有和人这中大为上个国我以要他时来用们生到作地于出就分对成会可主发年动同工也能下过子说产种面而方后多定行学法所民得经十三之进着等部度家电力里如水化高自二理起小物现实加量都两体制机当使点从业本去把性好应开它合还因由其些然前外天政四日那社义事平形相全表间样与关各重新线内数正心反你明看原又么利比或但质气第向道命此变条只没结解问意建月公无系军很情者最立代想已通并提直题党程展五果料象员革位入常文总次品式活设及管特件长求老头基资边流路级少图山统接知较将组见计别她手角期根论运农指几九区强放决西被干做必战先回则任取据处府研"
	rs := []rune(alphabet)
	var b strings.Builder
	for range k {
		b.WriteRune(rs[i%len(rs)])
		i /= len(rs)
	}
	return b.String()
}

// shapeServe starts the server in a git repository whose decisions.md is
// text, opens it as an editor does and waits up to publishWithin for its
// diagnostics; then stores an entry through the server
// (memory.storeMemory) and one through the CLI, as TestE2EFullFileMemory
// does, and fails if the server's peak resident memory (VmHWM) passed
// shapeMemoryBound. A watchdog kills the server past 1 GiB, and the
// server is killed when the test ends, so that a runaway one never outlives
// it.
func shapeServe(t *testing.T, text string, publishWithin time.Duration) {
	t.Helper()
	if _, err := os.Stat("/proc/self/status"); err != nil {
		t.Skip("no /proc: the peak memory cannot be read")
	}
	if testing.Short() {
		t.Skip("checks files at the limits")
	}
	if !memfile.Fits([]byte(text)) {
		t.Fatalf("the file is past the limits: %d bytes, %d lines", len(text), memfile.Lines([]byte(text)))
	}
	root := fullWorkspace(t, fullFile{"shape", text})
	cmd := exec.Command(binary, "serve", "--stdio")
	cmd.Dir = root
	c := lsptest.Start(t, cmd)
	var killed atomic.Bool
	done := make(chan struct{})
	t.Cleanup(func() {
		close(done)
		cmd.Process.Kill() // runs before Start's cleanup: a busy server is not waited for
	})
	go func() {
		for {
			select {
			case <-done:
				return
			case <-time.After(200 * time.Millisecond):
			}
			if b, err := os.ReadFile(fmt.Sprintf("/proc/%d/status", cmd.Process.Pid)); err == nil {
				for _, l := range strings.Split(string(b), "\n") {
					var kb int
					if _, err := fmt.Sscanf(l, "VmHWM: %d kB", &kb); err == nil && kb > 1<<20 {
						killed.Store(true)
						cmd.Process.Kill()
						return
					}
				}
			}
		}
	}()
	c.Initialize(lsptest.InitializeParams(root, nil))
	start := time.Now()
	uri := c.Open(filepath.Join(root, ".memory", "decisions.md"), text)
	c.AwaitDiagnostics(uri, 1, publishWithin)
	took := time.Since(start)
	const ours, agents = "Keep the deploy window on Tuesdays after the freeze.", "Use one release branch per quarter for the mobile apps."
	if _, err := c.Request("workspace/executeCommand", map[string]any{"command": "memory.storeMemory",
		"arguments": []any{map[string]any{"category": "Decision", "content": ours}}}); err != nil {
		t.Fatalf("memory.storeMemory: %v", err)
	}
	if out, err := exec.Command(binary, "store", "--root", root, "--category", "Decision", agents).CombinedOutput(); err != nil {
		t.Fatalf("the CLI's store: %v %s", err, out)
	}
	eventuallyWithin(t, 2*time.Minute, "the agent's entry in the buffer", func() (bool, string) {
		return strings.Contains(c.Text(uri), "- "+agents), ""
	})
	if killed.Load() {
		t.Fatal("the server passed 1 GiB of resident memory and was killed")
	}
	peak := vmHWM(t, cmd.Process.Pid)
	t.Logf("decisions.md of %d bytes and %d lines: diagnostics after %v, peak resident memory %d MiB",
		len(text), memfile.Lines([]byte(text)), took.Round(100*time.Millisecond), peak>>20)
	if peak > shapeMemoryBound {
		t.Errorf("peak resident memory %d MiB, over the %d MiB bound", peak>>20, shapeMemoryBound>>20)
	}
}

// shapeMemoryBound is the peak resident memory the red team's shapes may
// take the server to: registries at the line limit of a memory file whose
// every entry draws findings, far past the 10,000 entries the project
// builds for. It is there to catch what grows with the square of the
// entries or with their findings (131 MiB, 208 MiB, 1.2 GB before the
// fixes these tests name), not run-to-run noise: the Chinese registry of
// reversals measured 87–96 MiB on an idle 2-CPU machine and 103–104 MiB on
// CI's, where the collector falls behind. serverMemoryBound, issue 26's
// promise for the largest real file open, stays 100 MiB
// (TestE2EFullFileMemory).
const shapeMemoryBound = 112 << 20

// TestE2EShapeReversalRegistryMemory: registries within the limits whose
// every entry reverses the one before it (always/never) and is a sibling
// of the one before that. Dense mode keeps, per entry, its strongest
// near-duplicate AND its strongest reversal, so the server publishes two
// findings (conflict + near-duplicate) on every one of ~24,000 entries, and
// holds them, their diagnostics and their JSON: it was past 100 MiB.
//
// Measured with the server alone on the machine (serve --stdio, open, wait
// for diagnostics, this test's two stores), on 017cc67: ascii 2,096,080
// bytes and 24,235 lines, 75 MiB peak; cjk 1,874,112 bytes and 24,991
// lines, 91-93 MiB, 96-98 with both cores kept busy by other processes,
// 104 once beside the other packages' long suites (so .ci/run runs them a
// package at a time), and 103 on CI a package at a time (0b85173). Since
// the pair search stopped copying words it only reads (hyphenParts, fold):
// cjk 87-96 MiB with the server alone, 93-95 with both cores busy, its diagnostics published in
// 4-5 s instead of 10-12 (18-20 s busy: 8-10). Most of it is the entries' analyses
// (similar.(*Text).setLists: two bigram lists per CJK entry), the parsed
// file held by the view and by the disk sync of the agent's store, and
// the pair search of the dense recheck that store starts.
func TestE2EShapeReversalRegistryMemory(t *testing.T) {
	longtest.Skip(t)
	shapes := []struct{ name, text string }{
		{"ascii", shapeFill(func(i int) string {
			if i%2 == 0 {
				return "- Always run the api integration test suite before merging release branches on " + shapeWord(i) + ".\n"
			}
			return "- Never run the api integration test suite before merging release branches on " + shapeWord(i) + ".\n"
		})},
		{"cjk", shapeFill(func(i int) string {
			if i%2 == 0 {
				return "- 总是在部署服务之前先检查配置文件和数据库" + shapeCJK(i, 3) + "。\n"
			}
			return "- 不要在部署服务之前先检查配置文件和数据库" + shapeCJK(i, 3) + "。\n"
		})},
	}
	for _, s := range shapes {
		t.Run(s.name, func(t *testing.T) {
			shapeServe(t, s.text, 2*time.Minute)
		})
	}
}

// TestE2EShapeFindingsPerEntryMemory: a file within the limits whose every
// entry draws four findings, none of them a pair search's doing but one:
// a slug that is not kebab-case (slug-format), two sentences (long-entry),
// an HTML comment with words in it (hidden-text), and a sibling in the
// entry before (near-duplicate). Nothing bounds the diagnostics the server
// builds and publishes for one file, and ~100,000 of them take it past the
// bound. Measured: 1,850,583 bytes, 24,991 lines, 99,956 diagnostics
// published after 11 s, 124 MiB peak, 129 MiB with this test's stores
// (`memory-lsp check`: 4.0 s, 139 MB).
// With a shared slug on every third entry as well (duplicate-slug) and
// always/never alternating: 149,843 diagnostics, 208 MiB, 100 s.
func TestE2EShapeFindingsPerEntryMemory(t *testing.T) {
	longtest.Skip(t)
	text := shapeFill(func(i int) string {
		h := shapeWord(i)
		pre := "Always"
		if i%2 == 1 {
			pre = "Never"
		}
		return fmt.Sprintf("- [A_%d] %s deploy the api on %s. Use <!-- note %s --> now.\n", i, pre, h, h)
	})
	shapeServe(t, text, 2*time.Minute)
}

// TestE2EShapeDuplicateSlugsPublish: a file within the limits whose entries
// share two slugs (12,500 uses of each). checkDuplicateSlug's renameFix
// looks for the first free "<slug>-N" from N = 2 on for every repeated use,
// so the k-th repeat tries k names: 12,500²/2 × 2 ≈ 156 million string
// builds and map lookups, on every check. Measured: 874,627 bytes, 24,991
// lines, no diagnostics within 150 s (the server at 97 MiB, still working);
// `memory-lsp check` on the same file: 80 s, 122 MB max RSS (exit 1).
// A user who pastes a log of "- [todo] …" lines sees no diagnostics at all.
func TestE2EShapeDuplicateSlugsPublish(t *testing.T) {
	longtest.Skip(t)
	text := shapeFill(func(i int) string {
		return fmt.Sprintf("- [ab-%d] Keep %s %s apart.\n", i%2, fixture.Word(i), fixture.Word(i+100000))
	})
	shapeServe(t, text, time.Minute)
}
