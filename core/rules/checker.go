package rules

import (
	"cmp"
	"runtime"
	"slices"
	"strings"
	"sync"
	"sync/atomic"
	"time"

	"github.com/memory-lsp/memory-lsp/core/config"
	"github.com/memory-lsp/memory-lsp/core/directive"
	"github.com/memory-lsp/memory-lsp/core/secret"
	"github.com/memory-lsp/memory-lsp/core/similar"
	"github.com/memory-lsp/memory-lsp/core/text"
)

// Checker is Check with a memory: it keeps the similarity analyses and the
// related pairs of its previous call and, when the new files differ from
// those in a few entries, reuses them. An editor re-checks a workspace on
// every keystroke, and one edit changes one entry: the other entries'
// analyses and the pairs among them stay as they were. The pairs of a large
// file computed afresh are most of a keystroke's wait at 10,000 entries
// (BenchmarkEditing10kBinary, BenchmarkCheckerOneChange10k).
//
// Check returns exactly what the package's Check returns for the same
// arguments. What is reused is a function of the entry contents alone: an
// analysis is keyed by its content, and the pairs of a category file by the
// list of its contents (matched to the previous list by a diff, so that
// shifted entries keep their pairs) and the thresholds.
//
// A Checker may be used from several goroutines; its calls run one at a
// time. The zero value is ready to use. It holds the contents, analyses,
// pairs and base slugs of the latest call only: about 0.7 KB per entry
// (7 MB for 10,000 entries), which a one-off Check lets go at once.
type Checker struct {
	mu sync.Mutex
	th similar.Thresholds
	// groups are the category files of the previous pair computation, in
	// file order; nil before the first (or after a failed) one.
	groups []*pairGroup
	// cache maps every content of groups to its analysis and the number of
	// entries holding it. It is built on first need (a one-off Check never
	// needs it) and then kept in step with groups.
	cache map[string]*cached
	// slugBases are the base slugs the missing-slug rule derived in the
	// previous call, by content.
	slugBases map[string]string
	// directives, secrets and scores are what agent-directive and secret
	// found in each file and over-limit's scores of each file's entries in
	// the previous call, by path (linescan.go, over_limit_scores.go).
	directives map[string]lineScan[directive.Match]
	secrets    map[string]lineScan[secret.Match]
	scores     map[string]entryScores
	// took is how long each task of the previous call ran, by rule code.
	took map[string]time.Duration
	// read are the references the previous call read in each content,
	// for the rules that need the repository (references.go), as
	// References hands them out: set by the call that made them, read
	// without c.mu.
	read atomic.Pointer[Readings]

	// Repo is what the reference rules judge entries against; nil keeps
	// them silent. Set it before a call, not during one.
	Repo Repo
}

// pairsTask names the task that computes the pairs and runs the pair rules.
const pairsTask = " pairs"

// pairGroup is one category file's part of the pair computation: the
// analyses of its non-empty contents in file order, and the related pairs
// among them in local indices, sorted by (I, J). The contents are the
// analyses' Raw: a list of them beside would be 16 bytes an entry kept for
// as long as the Checker.
type pairGroup struct {
	path  string
	texts []*similar.Text
	pairs similar.PairSet
}

// contents lists the group's contents, for a diff with the next call's.
func (g *pairGroup) contents() []string {
	out := make([]string, len(g.texts))
	for i, t := range g.texts {
		out[i] = t.Raw
	}
	return out
}

type cached struct {
	text *similar.Text
	n    int
}

// Check runs every enabled rule over the workspace's files and returns the
// findings sorted by file, start offset and code, as the package's Check.
//
// The rules run side by side on the available cores: one task computes the
// pairs and then runs the rules that read them, one reads the entries'
// references and runs the rules that judge them against Repo (none without
// a Repo that has code), every other rule is a task of its own, each with
// its own list of findings. The tasks start longest first, as they took in
// the previous call. The lists are joined in one fixed order (the other
// rules in registry order, the reference rules, then the pair rules), and
// no two tasks report the same code, so the stable sort by file, offset and
// code gives the same result as a one-by-one run.
func (c *Checker) Check(files []File, cfg config.Config) []Finding {
	c.mu.Lock()
	defer c.mu.Unlock()
	ok := false
	defer func() {
		if !ok {
			c.reset() // a panic may have left the state half updated
		}
	}()
	type task struct {
		key  string // the rule's code, or pairsTask
		rule *rule  // the rule run, or nil for the pairs
		run  func(*workspace)
		// slugs: the rule derives slugs, and shares their cache
		slugs bool
		w     *workspace
		took  time.Duration
	}
	var tasks []*task
	for i := range registry {
		if r := &registry[i]; r.on(cfg) && !r.Pairs && !r.NeedsRepo {
			tasks = append(tasks, &task{key: r.Code, rule: r, run: func(w *workspace) { w.run(r) }, slugs: r.AssignsSlug})
		}
	}
	if ReadsRepo(cfg) && c.Repo != nil && c.Repo.HasCode() {
		tasks = append(tasks, &task{key: referencesTask, run: func(w *workspace) {
			w.cites = c.citations(files)
			for i := range registry {
				if r := &registry[i]; r.on(cfg) && r.NeedsRepo {
					w.run(r)
				}
			}
		}})
	} else {
		c.keepReadings(nil) // nothing to judge: keep no readings
	}
	var pairs *task
	if slices.ContainsFunc(registry, func(r rule) bool { return r.Pairs && r.on(cfg) }) {
		pairs = &task{key: pairsTask, run: func(w *workspace) {
			w.refs, w.texts, w.pairs = c.computePairs(files, cfg)
			for i := range registry {
				if r := &registry[i]; r.on(cfg) && r.Pairs {
					w.run(r)
				}
			}
		}}
	}
	order := slices.Clone(tasks)
	if pairs != nil {
		// on a fresh Checker the pairs start first: then they are most of
		// the work
		order = slices.Insert(order, 0, pairs)
	}
	slices.SortStableFunc(order, func(a, b *task) int { return cmp.Compare(c.took[b.key], c.took[a.key]) })
	// sized for the contents of the previous call, or on a first call for
	// every entry without a slug: the map then never grows. None at all
	// when no rule derives slugs (missing-slug is off by default): the map
	// is kept until the next call, megabytes for a large file.
	hint := len(c.slugBases)
	derives := slices.ContainsFunc(tasks, func(t *task) bool { return t.slugs })
	if c.slugBases == nil && derives {
		for fi := range files {
			if f := &files[fi]; f.IsCategory && f.parsed() {
				for i := range f.Doc.Entries {
					if !f.Doc.Entries[i].HasSlug {
						hint++
					}
				}
			}
		}
	}
	var slugs *slugCache
	if derives {
		slugs = &slugCache{old: c.slugBases, now: make(map[string]string, hint)}
	}
	dirs, creds := newLineScans(c.directives), newLineScans(c.secrets)
	scores := &scoreCache{old: c.scores, now: make(map[string]entryScores, len(c.scores))}
	lines := newFileViews(len(files))
	parallelTasks(len(order), func(k int) {
		t := order[k]
		t.w = &workspace{rule: t.rule, files: files, cfg: cfg, idx: lines, repo: c.Repo, dirs: dirs, creds: creds, scores: scores}
		if t.slugs {
			t.w.slugs = slugs
		}
		start := time.Now()
		t.run(t.w)
		t.took = time.Since(start)
	})
	if pairs != nil {
		tasks = append(tasks, pairs)
	}
	took := make(map[string]time.Duration, len(tasks))
	runs := make([][]Finding, 0, len(tasks))
	for _, t := range tasks {
		took[t.key] = t.took
		runs = append(runs, t.w.out)
	}
	out := mergeFindings(runs)
	c.slugBases, c.took = nil, took
	if slugs != nil {
		c.slugBases = slugs.now
	}
	c.directives, c.secrets, c.scores = dirs.now, creds.now, scores.now
	ok = true
	return out
}

// compareFindings orders findings by file, start offset and code.
func compareFindings(a, b *Finding) int {
	if a.File != b.File {
		return cmp.Compare(a.File, b.File)
	}
	if a.Span.Start != b.Span.Start {
		return cmp.Compare(a.Span.Start, b.Span.Start)
	}
	return strings.Compare(a.Code, b.Code)
}

// mergeFindings is the concatenation of runs stably sorted by
// compareFindings. Each run is sorted on its own (most rules report in
// order already) and the runs are merged, an earlier run's finding first
// among equals: stably sorting 13,000 findings of 112 bytes at once (HackLM's
// limits on a large workspace) moved each a dozen times, every move of its
// strings and slices through the collector's write barrier.
func mergeFindings(runs [][]Finding) []Finding {
	runs = slices.DeleteFunc(runs, func(r []Finding) bool { return len(r) == 0 })
	n := 0
	for _, r := range runs {
		n += len(r)
		if !slices.IsSortedFunc(r, func(a, b Finding) int { return compareFindings(&a, &b) }) {
			slices.SortStableFunc(r, func(a, b Finding) int { return compareFindings(&a, &b) })
		}
	}
	out := make([]Finding, 0, n)
	for len(runs) > 0 {
		best := 0
		for k := 1; k < len(runs); k++ {
			if compareFindings(&runs[k][0], &runs[best][0]) < 0 {
				best = k
			}
		}
		// the best run's findings before the smallest other head go at
		// once (an equal one stops them: the next round orders the tie)
		r := runs[best]
		var next *Finding
		for k := range runs {
			if k != best && (next == nil || compareFindings(&runs[k][0], next) < 0) {
				next = &runs[k][0]
			}
		}
		i := 1
		for i < len(r) && (next == nil || compareFindings(next, &r[i]) > 0) {
			i++
		}
		out = append(out, r[:i]...)
		if runs[best] = r[i:]; len(runs[best]) == 0 {
			runs = slices.Delete(runs, best, best+1)
		}
	}
	return out
}

// parallelTasks runs task(0) … task(n-1) on up to GOMAXPROCS goroutines, the
// caller's among them, each taking the next task as it finishes one. When
// all have ended, the panic of the lowest-numbered task that panicked is
// raised in the caller's goroutine, where the language server recovers it;
// none ends the process from another goroutine.
func parallelTasks(n int, task func(k int)) {
	panics := make([]any, n)
	var next atomic.Int32
	work := func() {
		for {
			k := int(next.Add(1)) - 1
			if k >= n {
				return
			}
			func() {
				defer func() {
					if p := recover(); p != nil {
						panics[k] = p
					}
				}()
				task(k)
			}()
		}
	}
	var wg sync.WaitGroup
	for range min(runtime.GOMAXPROCS(0), n) - 1 {
		wg.Go(work)
	}
	work()
	wg.Wait()
	for _, p := range panics {
		if p != nil {
			panic(p)
		}
	}
}

func (c *Checker) reset() {
	c.groups, c.cache, c.slugBases, c.took = nil, nil, nil, nil
	c.directives, c.secrets, c.scores = nil, nil, nil
	c.keepReadings(nil)
}

// slugCache hands the base slugs of the previous call to this one and
// collects this call's, so that it holds only contents still present.
type slugCache struct {
	old, now map[string]string
	derive   similar.Slugger // for contents old lacks
}

// generateSlug is similar.GenerateSlug, reusing the base slug a Checker's
// previous call derived from the same content.
func (w *workspace) generateSlug(content string, taken func(string) bool) string {
	if w.slugs == nil {
		return similar.GenerateSlug(content, taken)
	}
	base, ok := w.slugs.old[content]
	if !ok {
		base = w.slugs.derive.Base(content)
	}
	w.slugs.now[content] = base
	return similar.SlugFrom(base, taken)
}

// recomputeShare: a category file in which more than this share of the
// entries changed has its pairs computed afresh; beyond it, comparing each
// changed entry with every other costs about as much as the inverted index of
// similar.Pairs (BenchmarkPairsInvolving10k). minIncremental changes are
// always worth it. maxScript bounds the diff that matches old entries to new
// ones (its time is O(n·maxScript), its memory O(maxScript²)): an edit
// script longer than that is a rewrite, computed afresh.
//
// parallelPairsMin is the number of entries from which the files' pairs are
// computed side by side: below it a goroutine costs more than it saves.
const (
	parallelPairsMin = 512
	recomputeShare   = 0.10
	minIncremental   = 16
	maxScript        = 256
)

// computePairs runs the similarity comparison over every non-empty entry of
// every category file, grouped by file (a category file is one category),
// and returns the entries and their related pairs as similar.Pairs over all
// of them would. It reads only files, so Check runs it beside the other
// rules.
func (c *Checker) computePairs(files []File, cfg config.Config) ([]entryRef, []*similar.Text, []similar.Pair) {
	th := similar.Thresholds{Skip: cfg.SkipThreshold, Update: cfg.UpdateThreshold}
	// Old pairs are valid only under the same thresholds; analyses always.
	samePairs := c.groups != nil && th == c.th
	old := map[string][]*pairGroup{}
	for _, g := range c.groups {
		old[g.path] = append(old[g.path], g)
	}
	n := 0
	for fi := range files {
		if f := &files[fi]; f.IsCategory && f.parsed() {
			n += len(f.Doc.Entries)
		}
	}
	refs := make([]entryRef, 0, n)
	groups := make([]*pairGroup, 0, len(files))
	// per group: for each new index the old one, -1 for a changed entry;
	// nil when the group has no predecessor.
	matches := make([][]int, 0, len(files))
	prevs := make([]*pairGroup, 0, len(files))
	contents := make([][]string, 0, len(files)) // by group, for this call only
	for fi := range files {
		f := &files[fi]
		if !f.IsCategory || !f.parsed() {
			continue // a file over MaxFileBytes leaves nothing behind
		}
		g := &pairGroup{path: f.Path}
		cts := make([]string, 0, len(f.Doc.Entries))
		for i := range f.Doc.Entries {
			if ct := f.Doc.Entries[i].Content; ct != "" {
				refs = append(refs, entryRef{fi, i})
				cts = append(cts, ct)
			}
		}
		g.texts = make([]*similar.Text, len(cts))
		var prev *pairGroup
		var match []int
		if olds := old[f.Path]; len(olds) > 0 {
			prev, old[f.Path] = olds[0], olds[1:]
			match = matchContents(prev.contents(), cts, maxChanges(len(cts)))
			if match == nil {
				prev = nil
			}
		}
		groups, matches, prevs = append(groups, g), append(matches, match), append(prevs, prev)
		contents = append(contents, cts)
	}

	// Analyses: reused where the entry is unchanged, else from the cache,
	// else computed (all at once, spread over the cores).
	var missing []string
	var missingAt []*(*similar.Text)
	for gi, g := range groups {
		for i, ct := range contents[gi] {
			if m := matches[gi]; m != nil && m[i] >= 0 {
				g.texts[i] = prevs[gi].texts[m[i]]
			} else if e := c.lookup(ct); e != nil {
				g.texts[i] = e.text
			} else {
				missing = append(missing, kept(ct, c.groups != nil))
				missingAt = append(missingAt, &g.texts[i])
			}
		}
	}
	for k, t := range similar.AnalyzeAll(missing) {
		*missingAt[k] = t
	}
	c.updateCache(groups, matches, prevs)

	// Pairs: kept among unchanged entries, computed for the changed ones;
	// computed afresh for a new file, a file with many changes, or new
	// thresholds.
	pairsOf := func(gi int) {
		g := groups[gi]
		if prev, m := prevs[gi], matches[gi]; samePairs && prev != nil {
			g.pairs = prev.pairs.Update(prev.texts, g.texts, m, th)
		} else {
			g.pairs = similar.GroupPairs(g.texts, th)
		}
	}
	// The files are independent: on a large workspace they are spread over
	// the cores, so that the pairs, the longest task of Check, do not hold
	// up the end while the other core has finished the other rules.
	if len(refs) >= parallelPairsMin {
		parallelTasks(len(groups), pairsOf)
	} else {
		for gi := range groups {
			pairsOf(gi)
		}
	}
	np := 0
	for _, g := range groups {
		np += len(g.pairs.Pairs)
	}
	pairs := make([]similar.Pair, 0, np)
	texts := make([]*similar.Text, 0, len(refs))
	off := 0
	for _, g := range groups {
		for _, p := range g.pairs.Pairs {
			pairs = append(pairs, similar.Pair{I: p.I + off, J: p.J + off, Verdict: p.Verdict})
		}
		off += len(g.texts)
		texts = append(texts, g.texts...)
	}
	c.groups, c.th = groups, th
	return refs, texts, pairs
}

// kept is content, of a file's parse, as the Checker reads it for what it
// keeps beyond the call (an analysis, the references): a copy once an
// earlier call has been kept. A content is a view of its parse's bytes
// (memfile.Parse), and what is read of it views them too: kept from a
// later version, each line edited would keep that whole version of the
// file alive (BenchmarkEditedMemoryInProcess). A first call's contents
// view the bytes the folder was first read from, one version.
func kept(content string, later bool) string {
	if later {
		return strings.Clone(content)
	}
	return content
}

// maxChanges is how many changed entries a file of n entries may have and
// still be updated rather than recomputed.
func maxChanges(n int) int {
	return max(minIncremental, int(recomputeShare*float64(n)))
}

// lookup finds an analysis of the previous call by content, building the
// cache from the previous groups on first need.
func (c *Checker) lookup(content string) *cached {
	if c.groups == nil {
		return nil
	}
	if c.cache == nil {
		c.cache = map[string]*cached{}
		for _, g := range c.groups {
			for _, t := range g.texts {
				if e := c.cache[t.Raw]; e != nil {
					e.n++
				} else {
					c.cache[t.Raw] = &cached{text: t, n: 1}
				}
			}
		}
	}
	return c.cache[content]
}

// updateCache brings the cache (if built) from the previous groups to the
// new ones: contents that came in are counted, those that went are
// uncounted, and a content no entry holds any more is dropped.
func (c *Checker) updateCache(groups []*pairGroup, matches [][]int, prevs []*pairGroup) {
	if c.cache == nil {
		return
	}
	kept := map[*pairGroup][]bool{} // per old group, which old entries live on
	for gi, g := range groups {
		m, prev := matches[gi], prevs[gi]
		var live []bool
		if prev != nil {
			live = make([]bool, len(prev.texts))
		}
		for i, t := range g.texts {
			if m != nil && m[i] >= 0 {
				live[m[i]] = true
				continue
			}
			if e := c.cache[t.Raw]; e != nil {
				e.n++
			} else {
				c.cache[t.Raw] = &cached{text: t, n: 1}
			}
		}
		if prev != nil {
			kept[prev] = live
		}
	}
	for _, g := range c.groups {
		live := kept[g]
		for i, t := range g.texts {
			if live != nil && live[i] {
				continue
			}
			if e := c.cache[t.Raw]; e != nil {
				if e.n--; e.n <= 0 {
					delete(c.cache, t.Raw)
				}
			}
		}
	}
}

// matchContents pairs the entries of b with equal entries of a, in order (a
// longest common subsequence, found by Myers' diff after the common prefix
// and suffix): match[j] is the index in a of b[j]'s equal, or -1 for an entry
// that changed or came in. It returns nil when more than maxD entries of b
// changed or more than maxD of a went.
func matchContents(a, b []string, maxD int) []int {
	match := make([]int, len(b))
	pre := 0
	for pre < len(a) && pre < len(b) && a[pre] == b[pre] {
		match[pre] = pre
		pre++
	}
	suf := 0
	for suf < len(a)-pre && suf < len(b)-pre && a[len(a)-1-suf] == b[len(b)-1-suf] {
		match[len(b)-1-suf] = len(a) - 1 - suf
		suf++
	}
	am, bm := a[pre:len(a)-suf], b[pre:len(b)-suf]
	for j := range bm {
		match[pre+j] = -1
	}
	if len(am) == 0 || len(bm) == 0 {
		if len(am) > maxD || len(bm) > maxD {
			return nil
		}
		return match
	}
	// Every insertion or deletion costs one step of the diff: at most maxD
	// of each, and at most maxScript in all, which bounds the diff's time
	// and memory when much changed.
	if !text.MatchLines(am, bm, min(2*maxD, maxScript), func(i, j int) { match[pre+j] = pre + i }) {
		return nil
	}
	ins, del := 0, len(a)-len(b)
	for _, m := range match {
		if m < 0 {
			ins++
		}
	}
	if del += ins; ins > maxD || del > maxD {
		return nil
	}
	return match
}
