package refs

import (
	"fmt"
	"os"
	"path/filepath"
	"sort"
	"strings"
	"testing"

	"github.com/memory-lsp/memory-lsp/core/memfile"
)

// judgeLabels labels the warnings Judge gives on corpus entries checked
// against their own repositories (see TestCorpusJudgement).
const judgeLabels = "../../testdata/refs/judge-labels.txt"

// The warnings on real memory files checked against their own repositories
// must be right at least this often: the bar.
const minJudgePrecision = 0.95

// judgedCorpus are the corpus files whose commit (SOURCES.md) the mirrors
// hold, with the mirror's folder name under REFS_MIRRORS.
var judgedCorpus = []struct {
	folder, mirror string
	commits        map[string]string // memory file → the commit it was saved at
}{
	{"Binwinwinw__editeurhtml", "Binwinwinw+editeurhtml", map[string]string{
		"decisions.md": "0f5274299c", "security.md": "0f5274299c",
		"instructions.md": "42cd736780", "preferences.md": "42cd736780", "quirks.md": "42cd736780"}},
	{"0thernes__cosmogonic-quantum-mechalogodrom", "0thernes+cosmogonic-quantum-mechalogodrom", map[string]string{
		"decisions.md": "98f87a164a", "preferences.md": "98f87a164a", "security.md": "98f87a164a",
		"instructions.md": "8da48e4418", "quirks.md": "4fc4d4c0aa"}},
	{"Binwinwinw__EasyLocalAI", "Binwinwinw+EasyLocalAI", map[string]string{
		"decisions.md": "2096dec189", "instructions.md": "2096dec189",
		"preferences.md": "5d73ea2165", "quirks.md": "5d73ea2165", "security.md": "5d73ea2165"}},
	{"Binwinwinw__nexxustudio", "Binwinwinw+nexxustudio", map[string]string{
		"preferences.md": "e6d9040d9c", "security.md": "e6d9040d9c"}},
	{"0thernes__glidiebirdie", "0thernes+glidiebirdie", map[string]string{
		"decisions.md": "3f5496ff5f", "instructions.md": "3f5496ff5f", "quirks.md": "3f5496ff5f",
		"security.md": "3f5496ff5f", "preferences.md": "4ecbaec33c"}},
}

// judgedInstructions are agent instruction files of public repositories,
// taken at their first version: memory written once and left while the code
// moved on. Each line is an entry; a line of a fenced code block is read as
// a code span (`npm run dev`), as a memory entry would cite it.
var judgedInstructions = []struct {
	mirror, file, commit string
}{
	{"NicholsonTsang+Cardy", "CLAUDE.md", "653d6c6"},
	{"Nick-Mazuk+enso", "CLAUDE.md", "1c49d72"},
	{"Nicholasbell03+nickbell-frontend", "CLAUDE.md", "6da6e39"},
}

// judgedRef is one reference judged in one mode: "saved" checks the entry
// against the commit its file was saved at, "head" against the mirror's
// newest commit (the code moved on; the memory did not).
type judgedRef struct {
	corpusRef
	mode string
}

func (j judgedRef) String() string { return j.corpusRef.String() + " " + j.mode }

var listVerdicts = os.Getenv("REFS_LIST_VERDICTS") != ""

// judgeEntry is one line to judge: where it is, its text, and the byte
// offset of that text in the line.
type judgeEntry struct {
	file string
	line int
	text string
	base int
}

// judgeSource is a file of entries and the repository it belongs to.
type judgeSource struct {
	gitDir, commit, blamed string
	entries                []judgeEntry
}

// TestCorpusJudgement measures Judge on real memory against its own
// repository: the shared corpus's memory files whose commit the mirrors
// hold, and the first versions of agent instruction files of public
// repositories. It needs git and mirrors (fetch the repositories, then set
// REFS_MIRRORS to the folder that holds owner+name/repo); without them it is
// skipped. Every warning (stale or drift) is labelled right or wrong in
// testdata/refs/judge-labels.txt, and every stale reference Judge does not
// warn about is labelled missed.
func TestCorpusJudgement(t *testing.T) {
	mirrors := os.Getenv("REFS_MIRRORS")
	if mirrors == "" {
		t.Skip("REFS_MIRRORS not set; judging real memory needs git mirrors of its repositories")
	}
	if _, err := os.Stat(sharedCorpus); err != nil {
		t.Skipf("%s not found; the judgement test needs the shared corpus beside the clone", sharedCorpus)
	}
	mirror := func(name string) string {
		gitDir := filepath.Join(mirrors, name, "repo")
		if _, err := os.Stat(gitDir); err != nil {
			t.Skipf("mirror %s not found under %s", name, mirrors)
		}
		return gitDir
	}
	var sources []judgeSource
	for _, c := range judgedCorpus {
		gitDir := mirror(c.mirror)
		files := make([]string, 0, len(c.commits))
		for f := range c.commits {
			files = append(files, f)
		}
		sort.Strings(files)
		for _, f := range files {
			rel := c.folder + "/.memory/" + f
			src, err := os.ReadFile(filepath.Join(sharedCorpus, filepath.FromSlash(rel)))
			if err != nil {
				t.Fatal(err)
			}
			js := judgeSource{gitDir: gitDir, commit: c.commits[f], blamed: ".memory/" + f}
			for _, e := range memfile.Parse(src).Entries {
				js.entries = append(js.entries, judgeEntry{rel, e.Line, e.Content, e.ContentSpan.Start - e.LineSpan.Start})
			}
			sources = append(sources, js)
		}
	}
	for _, c := range judgedInstructions {
		gitDir := mirror(c.mirror)
		js := judgeSource{gitDir: gitDir, commit: c.commit, blamed: c.file}
		fence := false
		for i, line := range strings.Split(string(git(t, gitDir, "show", c.commit+":"+c.file)), "\n") {
			trimmed := strings.TrimSpace(line)
			if strings.HasPrefix(trimmed, "```") {
				fence = !fence
				continue
			}
			if trimmed == "" {
				continue
			}
			text := line
			if fence {
				text = "`" + line + "`" // offsets shift by the added backtick
			}
			js.entries = append(js.entries, judgeEntry{c.mirror + "/" + c.file + "@" + c.commit, i + 1, text, 0})
		}
		sources = append(sources, js)
	}

	warnings := map[judgedRef]string{}
	counts := map[string]map[Status]int{"saved": {}, "head": {}}
	repos := map[string]*gitRepo{}
	repoAt := func(gitDir, commit string) *gitRepo {
		if r, ok := repos[gitDir+"@"+commit]; ok {
			return r
		}
		r := newGitRepo(t, gitDir, commit)
		repos[gitDir+"@"+commit] = r
		return r
	}
	for _, js := range sources {
		head := strings.TrimSpace(string(git(t, js.gitDir, "rev-parse", "HEAD")))
		written := blame(t, js.gitDir, js.commit, js.blamed)
		for _, e := range js.entries {
			for _, r := range Extract(e.text) {
				for _, mode := range []string{"saved", "head"} {
					repo := entryRepo{repoAt(js.gitDir, js.commit), written[e.line]}
					if mode == "head" {
						repo.gitRepo = repoAt(js.gitDir, head)
					}
					v := Judge(r, repo)
					counts[mode][v.Status]++
					k := judgedRef{corpusRef{e.file, e.line, e.base + r.Start, e.base + r.End, r.Kind}, mode}
					if v.Status == Stale || v.Status == Drift {
						warnings[k] = e.text[r.Start:r.End]
					}
					if listVerdicts {
						fmt.Printf("%v %v\t%s\t%+v\n", k, v.Status, e.text[r.Start:r.End], v)
					}
				}
			}
		}
	}
	labels := readJudgeLabels(t)
	var right, wrong, missed int
	for k := range warnings {
		switch labels[k] {
		case "right":
			right++
		case "wrong":
			wrong++
		default:
			t.Errorf("%v: a warning without a label (REFS_LIST_VERDICTS=1 lists every verdict)", k)
		}
	}
	for k, l := range labels {
		_, warned := warnings[k]
		switch {
		case l == "missed" && warned:
			t.Errorf("%v is labelled missed but Judge warns now: label it right", k)
		case l == "missed":
			missed++
		case !warned:
			t.Errorf("%v is labelled %s but Judge no longer warns", k, l)
		}
	}
	for _, mode := range []string{"saved", "head"} {
		n := counts[mode]
		t.Logf("%s: %d holds, %d silent, %d stale, %d drift", mode, n[Holds], n[Silent], n[Stale], n[Drift])
	}
	precision := float64(right) / float64(max(right+wrong, 1))
	recall := float64(right) / float64(max(right+missed, 1))
	t.Logf("warnings: %d right, %d wrong, %d stale references missed: precision %.3f, recall %.3f", right, wrong, missed, precision, recall)
	if precision < minJudgePrecision {
		t.Errorf("precision %.3f < %.2f", precision, minJudgePrecision)
	}
}

// readJudgeLabels reads "file line start end kind mode label" lines, label
// right, wrong or missed.
func readJudgeLabels(t *testing.T) map[judgedRef]string {
	t.Helper()
	out := map[judgedRef]string{}
	readLabelLines(t, judgeLabels, 7, func(where string, ref corpusRef, rest []string) {
		mode, label := rest[0], rest[1]
		if (mode != "saved" && mode != "head") || (label != "right" && label != "wrong" && label != "missed") {
			t.Fatalf("%s: bad mode or label", where)
		}
		out[judgedRef{ref, mode}] = label
	})
	return out
}
