//go:build stress && unix

// The stress test runs only with `-tags stress` (`make stress`): it starts
// nine processes and takes seconds, which CI's `go test ./...` should not pay
// on every run.

package memory

import (
	"bufio"
	"bytes"
	"context"
	"encoding/json"
	"errors"
	"fmt"
	"io/fs"
	"math"
	"math/rand/v2"
	"os"
	"os/exec"
	"path/filepath"
	"regexp"
	"slices"
	"sort"
	"strconv"
	"strings"
	"syscall"
	"testing"
	"time"
	"unicode/utf8"

	"github.com/memory-lsp/memory-lsp/core/category"
	"github.com/memory-lsp/memory-lsp/core/config"
	"github.com/memory-lsp/memory-lsp/core/memfile"
	"github.com/memory-lsp/memory-lsp/core/rules"
	"github.com/memory-lsp/memory-lsp/core/similar"
	"github.com/memory-lsp/memory-lsp/core/store"
	"github.com/memory-lsp/memory-lsp/core/text"
	"github.com/memory-lsp/memory-lsp/internal/hacklm"
)

const (
	stressWorkers   = 8   // processes storing through Service.Store
	stressStores    = 100 // stores per worker process
	stressHackLMOps = 100 // writes of the one HackLM-like process
	// stressMaxRetries bounds how often a store that could not get the lock
	// in time is repeated, as an agent would after the error. HackLM's lock
	// gives up after 20 tries whoever holds it, so its process may need
	// this; ours should not (the summary counts both).
	stressMaxRetries = 50
)

// Group kinds. Every op belongs to a group, and every group must end as
// exactly one entry, whatever the order in which the processes ran.
const (
	stressIdentical   = "identical" // one text, stored by every worker
	stressNear        = "near"      // texts pairwise in the update band (Jaccard 0.75), one per worker
	stressReversal    = "reversal"  // "Always X" / "Never X", alternating by worker
	stressSlug        = "slug"      // one slug, a different unrelated text per worker
	stressDistinct    = "distinct"  // one worker's own entry, with or without a slug
	stressHackLMEntry = "hacklm"    // the HackLM process's own entry, with or without a slug
	stressHackLMMove  = "hacklm-move"
)

// stressFormatCodes are the findings that mean a file's bytes are malformed or
// would be read differently by HackLM, as opposed to findings about what the
// entries say (duplicate, near-duplicate, conflict, missing-slug,
// over-limit, long-entry, secret).
func stressFormatCodes() []string {
	return []string{
		"bullet-marker", "indented-entry", "empty-entry", "bom", "line-ending", "slug-format",
		"slug-malformed", "checkbox", "duplicate-slug", "stray-line", "unknown-file",
	}
}

type stressOp struct {
	Group    string
	Kind     string
	Category category.Category
	Slug     string
	Content  string
}

type stressGroup struct {
	Kind     string
	Category category.Category
	Slug     string
	Contents []string // the texts the group's one entry may hold at the end
	Final    string   // the text it must hold, when one process alone decides it
}

type stressPlan struct {
	Workers [][]stressOp
	HackLM  []stressOp
	Groups  map[string]*stressGroup
}

// stressWords makes distinct six-letter pseudo-words, so that texts of different
// groups share (almost) no keywords by construction.
type stressWords struct{ n int }

func (g *stressWords) next() string {
	const cons, vows = "bdfgklmnprstvz", "aeiou"
	for {
		n := g.n
		g.n++
		b := make([]byte, 0, 6)
		for range 3 {
			s := n % (len(cons) * len(vows))
			n /= len(cons) * len(vows)
			b = append(b, cons[s/len(vows)], vows[s%len(vows)])
		}
		w := string(b)
		if k := hacklm.Keywords(w); len(k) == 1 && k[0] == w { // not a stop word
			return w
		}
	}
}

// buildStressPlan is deterministic: the parent and every worker build the
// same plan; seed only shuffles the order in which each worker stores.
func buildStressPlan(seed uint64) *stressPlan {
	p := &stressPlan{Groups: map[string]*stressGroup{}, Workers: make([][]stressOp, stressWorkers)}
	var g stressWords
	w := g.next
	cat := func(i int) category.Category { return category.All[i%len(category.All)] }
	group := func(id, kind string, c category.Category, slug string, contents ...string) *stressGroup {
		gr := &stressGroup{Kind: kind, Category: c, Slug: slug, Contents: contents}
		p.Groups[id] = gr
		return gr
	}
	op := func(id string, content string) stressOp {
		gr := p.Groups[id]
		return stressOp{Group: id, Kind: gr.Kind, Category: gr.Category, Slug: gr.Slug, Content: content}
	}

	for k := range 10 {
		id := fmt.Sprintf("identical-%d", k)
		slug := ""
		if k >= 5 {
			slug = "same-" + w()
		}
		content := fmt.Sprintf("Route %s %s traffic through %s.", w(), w(), w())
		group(id, stressIdentical, cat(k), slug, content)
		for j := range stressWorkers {
			p.Workers[j] = append(p.Workers[j], op(id, content))
		}
	}
	for k := range 10 {
		id := fmt.Sprintf("near-%d", k)
		if k >= 8 {
			x, y, z := w(), w(), w()
			always := fmt.Sprintf("Always compress %s %s %s archives.", x, y, z)
			never := fmt.Sprintf("Never compress %s %s %s archives.", x, y, z)
			group(id, stressReversal, cat(k+1), "", always, never)
			for j := range stressWorkers {
				p.Workers[j] = append(p.Workers[j], op(id, []string{always, never}[j%2]))
			}
			continue
		}
		w1, w2, w3, w4 := w(), w(), w(), w()
		gr := group(id, stressNear, cat(k+1), "")
		for j := range stressWorkers {
			content := fmt.Sprintf("The %s %s service reads %s %s from %s.", w1, w2, w3, w4, w())
			gr.Contents = append(gr.Contents, content)
			p.Workers[j] = append(p.Workers[j], op(id, content))
		}
	}
	for k := range 10 {
		id := fmt.Sprintf("slug-%d", k)
		gr := group(id, stressSlug, cat(k+2), "owner-"+w())
		for j := range stressWorkers {
			content := fmt.Sprintf("%s %s %s handles %s retries.", w(), w(), w(), w())
			gr.Contents = append(gr.Contents, content)
			p.Workers[j] = append(p.Workers[j], op(id, content))
		}
	}
	for j := range stressWorkers {
		for i := range stressStores - len(p.Workers[j]) {
			id := fmt.Sprintf("distinct-w%d-%d", j, i)
			first := w()
			slug := ""
			if i%2 == 0 {
				slug = fmt.Sprintf("w%d-%s", j, first)
			}
			content := fmt.Sprintf("%s %s %s depends on %s.", first, w(), w(), w())
			group(id, stressDistinct, cat(i+j), slug, content)
			p.Workers[j] = append(p.Workers[j], op(id, content))
		}
		ops := p.Workers[j]
		rand.New(rand.NewPCG(seed, uint64(j))).Shuffle(len(ops), func(x, y int) { ops[x], ops[y] = ops[y], ops[x] })
	}

	// HackLM: its own entries, and one slug it updates ten times (which
	// makes it rewrite the whole file in place, spec §4 upsert).
	move := group("hacklm-move", stressHackLMMove, category.Decision, "hk-moving-"+w())
	for i := range stressHackLMOps {
		if i%10 == 5 {
			content := fmt.Sprintf("%s %s moved to %s.", w(), w(), w())
			move.Contents = append(move.Contents, content)
			move.Final = content
			p.HackLM = append(p.HackLM, op("hacklm-move", content))
			continue
		}
		id := fmt.Sprintf("hacklm-%d", i)
		first := w()
		slug := ""
		if i%2 == 0 {
			slug = "hk-" + first
		}
		content := fmt.Sprintf("%s %s %s lives in %s.", first, w(), w(), w())
		group(id, stressHackLMEntry, cat(i), slug, content)
		p.HackLM = append(p.HackLM, op(id, content))
	}
	return p
}

// checkStressPlan verifies the plan's premises with the same classifier the
// stores use, so that a change to the similarity rules shows up here rather
// than as a puzzling count: texts of different groups are unrelated (Store,
// and below the near-duplicate threshold), texts of one near/reversal family
// are related, and every request passes validation.
func checkStressPlan(t *testing.T, p *stressPlan, cfg config.Config) {
	t.Helper()
	th := similar.Thresholds{Skip: cfg.SkipThreshold, Update: cfg.UpdateThreshold}
	type item struct {
		group string
		a     *similar.Text
	}
	byCat := map[category.Category][]item{}
	seenText, seenSlug := map[string]string{}, map[string]string{}
	for id, gr := range p.Groups {
		if gr.Slug != "" {
			if other, dup := seenSlug[gr.Slug]; dup {
				t.Fatalf("plan: slug %q in %s and %s", gr.Slug, id, other)
			}
			seenSlug[gr.Slug] = id
		}
		for _, c := range gr.Contents {
			if other, dup := seenText[c]; dup {
				t.Fatalf("plan: %q in %s and %s", c, id, other)
			}
			seenText[c] = id
			if _, err := Validate(StoreRequest{Category: gr.Category.String(), Content: c, Slug: gr.Slug}, cfg); err != nil {
				t.Fatalf("plan: %s: %v", id, err)
			}
			byCat[gr.Category] = append(byCat[gr.Category], item{id, similar.Analyze(c)})
		}
	}
	for _, items := range byCat {
		for _, x := range items {
			for _, y := range items {
				if x.a == y.a {
					continue
				}
				v := similar.Classify(x.a, y.a, th)
				kind := p.Groups[x.group].Kind
				switch {
				case x.group != y.group:
					if v.Action != similar.Store || v.Similarity >= cfg.UpdateThreshold {
						t.Fatalf("plan: %q (%s) and %q (%s) are related: %v %.2f", x.a.Raw, x.group, y.a.Raw, y.group, v.Action, v.Similarity)
					}
				case kind == stressNear && v.Action != similar.Update:
					t.Fatalf("plan: near-duplicates %q and %q: %v %.2f, want update", x.a.Raw, y.a.Raw, v.Action, v.Similarity)
				case kind == stressReversal && v.Action != similar.Conflict:
					t.Fatalf("plan: reversals %q and %q: %v, want conflict", x.a.Raw, y.a.Raw, v.Action)
				}
			}
		}
	}
}

func stressConfig() config.Config {
	cfg := config.Default()
	// No eviction: with the default limits a full category would evict the
	// weakest entry, and "every distinct entry exactly once" would not hold.
	for _, c := range category.All {
		cfg.Limits[c] = 100000
	}
	return cfg
}

type stressResult struct {
	Group   string
	Action  string
	Retries int
	At      int64 // wall clock (Unix ns) when the store returned
}

// TestStressWorkerProcess is one writer process of TestStress; run by hand it
// skips.
func TestStressWorkerProcess(t *testing.T) {
	who := os.Getenv("MEMLSP_STRESS_WORKER")
	if who == "" {
		t.Skip("a worker process of TestStress")
	}
	root, out := os.Getenv("MEMLSP_STRESS_ROOT"), os.Getenv("MEMLSP_STRESS_OUT")
	seed, err := strconv.ParseUint(os.Getenv("MEMLSP_STRESS_SEED"), 10, 64)
	if err != nil {
		t.Fatal(err)
	}
	n := stressWorkers // the HackLM process
	if who != "hacklm" {
		if n, err = strconv.Atoi(who); err != nil {
			t.Fatal(err)
		}
	}
	plan := buildStressPlan(seed)
	// Start together with the others: the parent writes a line once every
	// process is running.
	if _, err := bufio.NewReader(os.Stdin).ReadString('\n'); err != nil {
		t.Fatalf("waiting for the start: %v", err)
	}
	// Pauses between stores, as an agent thinks between two of them. Without
	// them the lock goes round like a convoy: a process that releases it
	// takes it again at once while the others sleep in their back-off, and
	// the processes run nearly one after the other.
	pace := rand.New(rand.NewPCG(seed, 1<<32+uint64(n)))
	pause := func() {
		if pace.IntN(2) == 0 {
			time.Sleep(time.Duration(pace.IntN(50_000)) * time.Microsecond)
		}
	}
	var results []stressResult
	if who == "hacklm" {
		h := emulatedHackLM{dir: filepath.Join(root, store.DirName), pid: os.Getpid()}
		for _, op := range plan.HackLM {
			r, err := h.store(op)
			if err != nil {
				t.Fatalf("HackLM store of %s: %v", op.Group, err)
			}
			r.At = time.Now().UnixNano()
			results = append(results, r)
			pause()
		}
	} else {
		ws, err := store.Open(root)
		if err != nil {
			t.Fatal(err)
		}
		svc := &Service{WS: ws, Cfg: stressConfig()}
		for _, op := range plan.Workers[n] {
			req := StoreRequest{Category: op.Category.String(), Content: op.Content, Slug: op.Slug}
			r := stressResult{Group: op.Group}
			for {
				res, err := svc.Store(context.Background(), req, false)
				if errors.Is(err, store.ErrLocked) && r.Retries < stressMaxRetries {
					r.Retries++
					continue
				}
				if err != nil {
					t.Fatalf("store of %s (%q): %v", op.Group, op.Content, err)
				}
				r.Action = res.Action
				break
			}
			r.At = time.Now().UnixNano()
			results = append(results, r)
			pause()
		}
	}
	b, err := json.Marshal(results)
	if err != nil {
		t.Fatal(err)
	}
	if err := os.WriteFile(out, b, 0o644); err != nil {
		t.Fatal(err)
	}
}

// TestStress: eight processes store through Service.Store (the CLI's path)
// while a ninth writes the way HackLM does, all into one .memory folder at
// once. Afterwards every group of stores is exactly one entry, nothing is
// duplicated, nothing is left behind and every file is well formed.
func TestStress(t *testing.T) {
	seed := uint64(time.Now().UnixNano())
	if s := os.Getenv("MEMLSP_STRESS_SEED"); s != "" {
		var err error
		if seed, err = strconv.ParseUint(s, 10, 64); err != nil {
			t.Fatal(err)
		}
	}
	t.Logf("seed %d (set MEMLSP_STRESS_SEED to repeat the order of the stores)", seed)
	cfg := stressConfig()
	plan := buildStressPlan(seed)
	checkStressPlan(t, plan, cfg)

	root, outDir := t.TempDir(), t.TempDir()
	type proc struct {
		name string
		cmd  *exec.Cmd
		gate *os.File
		out  bytes.Buffer
		file string
	}
	var procs []*proc
	names := []string{"hacklm"}
	for j := range stressWorkers {
		names = append(names, strconv.Itoa(j))
	}
	for _, name := range names {
		p := &proc{name: name, file: filepath.Join(outDir, name+".json")}
		p.cmd = exec.Command(os.Args[0], "-test.run=^TestStressWorkerProcess$", "-test.count=1")
		p.cmd.Env = append(os.Environ(), "MEMLSP_STRESS_WORKER="+name, "MEMLSP_STRESS_ROOT="+root,
			"MEMLSP_STRESS_OUT="+p.file, "MEMLSP_STRESS_SEED="+strconv.FormatUint(seed, 10))
		p.cmd.Stdout, p.cmd.Stderr = &p.out, &p.out
		r, w, err := os.Pipe()
		if err != nil {
			t.Fatal(err)
		}
		p.cmd.Stdin, p.gate = r, w
		if err := p.cmd.Start(); err != nil {
			t.Fatal(err)
		}
		r.Close()
		procs = append(procs, p)
	}
	start := time.Now()
	for _, p := range procs {
		p.gate.WriteString("go\n")
		p.gate.Close()
	}
	type done struct {
		p   *proc
		err error
		at  time.Duration
	}
	finished := make(chan done)
	for _, p := range procs {
		go func() {
			err := p.cmd.Wait()
			finished <- done{p, err, time.Since(start)}
		}()
	}
	failed := false
	var ends []string
	for range procs {
		d := <-finished
		if d.err != nil {
			t.Errorf("process %s: %v\n%s", d.p.name, d.err, d.p.out.String())
			failed = true
		}
		ends = append(ends, fmt.Sprintf("%s %v", d.p.name, d.at.Round(10*time.Millisecond)))
	}
	elapsed := time.Since(start)
	t.Logf("processes finished: %s", strings.Join(ends, ", "))
	if failed {
		t.FailNow()
	}

	// What each store did, by group.
	byGroup := map[string][]string{}
	retries, actions := map[bool]int{}, map[string]int{}
	type event struct {
		at  int64
		who string
	}
	var events []event
	for _, p := range procs {
		b, err := os.ReadFile(p.file)
		if err != nil {
			t.Fatal(err)
		}
		var rs []stressResult
		if err := json.Unmarshal(b, &rs); err != nil {
			t.Fatal(err)
		}
		if want := map[bool]int{true: stressHackLMOps, false: stressStores}[p.name == "hacklm"]; len(rs) != want {
			t.Errorf("process %s reported %d stores, want %d", p.name, len(rs), want)
		}
		for _, r := range rs {
			byGroup[r.Group] = append(byGroup[r.Group], r.Action)
			retries[p.name == "hacklm"] += r.Retries
			actions[r.Action]++
			events = append(events, event{r.At, p.name})
		}
	}
	checkStressActions(t, plan, byGroup)
	// How much the processes interleaved: the number of times the next store
	// to finish came from another process than the one before (at most 899).
	sort.Slice(events, func(i, j int) bool { return events[i].at < events[j].at })
	switches := 0
	for i := 1; i < len(events); i++ {
		if events[i].who != events[i-1].who {
			switches++
		}
	}

	entries := checkStressFiles(t, root, plan, cfg)
	t.Logf("%d processes, %d stores (%d through Service.Store, %d HackLM-style) in %v: %d entries in the files, %d groups; actions %v; stores repeated after a lock timeout: %d ours, %d HackLM's; %d switches between processes",
		len(procs), stressWorkers*stressStores+stressHackLMOps, stressWorkers*stressStores, stressHackLMOps,
		elapsed.Round(time.Millisecond), entries, len(plan.Groups), actions, retries[false], retries[true], switches)
}

// checkStressActions: the replies must agree with the one-entry-per-group
// outcome. Each group was stored (appended) exactly once; every other store of
// it was one of the actions its kind allows, in any order.
func checkStressActions(t *testing.T, p *stressPlan, byGroup map[string][]string) {
	t.Helper()
	allowed := map[string][]string{
		stressIdentical:  {ActionSkipped},
		stressNear:       {ActionUpdated, ActionSkipped},
		stressReversal:   {ActionSkipped, ActionConflict},
		stressSlug:       {ActionUpdated, ActionConflict},
		stressHackLMMove: {ActionUpdated},
	}
	planned := map[string]int{}
	for _, ops := range append(slices.Clone(p.Workers), p.HackLM) {
		for _, op := range ops {
			planned[op.Group]++
		}
	}
	for id, gr := range p.Groups {
		acts := byGroup[id]
		if len(acts) != planned[id] {
			t.Errorf("%s: %d answers, want one per planned store (%d)", id, len(acts), planned[id])
		}
		stored := 0
		for _, a := range acts {
			switch {
			case a == ActionStored:
				stored++
			case !slices.Contains(allowed[gr.Kind], a):
				t.Errorf("%s (%s): a store answered %q; answers %q", id, gr.Kind, a, acts)
			}
		}
		if stored != 1 {
			t.Errorf("%s (%s): stored %d times, want exactly once; answers %q", id, gr.Kind, stored, acts)
		}
	}
}

// checkStressFiles checks the folder and returns the number of entries.
func checkStressFiles(t *testing.T, root string, p *stressPlan, cfg config.Config) int {
	t.Helper()
	dir := filepath.Join(root, store.DirName)
	ents, err := os.ReadDir(dir)
	if err != nil {
		t.Fatal(err)
	}
	var names, want []string
	for _, e := range ents {
		names = append(names, e.Name())
	}
	for _, c := range category.All {
		want = append(want, c.File())
	}
	sort.Strings(want)
	if !slices.Equal(names, want) {
		t.Errorf(".memory holds %q, want exactly the five category files (no .lock, .lock.break or temp files)", names)
	}

	bySlug, byText := map[string]string{}, map[string]string{}
	for id, gr := range p.Groups {
		if gr.Slug != "" {
			bySlug[gr.Slug] = id
		}
		for _, c := range gr.Contents {
			byText[c] = id
		}
	}
	count := map[string]int{}
	slugs, norms := map[string]string{}, map[string]string{}
	total := 0
	for _, c := range category.All {
		b, err := os.ReadFile(filepath.Join(dir, c.File()))
		if err != nil {
			t.Fatal(err)
		}
		name := c.File()
		if !utf8.Valid(b) || !bytes.HasSuffix(b, []byte("\n")) {
			t.Errorf("%s: not valid UTF-8 ending in a newline", name)
		}
		d := memfile.Parse(b)
		for _, ln := range d.Lines {
			line := string(b[ln.Span.Start:ln.Span.End])
			switch ln.Kind {
			case memfile.KindEntry, memfile.KindBlank, memfile.KindBoilerplate:
			case memfile.KindHeading:
				if line != "# "+c.Plural() && line != "# "+c.String() {
					t.Errorf("%s:%d: heading %q", name, ln.Num, line)
				}
			default:
				t.Errorf("%s:%d: a %v line %q", name, ln.Num, ln.Kind, line)
			}
		}
		for _, e := range d.Entries {
			total++
			where := fmt.Sprintf("%s:%d", name, e.Line)
			line := string(b[e.LineSpan.Start:e.LineSpan.End])
			slug := ""
			if e.HasSlug {
				slug = e.Slug
			}
			if line != memfile.EntryLine(slug, e.Content) {
				t.Errorf("%s: line %q is not written as %q", where, line, memfile.EntryLine(slug, e.Content))
			}
			if slug != "" {
				if prev, dup := slugs[slug]; dup {
					t.Errorf("%s: slug %q again (first at %s)", where, slug, prev)
				}
				slugs[slug] = where
			}
			for _, n := range []string{"hacklm:" + hacklm.Normalize(e.Content), "ours:" + similar.Normalize(e.Content)} {
				if prev, dup := norms[n]; dup {
					t.Errorf("%s: %q has the same normalised text as %s", where, e.Content, prev)
				}
				norms[n] = where
			}
			id, ok := byText[e.Content]
			if slug != "" {
				if sid, sok := bySlug[slug]; sok && (!ok || sid != id) {
					id, ok = sid, false // the slug's group, holding a text not its own
				}
			}
			gr := p.Groups[id]
			switch {
			case gr == nil:
				t.Errorf("%s: entry %q [%s] belongs to no store", where, e.Content, slug)
				continue
			case !ok:
				t.Errorf("%s: entry [%s] holds %q, which is none of %s's texts", where, slug, e.Content, id)
			case gr.Slug != slug:
				t.Errorf("%s: %s's entry has slug %q, want %q", where, id, slug, gr.Slug)
			case gr.Category != c:
				t.Errorf("%s: %s's entry belongs in %s", where, id, gr.Category.File())
			case gr.Final != "" && e.Content != gr.Final:
				t.Errorf("%s: %s holds %q, want the last text written, %q", where, id, e.Content, gr.Final)
			}
			count[id]++
		}
	}
	for id, gr := range p.Groups {
		if count[id] != 1 {
			t.Errorf("%s (%s, %q): %d entries, want exactly 1", id, gr.Kind, gr.Contents[0], count[id])
		}
	}
	if total != len(p.Groups) {
		t.Errorf("%d entries, want %d (one per group)", total, len(p.Groups))
	}

	ws, err := store.Open(root)
	if err != nil {
		t.Fatal(err)
	}
	snap, err := ws.Snapshot()
	if err != nil {
		t.Fatal(err)
	}
	files := Files(snap)
	tally, format := map[string]int{}, stressFormatCodes()
	for _, f := range rules.Check(files, cfg) {
		tally[f.Code]++
		bad := f.Severity == rules.Error || slices.Contains(format, f.Code) ||
			f.Code == "duplicate" || f.Code == "near-duplicate" || f.Code == "conflict"
		if bad {
			line := 1 + bytes.Count(files[f.File].Doc.Src[:f.Span.Start], []byte("\n"))
			t.Errorf("%s:%d: %s %s: %s", files[f.File].Name, line, f.Severity, f.Code, f.Message)
		}
	}
	t.Logf("findings by code: %v (format codes: %s)", tally, strings.Join(format, ", "))
	return total
}

// emulatedHackLM writes `.memory/` the way HackLM Memory 1.1.0 does, from the
// behaviour spec: bootstrap of missing files (§3), the `.lock` protocol with
// its retries, stale rules and unconditional release (§16.1), and the append
// and upsert primitives written in place, byte for byte (§4). It is our own
// emulation, not HackLM's code.
//
// One deliberate difference: the bootstrap creates a missing file with an
// exclusive create. The spec does not say how HackLM creates it outside the
// lock; a check-then-write there could overwrite a file another tool has just
// created, a HackLM race this test is not about.
type emulatedHackLM struct {
	dir string
	pid int
}

// emulatedLockTimeout is HackLM's lock timeout, which it reports as a failed store.
type emulatedLockTimeout struct{ path string }

func (e *emulatedLockTimeout) Error() string {
	return "[crossProcessLock] Could not acquire lock after 20 retries: " + e.path
}

const (
	emulatedTries = 20
	emulatedStep  = 50 * time.Millisecond
	emulatedStale = 10 * time.Second
)

// store writes one entry. A lock timeout is HackLM's "Failed to store
// memory" reply; the agent tries again.
func (h emulatedHackLM) store(op stressOp) (stressResult, error) {
	r := stressResult{Group: op.Group}
	for {
		action, err := h.storeOnce(op)
		var timeout *emulatedLockTimeout
		if errors.As(err, &timeout) && r.Retries < stressMaxRetries {
			r.Retries++
			continue
		}
		r.Action = action
		return r, err
	}
}

func (h emulatedHackLM) storeOnce(op stressOp) (string, error) {
	if err := h.bootstrap(); err != nil {
		return "", err
	}
	lock := filepath.Join(h.dir, ".lock")
	if err := h.acquire(lock); err != nil {
		return "", err
	}
	defer os.Remove(lock) // HackLM's release: whatever is there
	path := filepath.Join(h.dir, op.Category.File())
	content := memfile.TrimJS(op.Content)
	if op.Slug == "" {
		return ActionStored, emulatedAppend(path, "\n- "+content+"\n")
	}
	updated, err := h.removeSlugLine(path, op.Slug)
	if err != nil {
		return "", err
	}
	if err := emulatedAppend(path, "\n- ["+op.Slug+"] "+content+"\n"); err != nil {
		return "", err
	}
	if updated {
		return ActionUpdated, nil
	}
	return ActionStored, nil
}

// bootstrap creates the folder and any missing category file with HackLM's
// singular header, then clears a stale lock ("startup clear").
func (h emulatedHackLM) bootstrap() error {
	if err := os.MkdirAll(h.dir, 0o777); err != nil {
		return err
	}
	for _, c := range category.All {
		f, err := os.OpenFile(filepath.Join(h.dir, c.File()), os.O_WRONLY|os.O_CREATE|os.O_EXCL, 0o666)
		if errors.Is(err, fs.ErrExist) {
			continue
		}
		if err != nil {
			return err
		}
		_, err = f.WriteString("# " + c.String() + "\n\nMemories stored by HackLM Memory.\n\n")
		if cerr := f.Close(); err == nil {
			err = cerr
		}
		if err != nil {
			return err
		}
	}
	if h.stale(filepath.Join(h.dir, ".lock")) {
		os.Remove(filepath.Join(h.dir, ".lock"))
	}
	return nil
}

func (h emulatedHackLM) acquire(lock string) error {
	for a := range emulatedTries {
		f, err := os.OpenFile(lock, os.O_WRONLY|os.O_CREATE|os.O_EXCL, 0o666)
		if err == nil {
			_, err = fmt.Fprintf(f, `{"pid":%d,"ts":%d}`, h.pid, time.Now().UnixMilli())
			if cerr := f.Close(); err == nil {
				err = cerr
			}
			return err
		}
		if !errors.Is(err, fs.ErrExist) {
			return err
		}
		if h.stale(lock) {
			os.Remove(lock) // and the next attempt at once, using up this one
			continue
		}
		time.Sleep(emulatedStep * time.Duration(a+1))
	}
	return &emulatedLockTimeout{lock}
}

// stale is HackLM's judgement: unreadable or unparseable is never stale;
// older than 10 s, or a pid that cannot be signalled for any reason (EPERM
// too, or no valid pid at all), is.
func (h emulatedHackLM) stale(lock string) bool {
	b, err := os.ReadFile(lock)
	if err != nil {
		return false
	}
	var v map[string]any
	if json.Unmarshal(b, &v) != nil {
		return false
	}
	if ts, ok := v["ts"].(float64); ok && float64(time.Now().UnixMilli())-ts > float64(emulatedStale.Milliseconds()) {
		return true
	}
	pid, ok := v["pid"].(float64)
	if !ok || pid != math.Trunc(pid) {
		return true
	}
	return syscall.Kill(int(pid), 0) != nil
}

// removeSlugLine is the first half of HackLM's upsert: read, strip date
// headers, and if a line's trimmed form starts with `- [slug]` and one
// whitespace character, remove the first such line and write the file back
// in place. It reports whether it removed one.
func (h emulatedHackLM) removeSlugLine(path, slug string) (bool, error) {
	b, err := os.ReadFile(path)
	if err != nil && !errors.Is(err, fs.ErrNotExist) {
		return false, err
	}
	dateHeader, blankRuns := regexp.MustCompile(`^## \d{4}-\d{2}-\d{2}`), regexp.MustCompile(`\n{3,}`)
	var kept []string
	for _, ln := range strings.Split(string(b), "\n") {
		if !dateHeader.MatchString(ln) {
			kept = append(kept, ln)
		}
	}
	lines := strings.Split(blankRuns.ReplaceAllString(strings.Join(kept, "\n"), "\n\n"), "\n")
	prefix := "- [" + slug + "]"
	for i, ln := range lines {
		tr := memfile.TrimJS(ln)
		if !strings.HasPrefix(tr, prefix) {
			continue
		}
		if r, _ := utf8.DecodeRuneInString(tr[len(prefix):]); len(tr) == len(prefix) || !text.IsJSSpace(r) {
			continue
		}
		lines = slices.Delete(lines, i, i+1)
		return true, os.WriteFile(path, []byte(strings.Join(lines, "\n")), 0o666)
	}
	return false, nil
}

// emulatedAppend is Node's appendFile: O_APPEND, created if missing.
func emulatedAppend(path, s string) error {
	f, err := os.OpenFile(path, os.O_WRONLY|os.O_APPEND|os.O_CREATE, 0o666)
	if err != nil {
		return err
	}
	_, err = f.WriteString(s)
	if cerr := f.Close(); err == nil {
		err = cerr
	}
	return err
}
