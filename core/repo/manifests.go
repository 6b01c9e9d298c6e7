package repo

import (
	"path"
	"slices"
	"strconv"
	"strings"
	"time"

	"github.com/memory-lsp/memory-lsp/core/refs"
	"github.com/memory-lsp/memory-lsp/core/store"
)

// manifestRead is one manifest file as read: its names, or not readable.
type manifestRead struct {
	m  refs.Manifest
	ok bool
}

// Manifest is tool's manifest in dir, looked for from the root, then from
// the top; each file is read once. File is shown from the root when it lies
// below it.
func (r *repo) Manifest(tool refs.Tool, dir string) (refs.Manifest, bool) {
	f, ok := r.manifestFile(tool, dir)
	if !ok {
		return refs.Manifest{}, false
	}
	read := r.manifestAt(tool, f)
	m := read.m
	if dir == "" && r.hasSubmodules() {
		// A repository with submodules holds Makefiles and scripts
		// the work tree may not have checked out, and an entry may
		// have cd'ed into one before the command it cites ("cd
		// evaluation; make run-rag", the second blind set's mem0):
		// a name the root's manifest lacks is no proof.
		m.Open = true
	}
	return m, read.ok
}

// manifestFile is the file (from the top) holding tool's manifest for dir:
// the first of its names found in dir from the root, then from the top.
func (r *repo) manifestFile(tool refs.Tool, dir string) (string, bool) {
	for _, folder := range r.manifestFolders(dir) {
		for _, name := range refs.ManifestNames(tool) {
			f := join(folder, name)
			if isDir, ok := r.p.Stat(f); ok && !isDir {
				return f, true
			}
		}
	}
	return "", false
}

// hasSubmodules reports whether the repository declares git submodules.
func (r *repo) hasSubmodules() bool {
	isDir, ok := r.p.Stat(".gitmodules")
	return ok && !isDir
}

// manifestFolders are the folders (from the top) a tool's manifest for dir
// is looked for in: dir from the root, then from the top.
func (r *repo) manifestFolders(dir string) []string {
	if dir != "" {
		return r.candidates(dir)
	}
	if r.rootRel == "" {
		return []string{""}
	}
	return []string{r.rootRel, ""}
}

// manifestAt is the manifest file f (from the top) of tool, read once.
func (r *repo) manifestAt(tool refs.Tool, f string) manifestRead {
	return r.manifests.get(f, func() manifestRead {
		src, err := r.p.ReadFile(f)
		if err != nil {
			return manifestRead{}
		}
		m, ok := refs.ParseManifest(tool, src)
		m.File = r.shown(f)
		return manifestRead{m, ok}
	})
}

// ManifestThen: the repository as a whole is not one entry's, and does not
// know when it was written (rules.JudgeEntry's view does, through
// ManifestAt).
func (r *repo) ManifestThen(refs.Tool, string) (refs.Manifest, bool) {
	return refs.Manifest{}, false
}

// RootHad: the same.
func (r *repo) RootHad(string) (bool, bool) { return false, false }

// RootAt is whether the root held name in the newest commit made before
// at; the root's listing is read once a commit.
func (r *repo) RootAt(name string, at time.Time) (isDir, ok bool) {
	commit := r.commitBefore(at)
	if commit == "" {
		return false, false
	}
	if r.ctx.Err() != nil {
		return false, false // not cached: a cancelled read is no answer
	}
	names := r.answers.rootsThen.get(commit, func() map[string]bool {
		n, _, _ := store.TreeAt(r.ctx, r.p.Top, r.rootRel, commit)
		return n
	})
	isDir, ok = names[name]
	return isDir, ok
}

// Committed: a path Judge could not find is one HEAD holds only when the
// index lost it since (the work tree keeps the index's files: Stat finds
// them), so what the index lost is read, once.
func (r *repo) Committed(p string) bool {
	p = strings.TrimSuffix(p, "/")
	if p == "" || !r.p.Git {
		return false
	}
	gone := r.stagedGone.get(func() map[string]bool {
		g, _ := store.StagedRemovals(r.ctx, r.p.Top)
		return g
	})
	for _, c := range r.candidates(p) {
		if gone[c] {
			return true
		}
	}
	return false
}

// commitBefore is the newest commit of HEAD's history made before at,
// asked once for a time, "" when there is none.
func (r *repo) commitBefore(at time.Time) string {
	return r.answers.commitsBefore.get(strconv.FormatInt(at.Unix(), 10), func() string {
		c, _ := r.p.CommitBefore(r.ctx, at)
		return c
	})
}

// ManifestAt is tool's manifest in dir as the newest commit made before at
// held it, looked for from the root then from the top as
// Manifest does; each (file, time) is read from the history once.
func (r *repo) ManifestAt(tool refs.Tool, dir string, at time.Time) (refs.Manifest, bool) {
	// One commit for the time, whichever manifest names are tried in it.
	commit := r.commitBefore(at)
	if commit == "" {
		return refs.Manifest{}, false
	}
	for _, folder := range r.manifestFolders(dir) {
		for _, name := range refs.ManifestNames(tool) {
			f := join(folder, name)
			read := r.answers.manifestsThen.get(tool.String()+"\x00"+f+"\x00"+commit, func() manifestRead {
				src, ok, err := store.FileAt(r.ctx, r.p.Top, f, commit, maxManifestThenBytes)
				if err != nil || !ok {
					return manifestRead{}
				}
				m, ok := refs.ParseManifest(tool, src)
				m.File = r.shown(f)
				return manifestRead{m, ok}
			})
			if read.ok {
				return read.m, true
			}
		}
	}
	return refs.Manifest{}, false
}

// lostNames are the names a manifest's history shows it lost.
type lostNames struct {
	// committed maps a name some commit removed to the newest such commit.
	committed map[string]refs.Move
	// head are the names HEAD's manifest lists: one the work tree's lacks
	// was removed since the last commit.
	head []string
}

// manifestVersionsRead and manifestHistoryBytes bound what ManifestLost
// reads of a manifest's history: its last few hundred changes, newest
// first, up to 4 MiB of versions (a Makefile's whole life; a package.json
// of thousands of scripts only its last dozens of changes).
const (
	manifestVersionsRead = 300
	manifestHistoryBytes = 4 << 20
)

// ManifestLost: tool's manifest in dir, found as Manifest finds it, read
// in HEAD and before each of its last changes (within the history depth),
// once a file.
func (r *repo) ManifestLost(tool refs.Tool, dir, name string) (refs.Move, bool) {
	if !r.p.Git || r.depth <= 0 {
		return refs.Move{}, false
	}
	f, ok := r.manifestFile(tool, dir)
	if !ok {
		return refs.Move{}, false
	}
	key := tool.String() + "\x00" + f
	lost := r.answers.manifestsLost.get(key, func() lostNames { return r.readLost(tool, f) })
	if r.ctx.Err() != nil {
		r.answers.manifestsLost.drop(key) // read cut short: the next asks again
		return refs.Move{}, false
	}
	if slices.Contains(lost.head, name) {
		return refs.Move{}, true
	}
	m, ok := lost.committed[name]
	return m, ok
}

// readLost walks f's versions from the newest: a name a version lists and
// the version after it lacks was removed by the commit between them. A
// version that cannot be read (over the size limit, or not valid: a
// package.json a commit broke) is passed over, and a removal found across
// it is the newest passed-over commit's: the one that broke the file may
// have kept the name (a red team's).
func (r *repo) readLost(tool refs.Tool, f string) lostNames {
	h, err := r.p.History(r.ctx, f, min(r.depth, manifestVersionsRead), maxManifestThenBytes, manifestHistoryBytes)
	if err != nil {
		return lostNames{}
	}
	names := func(src []byte) ([]string, bool) {
		if src == nil {
			return nil, true // no file: no names
		}
		m, ok := refs.ParseManifest(tool, src)
		return m.Names, ok
	}
	head, _ := names(h.Head)
	lost := lostNames{committed: map[string]refs.Move{}, head: head}
	after := lost.head
	var passed *refs.Move // the newest change passed over since after was read
	for _, c := range h.Changes {
		before, ok := names(c.Before)
		if !ok || c.Unread {
			if passed == nil {
				passed = &refs.Move{Commit: c.Commit, When: c.When}
			}
			continue
		}
		by := refs.Move{Commit: c.Commit, When: c.When}
		if passed != nil {
			by, passed = *passed, nil
		}
		for _, n := range before {
			if _, seen := lost.committed[n]; !seen && !slices.Contains(after, n) {
				lost.committed[n] = by
			}
		}
		after = before
	}
	return lost
}

// maxManifestThenBytes bounds a manifest read from the history: a larger
// blob is no manifest a person keeps.
const maxManifestThenBytes = 1 << 20

// maxManifestsBelow bounds the manifests ListedBelow reads: in a
// repository of more subprojects than that, a name the root's manifest
// lacks is taken for some subproject's without reading them all.
const maxManifestsBelow = 200

// ListedBelow: the manifests of tool in the folders below the workspace
// root, found in the project's file list once per tool and each read once.
func (r *repo) ListedBelow(tool refs.Tool, name string) bool {
	files := r.manifestsBelow.get(tool.String(), func() []string {
		var out []string
		prefix := ""
		if r.rootRel != "" {
			prefix = r.rootRel + "/"
		}
		names := refs.ManifestNames(tool)
		i, _ := slices.BinarySearch(r.p.Files, prefix)
		for ; i < len(r.p.Files) && strings.HasPrefix(r.p.Files[i], prefix); i++ {
			f := r.p.Files[i]
			if rest := f[len(prefix):]; strings.Contains(rest, "/") && slices.Contains(names, path.Base(f)) {
				out = append(out, f)
			}
		}
		return out
	})
	if len(files) > maxManifestsBelow {
		return true
	}
	for _, f := range files {
		if read := r.manifestAt(tool, f); read.ok && slices.Contains(read.m.Names, name) {
			return true
		}
	}
	return false
}

// Pins are what the pin files directly in the root, then directly in the
// top, state for subject; where they state nothing of it, what the pin files
// of the subprojects below the root state (a monorepo pins Vite in
// web/package.json, not at its root), and where those are silent too, what
// the CI workflows pin (golangci-lint's version, a test matrix's runtimes).
// Judge weighs each set the same way: a version drifts only when it
// contradicts every pin. The files are read once, on the first call.
func (r *repo) Pins(subject string) []refs.Pin {
	sets := r.pins.get(r.readPins)
	for _, ps := range []map[string][]refs.Pin{sets.root, sets.below, sets.ci} {
		if len(ps[subject]) > 0 {
			return ps[subject]
		}
	}
	return nil
}

// pinSets are the pins Pins chooses from, by subject: the root's and the
// top's, the subprojects', the CI workflows'.
type pinSets struct{ root, below, ci map[string][]refs.Pin }

// maxPinFilesBelow bounds the subprojects' pin files Pins reads: past it,
// the subprojects are taken to say nothing (silence, not a guess).
const maxPinFilesBelow = 200

func (r *repo) readPins() pinSets {
	sets := pinSets{root: map[string][]refs.Pin{}, below: map[string][]refs.Pin{}, ci: map[string][]refs.Pin{}}
	for _, f := range r.filesIn(".github/workflows") {
		if refs.WorkflowFile(f) {
			r.readPinsWith(f, sets.ci, refs.ParseWorkflowPins)
		}
	}
	folders := []string{r.rootRel}
	if r.rootRel != "" {
		folders = append(folders, "")
	}
	for _, folder := range folders {
		for _, f := range r.filesIn(folder) {
			if refs.PinFile(path.Base(f)) {
				r.readPinsWith(f, sets.root, refs.ParsePins)
			}
		}
	}
	below := r.pinFilesBelow()
	if len(below) <= maxPinFilesBelow {
		for _, f := range below {
			r.readPinsWith(f, sets.below, refs.ParsePins)
		}
	}
	return sets
}

// readPinsWith adds what parse reads in the file f (from the top) to into.
func (r *repo) readPinsWith(f string, into map[string][]refs.Pin, parse func(string, []byte) []refs.Pinned) {
	src, err := r.p.ReadFile(f)
	if err != nil {
		return
	}
	for _, p := range parse(r.shown(f), src) {
		into[p.Subject] = append(into[p.Subject], p.Pin)
	}
}

// pinFilesBelow are the pin files in the folders below the root (from the
// top), leaving out test data and vendored code: a fixture's package.json
// pins what a test needs, not what the project runs.
func (r *repo) pinFilesBelow() []string {
	prefix := ""
	if r.rootRel != "" {
		prefix = r.rootRel + "/"
	}
	var out []string
	i, _ := slices.BinarySearch(r.p.Files, prefix)
	for ; i < len(r.p.Files) && strings.HasPrefix(r.p.Files[i], prefix); i++ {
		f := r.p.Files[i]
		rest := f[len(prefix):]
		if strings.Contains(rest, "/") && refs.PinFile(path.Base(f)) && !notTheProject(rest) {
			out = append(out, f)
		}
	}
	return out
}

// notTheProject reports whether a path lies in a folder of test data,
// fixtures or vendored code.
func notTheProject(rel string) bool {
	for _, d := range strings.Split(path.Dir(rel), "/") {
		switch strings.ToLower(d) {
		case "testdata", "fixtures", "__fixtures__", "fixture", "vendor", "third_party", "third-party", "node_modules":
			return true
		}
	}
	return false
}

// filesIn lists the files directly in folder (top-relative, "" for the
// top), from the sorted list of the project's files.
func (r *repo) filesIn(folder string) []string {
	files := r.p.Files
	if folder == "" {
		var out []string
		for _, f := range files {
			if !strings.Contains(f, "/") {
				out = append(out, f)
			}
		}
		return out
	}
	prefix := folder + "/"
	i, _ := slices.BinarySearch(files, prefix)
	var out []string
	for ; i < len(files) && strings.HasPrefix(files[i], prefix); i++ {
		if !strings.Contains(files[i][len(prefix):], "/") {
			out = append(out, files[i])
		}
	}
	return out
}

func join(dir, name string) string {
	if dir == "" {
		return name
	}
	return dir + "/" + name
}
