package refs

import (
	"path"
	"slices"
	"strings"
)

// Status is what Judge concludes about a reference.
type Status uint8

const (
	// Silent: nothing to judge against (no code beside .memory/, an
	// ignored path, no manifest, no pin, a pin it cannot read), or the
	// evidence is not proof (a Makefile with pattern rules).
	Silent Status = iota
	// Holds: the path exists, the command's name is listed, the version
	// agrees with what the manifests pin.
	Holds
	// Stale: the path does not exist, or the command's name is not listed.
	Stale
	// Drift: the stated version contradicts every applicable pin.
	Drift
)

var statusNames = [...]string{Silent: "silent", Holds: "holds", Stale: "stale", Drift: "drift"}

func (s Status) String() string {
	if int(s) < len(statusNames) {
		return statusNames[s]
	}
	return "unknown"
}

// Verdict is Judge's conclusion with what it found instead.
type Verdict struct {
	Status Status
	// Elsewhere says a path that is not at the root ends an existing path
	// (`session.ts` for src/auth/session.ts, `math/irrep.ts` for
	// src/math/irrep.ts) (Holds, Kind Path).
	Elsewhere bool
	// Moved is what the history says of a stale path, when it knows
	// (Stale, Kind Path).
	Moved *Move
	// Unseen says the history never had the stale path: nothing shows
	// that this repository ever held it (Stale, Kind Path). Such a path is
	// as often another repository's, a file to be made, a folder the
	// tooling fills or an example as a pointer that went wrong, and words
	// cannot tell which (issue 27).
	Unseen bool
	// File is the manifest a command was looked up in (Kind Command), or
	// the file of the pin a version contradicts (Drift).
	File string
	// Near are the closest names the manifest does list, nearest first, at
	// most three (Stale, Kind Command); for a path, the one existing path
	// it is a slip of (Stale, Kind Path).
	Near []string
	// NoDir says the folder the command runs in does not exist (Stale, Kind Command).
	NoDir bool
	// Dropped says the manifest listed the name when the entry was
	// written, and a subproject that lists it now does not excuse its
	// absence (Stale, Kind Command).
	Dropped bool
	// Lost is the commit the history shows removing the name from the
	// manifest (Stale, Kind Command; nil when no version read listed it).
	Lost *Move
	// Pin is the pin the stated version contradicts (Drift).
	Pin Pin
	// Replace is the stated version rewritten to what the pin admits,
	// written with as many parts as the entry wrote ("18" → "22"), ""
	// when the pin has no least version (Drift).
	Replace string
}

// Judge checks one reference against the repository.
func Judge(ref Ref, repo Repo) Verdict {
	if repo == nil || !repo.HasCode() {
		return Verdict{}
	}
	switch ref.Kind {
	case Path:
		return judgePath(ref, repo)
	case Command:
		return judgeCommand(ref, repo)
	case Version:
		return judgeVersion(ref, repo)
	}
	return Verdict{}
}

// JudgeAll judges the references one entry cites, as Judge does each,
// and then reads releases written as alternatives together: "Pydantic
// v1/v2 shims", ".NET 8/.NET 9" say either works, so where the pins hold
// one of them the others are silent. Releases listed apart ("Node 18,
// Node 20 and Node 22", "Use Node 18, not Node 20") are judged each on its
// own: a matrix that still names a release the project dropped is stale.
func JudgeAll(rs []Ref, repo Repo) []Verdict {
	out := make([]Verdict, len(rs))
	for i, r := range rs {
		out[i] = Judge(r, repo)
	}
	for start := 0; start < len(rs); {
		end := start + 1 // rs[start:end]: a version and its alternatives
		for end < len(rs) && rs[end].Alt && rs[end].Subject == rs[start].Subject {
			end++
		}
		held := false
		for k := start; k < end; k++ {
			held = held || rs[k].Kind == Version && out[k].Status == Holds
		}
		for k := start; k < end && held && end-start > 1; k++ {
			if out[k].Status == Drift {
				out[k] = Verdict{}
			}
		}
		start = end
	}
	return out
}

// judgePath: a path holds when it exists from the root, or when it ends an
// existing path (an entry may name a file by its name or by its last
// folders) that is not where the history shows the cited path itself went.
// An ignored path is built or local, so its absence proves nothing; nor does
// the absence of a path the entry itself speaks of as removed or replaced
// (Ref.Gone). A missing path with a slash is stale, even when its last
// element exists elsewhere: the file moved, and the entry points to where it
// was — and so is one that was already gone when the entry was written: the
// entry was wrong from the start, and an agent reading it acts on it all the
// same. One the history never had, nor any folder above it, nor the newest
// commit (a move not committed yet), is stale and Unseen. A missing bare name (`home.js`, `docs/`) is stale only when the
// history shows the repository lost it after the entry was written:
// otherwise it may name a file of a user's upload, of another machine or of
// a generated artifact, and a warning would be wrong more often than right.
// So is the argument of a command line the entry shows (Ref.Arg), as often
// an example of a call as a file that exists, and a path an entry about
// URL routes cites without an extension (Ref.Route).
func judgePath(ref Ref, repo Repo) Verdict {
	if ref.Path == "" {
		return Verdict{}
	}
	if _, ok := repo.Stat(ref.Path); ok {
		return Verdict{Status: Holds}
	}
	if siblingShorthand(ref.Path, repo) {
		return Verdict{} // rewrite-groovy/kotlin/javascript: three modules
	}
	if ref.Soft && !rootFolder(repo, ref.Path) {
		return Verdict{}
	}
	if !ref.Dir && !hasExtension(path.Base(ref.Path)) && repo.Stem(ref.Path) {
		return Verdict{Status: Holds} // a module: `lib/utils` for lib/utils.ts
	}
	if ref.Gone || repo.Ignored(ref.Path) {
		return Verdict{}
	}
	bare := !strings.Contains(ref.Path, "/")
	if ref.Soft && bare {
		// A word the root had as a folder when the entry was written
		// (rootFolder), gone from the root since: the entry named it
		// (`parser` - SQL parser, the crate since moved to sqlite/parser),
		// unless the history dates its removal before the entry, which
		// may speak of it.
		m, known := repo.Moved(ref.Path)
		if known && m.Before {
			return Verdict{}
		}
		return Verdict{Status: Stale, Moved: movedItself(m)}
	}
	if n := repo.Endings(ref.Path); n > 0 {
		// Unless the history shows this very path moving away after the
		// entry was written: the entry cited it from the root, where it was
		// then, and the file now deeper is where it went
		// (src/server/mcp.ts → packages/server/src/server/mcp.ts). A bare
		// name is read so only when one other file or folder has it (a root
		// `references/` deleted while ai/references/ stays): a name found in
		// many places (a library's `pyproject.toml`, a package's `src/`) may
		// be meant of any of them. One the history knows only as some other
		// file's stays ambiguous.
		m, known := repo.Moved(ref.Path)
		if known && !m.Before && !m.ByName && (!bare || n == 1) {
			return Verdict{Status: Stale, Moved: &m}
		}
		// A bare name the root held when the entry was written, and a
		// file or folder of that name was removed since: the entry meant
		// the root's (the root `parser/` crate, now sqlite/parser; `src/`
		// renamed to fastmcp_slim/ while tests keep a src/). A removal
		// dated with the entry or before is one it may speak of.
		if bare && known && !m.Before && !ref.Arg && !ref.Route {
			if _, had := repo.RootHad(ref.Path); had {
				return Verdict{Status: Stale, Moved: movedItself(m)}
			}
		}
		return Verdict{Status: Holds, Elsewhere: true}
	}
	m, known := repo.Moved(ref.Path)
	if (bare || ref.Route || ref.Arg) && (!known || m.Before) {
		return Verdict{}
	}
	v := Verdict{Status: Stale, Unseen: !known && !folderGone(repo, ref.Path) && !repo.Committed(ref.Path)}
	if known {
		v.Moved = &m
	}
	if v.Unseen {
		// A slip of the pen: the path is a folder's file or folder written
		// with another case or one letter off (`src/auth/sesion.ts` beside
		// session.ts). Nothing else is so plainly a pointer that went wrong.
		if near, ok := slipOf(ref.Path, repo); ok {
			v.Unseen, v.Near = false, []string{near}
		}
	}
	return v
}

// slipMin is the shortest name (without its extension) that one edit is
// taken for a slip in: two short names one letter apart (`api.ts`,
// `app.ts`) are as often two things.
const slipMin = 6

func stemLen(name string) int { return len(strings.TrimSuffix(name, path.Ext(name))) }

// slipOf is the existing path p, a missing one, means when one of its elements is a name
// of its folder in another case, or one edit off a name at least slipMin
// long, and that name is the only such one there; the rest of p must
// exist under it.
func slipOf(p string, repo Repo) (string, bool) {
	dir := strings.TrimSuffix(p, "/")
	parts := strings.Split(dir, "/")
	for i, name := range parts {
		at := strings.Join(parts[:i], "/")
		// p itself is missing (the caller asked): only the folders above
		// it are asked of the file system
		if i < len(parts)-1 {
			if _, ok := repo.Stat(path.Join(at, name)); ok {
				continue
			}
		}
		var found []string
		long := stemLen(name) >= slipMin
		for _, k := range repo.Children(at) {
			if strings.EqualFold(k, name) || long && oneEditApart(k, name) && stemLen(k) >= slipMin {
				found = append(found, k)
			}
		}
		if len(found) != 1 {
			return "", false
		}
		near := path.Join(append(append(append([]string{}, parts[:i]...), found[0]), parts[i+1:]...)...)
		if _, ok := repo.Stat(near); !ok {
			return "", false
		}
		if strings.HasSuffix(p, "/") {
			near += "/"
		}
		return near, true
	}
	return "", false
}

// oneEditApart reports whether a and b are one byte's insertion, deletion
// or change apart (editDistance(a, b) == 1), without editDistance's table:
// slipOf asks it of every name of a folder for every missing path cited
// under it, 10 million times for 10,000 entries under a folder of 1,000.
func oneEditApart(a, b string) bool {
	if len(a) > len(b) {
		a, b = b, a
	}
	if len(b)-len(a) > 1 {
		return false
	}
	i := 0
	for i < len(a) && a[i] == b[i] {
		i++
	}
	if len(a) == len(b) {
		return i < len(a) && a[i+1:] == b[i+1:]
	}
	return a[i:] == b[i+1:]
}

// folderGone reports whether the history saw a folder above p go: p was
// then likely among what it held (`references/hello-world` under a root
// `references/` deleted since), though no move of p itself was recorded.
// A name the history knows only as some other file's says nothing.
func folderGone(repo Repo, p string) bool {
	for dir := path.Dir(strings.TrimSuffix(p, "/")); dir != "." && dir != "/"; dir = path.Dir(dir) {
		if m, known := repo.Moved(dir); known && !m.ByName {
			return true
		}
	}
	return false
}

// siblingShorthand reports whether p names several folders in shorthand,
// the words after a slash completing the stem of the last folder that
// exists: "rewrite-json/yaml/xml" for rewrite-json, rewrite-yaml and
// rewrite-xml. It holds when the path stops existing right after a folder
// whose name has a stem ("rewrite-", "plugin_") and the stem with the next
// word is a folder beside it.
func siblingShorthand(p string, repo Repo) bool {
	segs := strings.Split(p, "/")
	if !slices.ContainsFunc(segs[:len(segs)-1], func(s string) bool { return strings.ContainsAny(s, "-_") }) {
		return false // no stem to complete: nothing to ask the repository
	}
	for k := 0; k+1 < len(segs); k++ {
		here := strings.Join(segs[:k+1], "/")
		if _, ok := repo.Stat(here); !ok {
			return false
		}
		if _, ok := repo.Stat(here + "/" + segs[k+1]); ok {
			continue
		}
		seg := segs[k]
		cut := strings.LastIndexAny(seg, "-_")
		next := segs[k+1]
		if cut <= 0 || next == "" || strings.ContainsAny(next, ".") {
			return false
		}
		sibling := seg[:cut+1] + next
		if k > 0 {
			sibling = strings.Join(segs[:k], "/") + "/" + sibling
		}
		_, ok := repo.Stat(sibling)
		return ok
	}
	return false
}

// rootFolder reports whether the first element of p is a folder at the
// root, or was one when the entry was written: what makes a Soft reference
// one of this repository.
func rootFolder(repo Repo, p string) bool {
	first, _, _ := strings.Cut(p, "/")
	if isDir, ok := repo.Stat(first); ok {
		return isDir
	}
	// A folder the root had and has no longer is one the history saw go:
	// without that, the root's past (a blame and a git run per commit the
	// entries were written in) is not worth asking.
	if _, known := repo.Moved(first); !known {
		return false
	}
	isDir, ok := repo.RootHad(first)
	return ok && isDir
}

// movedItself is the history's move of a bare name when it is the name's
// own (not the latest removal of some other file of that name), nil when
// the history has nothing to say of it.
func movedItself(m Move) *Move {
	if m.Commit == "" || m.ByName {
		return nil
	}
	return &m
}

// judgeCommand looks the target up in the manifest of the folder the
// command runs in. No manifest there is no proof: the entry may mean a
// folder it does not name; nor is a root manifest that lacks a name a
// subproject's manifest lists (a thin root package.json that runs
// `cd web && npm run dev`, and an entry that says `npm run lint`) — unless
// the root's manifest listed it when the entry was written: the entry meant
// the root's, which has lost it since (`build` renamed to `build:all` when
// the repository became a monorepo of packages that each have a build).
func judgeCommand(ref Ref, repo Repo) Verdict {
	if ref.In != "" {
		if repo.Ignored(ref.In) {
			return Verdict{}
		}
		if isDir, ok := repo.Stat(ref.In); !ok || !isDir {
			v := Verdict{Status: Stale, NoDir: true}
			if m, ok := repo.Moved(ref.In); ok {
				v.Moved = &m
			}
			return v
		}
	}
	m, ok := repo.Manifest(ref.Tool, ref.In)
	if !ok {
		return Verdict{}
	}
	v := Verdict{File: m.File}
	for _, n := range m.Names {
		if n == ref.Target {
			v.Status = Holds
			return v
		}
	}
	switch {
	case m.Open:
		return v
	case ref.In == "" && repo.ListedBelow(ref.Tool, ref.Target):
		if !listedThen(repo, ref) {
			return v // a subproject's name, run in a folder the entry does not name
		}
		v.Dropped = true
	case ref.Tool == Npm && ref.Target == "start":
		// npm start without a start script runs `node server.js`.
		if _, ok := repo.Stat(join(ref.In, "server.js")); ok {
			v.Status = Holds
			return v
		}
	case ref.Implicit && (packageBinaries[ref.Target] || len(repo.Pins(ref.Target)) > 0):
		return v // a binary the dependencies install
	}
	v.Status = Stale
	v.Near = nearest(ref.Target, m.Names, 3)
	if !v.Dropped {
		if lost, ok := repo.ManifestLost(ref.Tool, ref.In, ref.Target); ok {
			v.Lost = &lost
		}
	}
	return v
}

// listedThen reports whether the root's manifest listed ref's target when
// the entry was written.
func listedThen(repo Repo, ref Ref) bool {
	m, ok := repo.ManifestThen(ref.Tool, ref.In)
	return ok && slices.Contains(m.Names, ref.Target)
}

func join(dir, name string) string {
	if dir == "" {
		return name
	}
	return dir + "/" + name
}

// packageBinaries are commands that dependencies install under
// node_modules/.bin and that `yarn x`, `pnpm x` and `bun run x` run when no
// script has that name.
var packageBinaries = set(
	"tsc", "eslint", "prettier", "jest", "vitest", "vite", "next", "nuxt", "tsx",
	"ts-node", "prisma", "playwright", "webpack", "rollup", "turbo", "nx", "lerna",
	"changeset", "biome", "knip", "drizzle-kit", "astro", "svelte-kit", "remix",
	"expo", "react-native", "electron", "electron-builder", "storybook", "cypress",
	"mocha", "ava", "nodemon", "concurrently", "husky", "lint-staged", "tailwindcss",
	"postcss", "esbuild", "tsup", "ng", "node", "stylelint", "oxlint", "wrangler",
	"vercel", "netlify", "firebase", "supabase", "serve", "http-server", "rimraf",
)

// judgeVersion compares the stated version with the pins. Version files
// and exact pins say what the project runs, so when there are any, only
// they count; otherwise the ranges do (engines, requires-python, a
// dependency's "^18.2.0"). The statement drifts only when it contradicts
// every pin that counts.
func judgeVersion(ref Ref, repo Repo) Verdict {
	stated, ok := parseSemver(ref.Version)
	if !ok {
		return Verdict{}
	}
	statedIv := bounded(ref.Op, stated)
	type reading struct {
		pin Pin
		c   constraint
	}
	var exact, ranges []reading
	pins := repo.Pins(ref.Subject)
	if len(pins) == 0 && ref.Compound {
		// the subject after the name's first word, which holds no "-"
		pins = repo.Pins(ref.Subject[strings.IndexByte(ref.Subject, '-')+1:])
	}
	for _, p := range pins {
		c, ok := parseConstraint(p.Value, p.Bare)
		if !ok {
			continue
		}
		if concrete(p) {
			exact = append(exact, reading{p, c})
		} else {
			ranges = append(ranges, reading{p, c})
		}
	}
	counted := exact
	if len(counted) == 0 {
		counted = ranges
	}
	if len(counted) == 0 {
		return Verdict{}
	}
	for _, r := range counted {
		if !contradicts(ref.Op, statedIv, r.c) && !(len(exact) == 0 && !ref.Aside && lowersMinimum(ref.Op, stated, r.c)) {
			return Verdict{Status: Holds}
		}
	}
	first := counted[0]
	v := Verdict{Status: Drift, Pin: first.pin, File: first.pin.File}
	// The least version the pin admits (its newest alternative's), written
	// with as many parts as the entry wrote.
	var least *semver
	for i := range first.c {
		if iv := first.c[i]; iv.hasLo && (least == nil || least.less(iv.lo)) {
			least = &first.c[i].lo
		}
	}
	if least != nil {
		w := *least
		w.n = stated.n
		if r := w.String(); r != ref.Version {
			v.Replace = r
		}
	}
	return v
}

// lowersMinimum reports whether a stated lower bound admits versions below
// the least a range pin admits, compared with as many parts as the entry
// wrote: where the manifests state no exact version, their ranges say what
// the project supports, and "Node.js >= 18" with engines ">=20" claims
// support the project dropped, while "React 18+" with "^18.2.0" agrees.
func lowersMinimum(op Op, stated semver, pin constraint) bool {
	if op != AtLeast && op != Above {
		return false
	}
	for _, iv := range pin {
		if !iv.hasLo {
			return false
		}
		lo := iv.lo
		for i := stated.n; i < len(lo.v); i++ {
			lo.v[i] = 0
		}
		if !stated.less(lo) {
			return false
		}
	}
	return len(pin) > 0
}

// contradicts decides whether a statement and a pin disagree. An exact,
// caret or tilde statement ("Node 18", "^18") disagrees with a pin that
// admits none of its versions. A lower bound ("18 or newer", ">=18",
// "18+") disagrees only with a pin that lies wholly below it, an upper
// bound only with one wholly above: "Node 18 or newer" with .nvmrc 22 is
// true.
func contradicts(op Op, stated interval, pin constraint) bool {
	for _, iv := range pin {
		switch op {
		case AtLeast, Above:
			if !iv.hasHi || stated.lo.less(iv.hi) {
				return false
			}
		case AtMost, Below:
			if iv.lo.less(stated.hi) {
				return false
			}
		default:
			if _, ok := stated.intersect(iv); ok {
				return false
			}
		}
	}
	return true
}
