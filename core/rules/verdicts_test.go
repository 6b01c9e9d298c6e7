package rules

import (
	"cmp"
	"fmt"
	"maps"
	"reflect"
	"slices"
	"strings"
	"testing"

	"github.com/memory-lsp/memory-lsp/core/config"
	"github.com/memory-lsp/memory-lsp/core/refs"
)

// derivedRepo is a testRepo that says what changed since the Repo it was
// derived from: the paths named, or everything. It counts the Stat calls.
type derivedRepo struct {
	*fakeRepo
	from  Repo
	paths []string
	all   bool
	stats int
}

func (r *derivedRepo) Stat(p string) (isDir, ok bool) {
	r.stats++
	return r.fakeRepo.Stat(p)
}

func (r *derivedRepo) ChangesSince(old Repo) (RepoChange, bool) {
	if old == Repo(r) {
		return namedPaths(nil), true
	}
	if old != r.from || r.all {
		return nil, false
	}
	return namedPaths(r.paths), true
}

// derive is a copy of r's repository, derived from r by a change to the
// paths named, or one it cannot bound (all).
func (r *derivedRepo) derive(paths []string, all bool) *derivedRepo {
	fr := *r.fakeRepo
	return &derivedRepo{fakeRepo: &fr, from: r, paths: paths, all: all}
}

// namedPaths is a change to the paths named, none of them a manifest or a
// pin file.
type namedPaths []string

func (c namedPaths) Path(p string) bool              { return slices.Contains(c, p) }
func (c namedPaths) Manifest(refs.Tool, string) bool { return false }
func (c namedPaths) ListedBelow(refs.Tool) bool      { return false }
func (c namedPaths) Pins() bool                      { return false }

// TestCheckerJudgesAgainOnlyWhatChanged: after a change the repository
// names, only the references it may answer otherwise are judged again (one
// Stat each), the findings those of a full check; a reference on another
// line, or a change the repository cannot bound, is judged again.
func TestCheckerJudgesAgainOnlyWhatChanged(t *testing.T) {
	src := "# Decisions\n\n- The app is in `src/app.ts`.\n- The record is `docs/adr/0001.md`.\n- Auth lives in `src/auth/session.ts`.\n"
	files := []File{newFile(".memory/decisions.md", []byte(src))}
	cfg := config.Default()
	r0 := &derivedRepo{fakeRepo: testRepo()}
	c := &Checker{Repo: r0}
	// The stale path's fix asks where the file went, outside the judgement:
	// one Stat a check.
	const fixes = 1
	check := func(r *derivedRepo, files []File, judged int) {
		t.Helper()
		r.stats = 0
		c.Repo = r
		got := fmt.Sprintf("%+v", c.Check(files, cfg))
		if want := fmt.Sprintf("%+v", CheckWithRepo(files, cfg, r.fakeRepo)); got != want {
			t.Errorf("findings\n%s\nwant\n%s", got, want)
		}
		if r.stats != judged+fixes {
			t.Errorf("%d paths judged, want %d", r.stats-fixes, judged)
		}
	}
	check(r0, files, 3)
	check(r0, files, 0) // the same repository: nothing judged again

	r1 := r0.derive([]string{"src/app.ts"}, false)
	r1.Files = slices.DeleteFunc(slices.Clone(r1.Files), func(f string) bool { return f == "src/app.ts" })
	check(r1, files, 1)

	moved := []File{newFile(".memory/decisions.md", []byte("# Decisions\n\n- Intro.\n"+src[len("# Decisions\n\n"):]))}
	check(r1.derive(nil, false), moved, 3)
	check(r1.derive(nil, true), files, 3)
}

// TestStatusOnlyNamesEveryField: a judgement keeps a verdict by its status
// alone only when nothing else is set; a field added to refs.Verdict that
// statusOnly does not name would be lost. Each field in turn is set, and
// the verdict must come back whole.
func TestStatusOnlyNamesEveryField(t *testing.T) {
	asked := []question{{op: askPath, s: "src"}}
	for _, status := range []refs.Status{refs.Silent, refs.Holds, refs.Stale, refs.Drift} {
		plain := refs.Verdict{Status: status}
		if j := judged(plain, asked); j.more != nil || !reflect.DeepEqual(j.verdict(), plain) || len(j.asked) != 1 {
			t.Errorf("status %v alone: %+v gives back %+v", status, j, j.verdict())
		}
		typ := reflect.TypeFor[refs.Verdict]()
		for i := range typ.NumField() {
			f := typ.Field(i)
			if f.Name == "Status" {
				continue
			}
			v := plain
			reflect.ValueOf(&v).Elem().Field(i).Set(nonZero(f.Type))
			if statusOnly(v) {
				t.Errorf("statusOnly ignores refs.Verdict.%s", f.Name)
			}
			if got := judged(v, asked).verdict(); !reflect.DeepEqual(got, v) {
				t.Errorf("with %s set: %+v gives back %+v", f.Name, v, got)
			}
		}
	}
}

// nonZero is a value of type t other than its zero value.
func nonZero(t reflect.Type) reflect.Value {
	v := reflect.New(t).Elem()
	switch t.Kind() {
	case reflect.Bool:
		v.SetBool(true)
	case reflect.String:
		v.SetString("x")
	case reflect.Int, reflect.Int8, reflect.Int16, reflect.Int32, reflect.Int64:
		v.SetInt(1)
	case reflect.Uint, reflect.Uint8, reflect.Uint16, reflect.Uint32, reflect.Uint64:
		v.SetUint(1)
	case reflect.Pointer:
		v.Set(reflect.New(t.Elem()))
	case reflect.Slice:
		v.Set(reflect.MakeSlice(t, 1, 1))
	case reflect.Struct:
		v.Field(0).Set(nonZero(t.Field(0).Type))
	default:
		panic("nonZero: " + t.String())
	}
	return v
}

// TestRecorderNotesEachQuestionOnce: a path asked of three ways is one
// question (a judgement is kept with its questions, one per reference a
// folder cites), and a change to it is still seen, as is one to another
// question asked after it.
func TestRecorderNotesEachQuestionOnce(t *testing.T) {
	rec := &recorder{entryRepo: &entryRepo{Repo: &fakeRepo{}}}
	rec.Stat("src/app.ts")
	rec.Endings("src/app.ts")
	rec.Moved("src/app.ts")
	rec.Manifest(refs.Npm, "web")
	rec.Stat("src/app.ts")
	want := []question{{op: askPath, s: "src/app.ts"}, {op: askManifest, tool: refs.Npm, s: "web"}}
	if !reflect.DeepEqual(rec.asked, want) {
		t.Fatalf("asked %+v, want %+v", rec.asked, want)
	}
	j := judged(refs.Verdict{Status: refs.Silent}, rec.asked)
	if !j.affected(namedPaths{"src/app.ts"}) || j.affected(namedPaths{"src/other.ts"}) {
		t.Error("the judgement does not follow the change to its path")
	}
}

// TestVerdictsKeptInPlace: the verdicts, updated in place from check to
// check, are those a new Checker keeps after checking the same files
// against the same repository (no verdict of a reference no longer cited,
// none the change since could alter), and the findings are a full
// check's; once the map holds a quarter of the most it held, it is made
// afresh.
func TestVerdictsKeptInPlace(t *testing.T) {
	var many strings.Builder
	many.WriteString("# Decisions\n\n")
	for i := range 40 {
		fmt.Fprintf(&many, "- Step %d is in `src/step%d.ts`, run `make step-%d`.\n", i, i, i)
	}
	few := "# Decisions\n\n- The app is in `src/app.ts`.\n- Step 3 is in `src/step3.ts`, run `make step-3`.\n"
	cfg := config.Default()
	r := &derivedRepo{fakeRepo: testRepo()}
	c := &Checker{Repo: r}
	kept := func(c *Checker) string {
		keys := slices.SortedFunc(maps.Keys(c.verdicts), func(a, b verdictKey) int {
			return cmp.Or(cmp.Compare(a.content, b.content), cmp.Compare(a.path, b.path), cmp.Compare(a.line, b.line), cmp.Compare(a.ref, b.ref))
		})
		var b strings.Builder
		for _, k := range keys {
			j := c.verdicts[k]
			fmt.Fprintf(&b, "%+v %+v %+v\n", k, j.verdict(), j.asked)
		}
		return b.String()
	}
	for step, tc := range []struct {
		src     string
		changed []string // paths the repository changes before the check
	}{{many.String(), nil}, {few, nil}, {few, []string{"src/app.ts"}}, {many.String(), []string{"src/step3.ts"}}, {few, nil}} {
		if tc.changed != nil {
			r = r.derive(tc.changed, false)
			r.Files = slices.DeleteFunc(slices.Clone(r.Files), func(f string) bool { return slices.Contains(tc.changed, f) })
			c.Repo = r
		}
		files := []File{newFile(".memory/decisions.md", []byte(tc.src))}
		got := fmt.Sprintf("%+v", c.Check(files, cfg))
		if want := fmt.Sprintf("%+v", CheckWithRepo(files, cfg, r.fakeRepo)); got != want {
			t.Errorf("step %d: findings\n%s\nwant\n%s", step, got, want)
		}
		fresh := &Checker{Repo: r}
		fresh.Check(files, cfg)
		if got, want := kept(c), kept(fresh); got != want {
			t.Errorf("step %d: the Checker keeps\n%s\na new Checker\n%s", step, got, want)
		}
		if step == 1 && c.verdictsHigh != len(c.verdicts) {
			t.Errorf("step %d: the map of %d verdicts is still the one that held %d", step, len(c.verdicts), c.verdictsHigh)
		}
	}
}
