package rules

import (
	"maps"
	"path"
	"slices"

	"github.com/memory-lsp/memory-lsp/core/memfile"
	"github.com/memory-lsp/memory-lsp/core/refs"
)

// The reference rules' verdicts outlive a check: after a change to the
// code, the server's next check judges again only the references whose
// verdict the change may alter, and takes the rest from the previous check.
// A verdict is kept with the questions its judgement asked of the
// repository; a repository that follows changes in place (a DerivedRepo)
// says which questions it may answer otherwise than the one the verdicts
// were judged against, and a verdict any of whose questions it names is
// judged again. A repository that cannot say so, or a change it cannot
// bound (the history, the ignore rules), has everything judged again.

// DerivedRepo is a Repo that can say what changed since an older Repo it
// was derived from (memory's repository, after Update).
type DerivedRepo interface {
	Repo
	// ChangesSince says which questions the receiver may answer otherwise
	// than old does. ok is false when that is not known (old is not an
	// ancestor, or the history or the ignore rules changed): every verdict
	// must be judged again.
	ChangesSince(old Repo) (c RepoChange, ok bool)
}

// RepoChange names what a derived Repo may answer otherwise than its
// ancestor. Each method errs towards true.
type RepoChange interface {
	// Path: Stat, Ignored, Endings or Moved of the cited path.
	Path(cited string) bool
	// Manifest: Manifest or ManifestThen of tool in dir.
	Manifest(tool refs.Tool, dir string) bool
	// ListedBelow: ListedBelow of tool, for any name.
	ListedBelow(tool refs.Tool) bool
	// Pins: Pins, for any subject.
	Pins() bool
}

// verdictKey names one reference of one entry: the entry's content, the
// file and line it is on (the line's write time is part of its verdict),
// and the reference's index among the content's references. The numbers
// are int32 (a file is at most memfile.MaxBytes): the Checker keeps a key
// for every reference a folder cites, and a map slot of 80 bytes rather
// than 88.
type verdictKey struct {
	content, path string
	line, ref     int32
}

// judgement is a verdict and the questions that reached it. Most verdicts
// are their status alone (a path that exists, a command listed): those keep
// no refs.Verdict, which is 128 bytes, in a map of one judgement per
// reference the folder cites (90,000 at 100,000 entries).
type judgement struct {
	// more is the verdict, nil when it is refs.Verdict{Status: status}.
	more   *refs.Verdict
	asked  []question
	status refs.Status
	// gen is the check that last judged or took it (Checker.gen): the
	// verdicts are kept in one map, updated in place, and those no check
	// took since are swept at its end (in the padding after status).
	gen uint32
}

// judged is the judgement of v reached by asking asked.
func judged(v refs.Verdict, asked []question) judgement {
	j := judgement{asked: asked, status: v.Status}
	if !statusOnly(v) {
		j.more = &v
	}
	return j
}

// verdict is the verdict j keeps.
func (j judgement) verdict() refs.Verdict {
	if j.more != nil {
		return *j.more
	}
	return refs.Verdict{Status: j.status}
}

// statusOnly reports whether v says nothing but its status. Every field of
// refs.Verdict but Status is named here (TestStatusOnlyNamesEveryField).
func statusOnly(v refs.Verdict) bool {
	return !v.Elsewhere && v.Moved == nil && v.File == "" && v.Near == nil && !v.NoDir &&
		!v.Dropped && v.Pin == (refs.Pin{}) && v.Replace == ""
}

// question is one question a judgement asked of the repository.
type question struct {
	op   asking
	tool refs.Tool
	s    string // the path, or the folder of a manifest
}

type asking uint8

const (
	askPath asking = iota
	askManifest
	askListedBelow
	askPins
)

// affected reports whether ch may answer one of j's questions otherwise.
func (j judgement) affected(ch RepoChange) bool {
	for _, q := range j.asked {
		var yes bool
		switch q.op {
		case askPath:
			yes = ch.Path(q.s)
		case askManifest:
			yes = ch.Manifest(q.tool, q.s)
		case askListedBelow:
			yes = ch.ListedBelow(q.tool)
		default:
			yes = ch.Pins()
		}
		if yes {
			return true
		}
	}
	return false
}

// startVerdicts readies c.verdicts for a check that judges references:
// the verdicts the change since judgedBy may alter are dropped (all of them
// when c.Repo cannot say what changed), and the check's number is taken.
// The map is updated in place rather than made afresh for every check:
// the verdicts of a 10,000-entry file are a map of 0.7 MB, 5.6 MB at
// 100,000 entries, and the old and the new one were both alive until the
// check ended.
func (c *Checker) startVerdicts(cites []citing) uint32 {
	d, _ := c.Repo.(DerivedRepo)
	switch {
	case c.verdicts == nil:
		// sized once, by the references to judge
		n := 0
		for _, ct := range cites {
			n += len(ct.refs)
		}
		c.verdicts = make(map[verdictKey]judgement, n)
	case d == nil || c.judgedBy == nil:
		clear(c.verdicts)
	default:
		ch, ok := d.ChangesSince(c.judgedBy)
		if !ok {
			clear(c.verdicts)
			break
		}
		for k, j := range c.verdicts {
			if j.affected(ch) {
				delete(c.verdicts, k)
			}
		}
	}
	c.gen++
	return c.gen
}

// endVerdicts drops the verdicts the check numbered gen did not take: of
// references no longer cited. A map keeps the room of the most it held:
// once it holds less than a quarter of that, it is made afresh.
func (c *Checker) endVerdicts(gen uint32) {
	for k, j := range c.verdicts {
		if j.gen != gen {
			delete(c.verdicts, k)
		}
	}
	n := len(c.verdicts)
	if n >= c.verdictsHigh {
		c.verdictsHigh = n
		return
	}
	if n < c.verdictsHigh/4 {
		m := make(map[verdictKey]judgement, n)
		maps.Copy(m, c.verdicts)
		c.verdicts, c.verdictsHigh = m, n
	}
}

// keepsVerdicts reports whether the Checker keeps the verdicts of its
// checks: only against a repository that can say what changed.
func (c *Checker) keepsVerdicts() bool {
	_, ok := c.Repo.(DerivedRepo)
	return ok
}

// judge is refs.Judge's verdict on the i-th reference of entry e of the
// file at path, taken from the previous check when it still holds, and
// kept for the next one; without a cache (CheckReferences, a Repo that
// cannot say what changed) it is simply judged.
func (w *workspace) judge(path string, e *memfile.Entry, i int, ref refs.Ref, repo *entryRepo) refs.Verdict {
	if w.verdicts == nil {
		return refs.Judge(ref, repo)
	}
	k := verdictKey{content: e.Content, path: path, line: int32(e.Line), ref: int32(i)}
	j, ok := w.verdicts[k]
	if !ok {
		// the questions are noted in the workspace's scratch list and kept
		// in a list of their own of exactly their number: grown by
		// appending, each judgement's list would be up to twice that
		rec := &recorder{entryRepo: repo, asked: w.asking[:0]}
		v := refs.Judge(ref, rec)
		w.asking = rec.asked
		j = judged(v, slices.Clone(rec.asked))
	}
	j.gen = w.gen
	w.verdicts[k] = j
	return j.verdict()
}

// recorder is an entry's repository that notes the questions asked of it.
// Written is asked only through Moved and ManifestThen, and depends on
// the history alone, which a DerivedRepo never bounds.
type recorder struct {
	*entryRepo
	asked []question
}

// ask notes a question once: a judgement is judged again when any of its
// questions may be answered otherwise, so a repeat says nothing more (a
// path is asked of with Stat, then Endings, then Moved).
func (r *recorder) ask(op asking, tool refs.Tool, s string) {
	q := question{op: op, tool: tool, s: s}
	if !slices.Contains(r.asked, q) {
		r.asked = append(r.asked, q)
	}
}

func (r *recorder) Stat(p string) (isDir, ok bool) {
	r.ask(askPath, 0, p)
	return r.entryRepo.Stat(p)
}

func (r *recorder) Endings(p string) int {
	r.ask(askPath, 0, p)
	return r.entryRepo.Endings(p)
}

func (r *recorder) Ignored(p string) bool {
	r.ask(askPath, 0, p)
	return r.entryRepo.Ignored(p)
}

func (r *recorder) Moved(p string) (refs.Move, bool) {
	r.ask(askPath, 0, p)
	return r.entryRepo.Moved(p)
}

// RootHad depends on the history alone; it is noted as the path, which
// errs towards judging again.
func (r *recorder) RootHad(name string) (isDir, ok bool) {
	r.ask(askPath, 0, name)
	return r.entryRepo.RootHad(name)
}

// Stem depends on the files beside the cited path: noted as its folder,
// whose every change counts.
func (r *recorder) Stem(p string) bool {
	r.ask(askPath, 0, p)
	if d := path.Dir(p); d != "." {
		r.ask(askPath, 0, d)
	}
	return r.entryRepo.Stem(p)
}

func (r *recorder) Manifest(tool refs.Tool, dir string) (refs.Manifest, bool) {
	r.ask(askManifest, tool, dir)
	return r.entryRepo.Manifest(tool, dir)
}

func (r *recorder) ManifestThen(tool refs.Tool, dir string) (refs.Manifest, bool) {
	r.ask(askManifest, tool, dir)
	return r.entryRepo.ManifestThen(tool, dir)
}

func (r *recorder) ListedBelow(tool refs.Tool, name string) bool {
	r.ask(askListedBelow, tool, "")
	return r.entryRepo.ListedBelow(tool, name)
}

func (r *recorder) Pins(subject string) []refs.Pin {
	r.ask(askPins, 0, "")
	return r.entryRepo.Pins(subject)
}

// The recorder must be a whole refs.Repo: a method of refs.Repo it does
// not wrap would be asked unnoted.
var _ refs.Repo = (*recorder)(nil)
