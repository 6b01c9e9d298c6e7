package rules

import (
	"reflect"
	"strconv"
	"strings"
	"testing"
	"time"

	"github.com/memory-lsp/memory-lsp/core/config"
	"github.com/memory-lsp/memory-lsp/core/refs"
	"github.com/memory-lsp/memory-lsp/core/refs/refstest"
	"github.com/memory-lsp/memory-lsp/core/text"
)

// fakeRepo is a Repo over refstest's map-backed repository, with when each
// memory line was written: by "path:line", else at.
type fakeRepo struct {
	refstest.Repo
	at      time.Time
	written map[string]time.Time
	// asked counts the calls of Written (blame is dear in a real one).
	asked int
}

func (r *fakeRepo) Written(path string, line int) time.Time {
	r.asked++
	if t, ok := r.written[path+":"+strconv.Itoa(line)]; ok {
		return t
	}
	return r.at
}

func (r *fakeRepo) Locate(p string) (string, bool) { _, ok := r.Stat(p); return p, ok }

func (r *fakeRepo) LastChange(string) (string, time.Time, bool) { return "", time.Time{}, false }

var (
	day     = 24 * time.Hour
	written = time.Date(2025, 6, 1, 0, 0, 0, 0, time.UTC)
)

// testRepo is a small project: source files, a Makefile, package.json
// scripts, pins, and a history in which src/auth/session.ts moved after
// the memory was written.
func testRepo() *fakeRepo {
	return &fakeRepo{at: written, Repo: refstest.Repo{
		Files:  []string{"lib/auth/sessions.ts", "src/app.ts", "docs/adr/0001.md", "Makefile", "package.json", ".nvmrc"},
		Ignore: []string{"dist/"},
		Manifests: map[refstest.At]refs.Manifest{
			{Tool: refs.Make}: {File: "Makefile", Names: []string{"build", "e2e-test", "test"}},
			{Tool: refs.Npm}:  {File: "package.json", Names: []string{"dev", "lint", "test:e2e"}},
		},
		Gone: map[string]refs.Move{
			"src/auth/session.ts": {To: "lib/auth/sessions.ts", Commit: "3f9c2a1b7e0d", When: written.Add(day)},
			"src/old/index.ts":    {Commit: "9abcdef", When: written.Add(-day)},
			"src/gone/x.ts":       {To: "src/also-gone/x.ts", Commit: "1234567", When: written.Add(day)},
			"src/when/unknown.ts": {To: "lib/auth/sessions.ts", Commit: "7654321"},
		},
		PinsOf: map[string][]refs.Pin{"node": {{Value: "22", File: ".nvmrc", Line: 1}}},
	}}
}

type shown struct {
	code, cited, message string
	fixes                []string // titles, "(safe)" appended to a safe one
}

// referenceFindings checks one decisions.md against repo and returns the
// findings of the reference rules.
func referenceFindings(t *testing.T, src string, repo Repo, cfg config.Config) []shown {
	t.Helper()
	files := []File{newFile(".memory/decisions.md", []byte(src))}
	var out []shown
	for _, f := range CheckWithRepo(files, cfg, repo) {
		if !f.Traits().NeedsRepo {
			continue
		}
		s := shown{code: f.Code, cited: src[f.Span.Start:f.Span.End], message: f.Message}
		for _, x := range f.Fixes {
			title := x.Title
			if x.Safe {
				title += " (safe)"
			}
			s.fixes = append(s.fixes, title)
		}
		out = append(out, s)
	}
	return out
}

func TestReferenceRules(t *testing.T) {
	tests := []struct {
		name  string
		entry string
		// written, when set, is when the entry's line was written; the
		// zero time says it is not committed
		written *time.Time
		want    []shown
	}{
		{"path that holds", "Auth is in `lib/auth/sessions.ts`.", nil, nil},
		{"path moved after the entry", "Auth is in `src/auth/session.ts`.", nil, []shown{{"stale-path", "src/auth/session.ts",
			"src/auth/session.ts does not exist; moved to lib/auth/sessions.ts in 3f9c2a1", []string{"Replace with lib/auth/sessions.ts (safe)"}}}},
		// An entry written after its path had gone was wrong from the start:
		// an agent reading it acts on it all the same.
		{"moved in the commit that wrote the entry", "Auth is in `src/auth/session.ts`.", ptr(written.Add(day)), []shown{{"stale-path", "src/auth/session.ts",
			"src/auth/session.ts does not exist; moved to lib/auth/sessions.ts in 3f9c2a1", []string{"Replace with lib/auth/sessions.ts (safe)"}}}},
		{"moved before the entry", "Auth is in `src/auth/session.ts`.", ptr(written.Add(2 * day)), []shown{{"stale-path", "src/auth/session.ts",
			"src/auth/session.ts does not exist; moved to lib/auth/sessions.ts in 3f9c2a1", []string{"Replace with lib/auth/sessions.ts (safe)"}}}},
		{"uncommitted entry citing a moved path", "Auth is in `src/auth/session.ts`.", ptr(time.Time{}), []shown{{"stale-path", "src/auth/session.ts",
			"src/auth/session.ts does not exist; moved to lib/auth/sessions.ts in 3f9c2a1", []string{"Replace with lib/auth/sessions.ts (safe)"}}}},
		{"entry that says the path moved", "Auth moved out of `src/auth/session.ts`.", ptr(time.Time{}), nil},
		{"entry that says the path is no more", "No more `src/auth/session.ts`: see lib/.", nil, nil},
		{"removal word in the path only", "See `src/legacy/gone.ts`.", nil, []shown{{"stale-path", "src/legacy/gone.ts",
			"src/legacy/gone.ts does not exist, and no commit read shows it ever did", []string{"Delete entry"}}}},
		{"move of unknown time", "See `src/when/unknown.ts`.", nil, []shown{{"stale-path", "src/when/unknown.ts",
			"src/when/unknown.ts does not exist; moved to lib/auth/sessions.ts in 7654321", []string{"Replace with lib/auth/sessions.ts (safe)"}}}},
		{"deleted before the entry", "We dropped `src/old/index.ts`.", nil, nil},
		{"moved to a path that is gone too", "See `src/gone/x.ts`.", nil, []shown{{"stale-path", "src/gone/x.ts",
			"src/gone/x.ts does not exist; moved to src/also-gone/x.ts in 1234567, which does not exist either", []string{"Delete entry"}}}},
		{"missing without history", "Config is in src/config/load.ts:12 today.", nil, []shown{{"stale-path", "src/config/load.ts:12",
			"src/config/load.ts does not exist, and no commit read shows it ever did", []string{"Delete entry"}}}},
		{"ignored", "The bundle is `dist/app.js`.", nil, nil},
		{"command", "Run `make e2e` and `npm run lint`.", nil, []shown{{"stale-command", "make e2e",
			`make e2e: no target "e2e" in Makefile, nor in any version of it read; closest: e2e-test`, []string{"Replace with e2e-test"}}}},
		{"command without a close name", "Run `npm run deploy`.", nil, []shown{{"stale-command", "npm run deploy",
			`npm run deploy: no script "deploy" in package.json, nor in any version of it read`, nil}}},
		{"command in a missing folder", "Run `cd api && make build`.", nil, []shown{{"stale-command", "cd api && make build",
			"cd api && make build: there is no folder api/", nil}}},
		{"version", "We are on Node 18.", nil, []shown{{"version-drift", "Node 18", `"Node 18" contradicts .nvmrc (22)`, []string{"Update to 22"}}}},
		{"version bound that holds", "Node 18 or newer.", nil, nil},
		{"all three in one entry", "Node 18 runs `make e2e` on src/auth/session.ts.", nil, []shown{
			{"version-drift", "Node 18", `"Node 18" contradicts .nvmrc (22)`, []string{"Update to 22"}},
			{"stale-command", "make e2e", `make e2e: no target "e2e" in Makefile, nor in any version of it read; closest: e2e-test`, []string{"Replace with e2e-test"}},
			{"stale-path", "src/auth/session.ts", "src/auth/session.ts does not exist; moved to lib/auth/sessions.ts in 3f9c2a1",
				[]string{"Replace with lib/auth/sessions.ts (safe)"}}}},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			repo := testRepo()
			if tt.written != nil {
				repo.written = map[string]time.Time{".memory/decisions.md:3": *tt.written}
			}
			got := referenceFindings(t, "# Decisions\n\n- "+tt.entry+"\n", repo, config.Default())
			if !reflect.DeepEqual(got, tt.want) {
				t.Errorf("got  %q\nwant %q", got, tt.want)
			}
		})
	}
}

func ptr[T any](v T) *T { return &v }

// TestReferenceRulesSilent: without a repository, with one that holds
// nothing but .memory/, or switched off, the rules report nothing and do
// not read the entries.
func TestReferenceRulesSilent(t *testing.T) {
	src := "- Auth is in `src/auth/session.ts`; run `make e2e` on Node 18.\n"
	noCode := testRepo()
	noCode.NoCode = true
	off := config.Default()
	off.Disabled = map[string]bool{"stale-path": true, "stale-command": true, "version-drift": true}
	for _, tc := range []struct {
		name string
		repo Repo
		cfg  config.Config
	}{{"no repository", nil, config.Default()}, {"no code", noCode, config.Default()}, {"switched off", testRepo(), off}} {
		if got := referenceFindings(t, src, tc.repo, tc.cfg); got != nil {
			t.Errorf("%s: %q", tc.name, got)
		}
		c := &Checker{Repo: tc.repo}
		c.Check([]File{newFile(".memory/decisions.md", []byte(src))}, tc.cfg)
		if c.References() != nil {
			t.Errorf("%s: the Checker read the entries", tc.name)
		}
	}
	if ReadsRepo(off) || !ReadsRepo(config.Default()) {
		t.Errorf("ReadsRepo: switched off %v, by default %v", ReadsRepo(off), ReadsRepo(config.Default()))
	}
	one := config.Default()
	one.Disabled = map[string]bool{"stale-path": true, "stale-command": true}
	if !ReadsRepo(one) {
		t.Error("ReadsRepo is false with version-drift on")
	}
}

// TestWrittenAskedOnlyForHistory: when a line was written is asked only
// for an entry citing a path the history knows, once per entry.
func TestWrittenAskedOnlyForHistory(t *testing.T) {
	repo := testRepo()
	referenceFindings(t, "- `src/app.ts`, `make e2e`, Node 18 and `src/nowhere.ts`.\n", repo, config.Default())
	if repo.asked != 0 {
		t.Errorf("Written asked %d times for entries without moved paths", repo.asked)
	}
	referenceFindings(t, "- `src/auth/session.ts` and `src/gone/x.ts`.\n", repo, config.Default())
	if repo.asked != 1 {
		t.Errorf("Written asked %d times for one entry", repo.asked)
	}
}

func TestGoneWhenWritten(t *testing.T) {
	tests := []struct {
		when, written time.Time
		want          bool
	}{
		{written.Add(day), written, false},    // moved after: the entry went stale
		{written.Add(-day), written, true},    // moved before: the entry speaks of it
		{written, written, true},              // one commit did both
		{written.Add(day), time.Time{}, true}, // uncommitted: written now
		{time.Time{}, written, false},         // unknown time: not ordered before
		{time.Time{}, time.Time{}, true},      // uncommitted, unknown time
		{written.Add(-365 * day), time.Time{}, true},
	}
	for _, tt := range tests {
		if got := goneWhenWritten(tt.when, tt.written); got != tt.want {
			t.Errorf("goneWhenWritten(%v, %v) = %v, want %v", tt.when, tt.written, got, tt.want)
		}
	}
}

func TestMovedCitation(t *testing.T) {
	tests := []struct {
		cited, path string
		dir         bool
		to, want    string
	}{
		{"src/auth/session.ts", "src/auth/session.ts", false, "lib/auth/sessions.ts", "lib/auth/sessions.ts"},
		{"./src/db/pool.ts", "src/db/pool.ts", false, "src/db/pools.ts", "./src/db/pools.ts"},
		{"docs/adr/", "docs/adr", true, "docs/decisions", "docs/decisions/"},
		{"format.js", "format.js", false, "src/util/formatting.js", "formatting.js"},
		{"./././x/a.ts", "x/a.ts", false, "y/a.ts", "./././y/a.ts"},
	}
	for _, tt := range tests {
		if got := movedCitation(tt.cited, refs.Ref{Path: tt.path, Dir: tt.dir}, tt.to); got != tt.want {
			t.Errorf("movedCitation(%q → %q) = %q, want %q", tt.cited, tt.to, got, tt.want)
		}
	}
}

// TestHazardLineKeepsItsPath: a line holding a secret is never rewritten,
// not even to correct a moved path; fix-all corrects the same path in an
// entry without one.
func TestHazardLineKeepsItsPath(t *testing.T) {
	src := "- The token ghp_4fK9sLm2Qx7Rt1Vb8Nc3Zd6Wy0Pe5Ha9Jg2U is read in `src/auth/session.ts`.\n- Auth is in `src/auth/session.ts`.\n"
	files := []File{newFile(".memory/security.md", []byte(src))}
	edits := FixAll(files, CheckWithRepo(files, config.Default(), testRepo()))
	out, err := text.Apply(files[0].Doc.Src, edits[0])
	if err != nil {
		t.Fatal(err)
	}
	want := strings.Replace(src, "- Auth is in `src/auth/session.ts`", "- Auth is in `lib/auth/sessions.ts`", 1)
	if string(out) != want {
		t.Errorf("fix-all wrote\n%s\nwant\n%s", out, want)
	}
}

// TestCheckerReusesReadings: the Checker keeps the references it read by
// content, exactly the contents of its last call, and a check with them
// reports what a fresh one does.
func TestCheckerReusesReadings(t *testing.T) {
	repo := testRepo()
	a := "- Auth is in `src/auth/session.ts`.\n- Run `make e2e`.\n- Plain text.\n"
	b := "- Auth is in `src/auth/session.ts`.\n- We are on Node 18.\n- Plain text.\n"
	c := &Checker{Repo: repo}
	for _, src := range []string{a, b, a} {
		files := []File{newFile(".memory/decisions.md", []byte(src))}
		if got, want := c.Check(files, config.Default()), CheckWithRepo(files, config.Default(), repo); !reflect.DeepEqual(got, want) {
			t.Fatalf("Checker found\n%v\nCheckWithRepo\n%v", got, want)
		}
		var keys []string
		for k := range c.References().All() {
			keys = append(keys, k)
		}
		var contents []string
		for _, e := range files[0].Doc.Entries {
			contents = append(contents, e.Content)
		}
		if !sameSet(keys, contents) {
			t.Errorf("the Checker keeps readings of %q, want %q", keys, contents)
		}
	}
	// a reading is reused: one planted for a content stands in for Extract
	c.References().add("Plain text.", []refs.Ref{{Kind: refs.Version, Start: 0, End: 5, ValueStart: 0, ValueEnd: 5, Subject: "node", Version: "18"}})
	got := c.Check([]File{newFile(".memory/decisions.md", []byte(a))}, config.Default())
	found := false
	for _, f := range got {
		found = found || f.Code == "version-drift" && strings.HasPrefix(f.Message, `"Plain"`)
	}
	if !found {
		t.Errorf("the reading kept for an unchanged content was not used: %v", got)
	}
}

func sameSet(a, b []string) bool {
	m := map[string]int{}
	for _, s := range a {
		m[s]++
	}
	for _, s := range b {
		if m[s] == 0 {
			return false
		}
		m[s] = 1 // b may hold a content twice
	}
	for _, s := range b {
		delete(m, s)
	}
	return len(m) == 0
}

// CheckReferences judges only the entries asked about, with the same
// findings a full check gives them.
func TestCheckReferences(t *testing.T) {
	src := "# Decisions\n\n- Auth lives in `src/auth/session.ts`.\n- Run `make e2e` before merging.\n- We are on Node 18.\n"
	files := []File{NewFile(".memory/decisions.md", []byte(src))}
	cfg := config.Default()
	repo := testRepo()
	full := CheckWithRepo(files, cfg, repo)
	var want []Finding
	for _, f := range full {
		if f.Traits().NeedsRepo && f.Span.Start >= files[0].Doc.Entries[2].LineSpan.Start {
			want = append(want, f)
		}
	}
	if len(want) != 1 || want[0].Code != "version-drift" {
		t.Fatalf("a full check gives %v on the third entry, want one version-drift", want)
	}
	got := CheckReferences(files, []EntryAt{{File: 0, Entry: 2}}, cfg, repo)
	if !reflect.DeepEqual(got, want) {
		t.Errorf("CheckReferences of the third entry = %+v\nwant %+v", got, want)
	}
	if got := CheckReferences(files, []EntryAt{{0, 0}, {0, 1}, {0, 2}}, cfg, repo); len(got) != 3 {
		t.Errorf("CheckReferences of all three entries gives %d findings, want 3: %v", len(got), got)
	}
	off := config.Default()
	off.Disabled["version-drift"] = true
	for name, c := range map[string]struct {
		repo Repo
		cfg  config.Config
		at   []EntryAt
	}{
		"no repository": {nil, cfg, []EntryAt{{0, 2}}},
		"no code":       {&fakeRepo{Repo: refstest.Repo{NoCode: true}}, cfg, []EntryAt{{0, 2}}},
		"rule off":      {repo, off, []EntryAt{{0, 2}}},
		"out of range":  {repo, cfg, []EntryAt{{1, 0}, {0, 9}, {-1, -1}}},
	} {
		if got := CheckReferences(files, c.at, c.cfg, c.repo); len(got) != 0 {
			t.Errorf("%s: %v, want none", name, got)
		}
	}
}

// TestReadingsAreAMapOfReadings: Readings hand out what was added for each
// content, nil and empty readings as they were, and nothing for a content
// not read.
func TestReadingsAreAMapOfReadings(t *testing.T) {
	want := map[string][]refs.Ref{
		"Plain text.":        nil,
		"Run `make e2e`.":    refs.Extract("Run `make e2e`."),
		"Auth in `src/a.ts`": refs.Extract("Auth in `src/a.ts`"),
		"empty, not nil":     {},
		"more plain text":    nil,
	}
	r := &Readings{at: map[string]int32{}}
	for ct, rs := range want {
		r.add(ct, rs)
	}
	if r.Len() != len(want) {
		t.Errorf("Len %d, want %d", r.Len(), len(want))
	}
	for ct, rs := range want {
		if got, ok := r.Of(ct); !ok || !reflect.DeepEqual(got, rs) {
			t.Errorf("Of(%q) = %v, %v; want %v", ct, got, ok, rs)
		}
	}
	all := map[string][]refs.Ref{}
	for ct, rs := range r.All() {
		all[ct] = rs
	}
	if !reflect.DeepEqual(all, want) {
		t.Errorf("All yields %v, want %v", all, want)
	}
	if _, ok := r.Of("never read"); ok {
		t.Error("a content never read has a reading")
	}
	var none *Readings
	if _, ok := none.Of("Plain text."); ok || none.Len() != 0 {
		t.Error("nil Readings hold a reading")
	}
}
