package refs

import "time"

// Repo is what Judge needs to know about the repository an entry lives in.
// Every path is slash-separated and relative to the workspace root (the
// folder that holds .memory/); an implementation also resolves it from the
// git top level when the two differ.
type Repo interface {
	// HasCode reports whether the root holds anything besides .memory/.
	// When it does not, there is nothing to check against and every
	// verdict is Silent.
	HasCode() bool
	// Stat reports whether path exists (tracked, or present and not
	// ignored) and whether it is a folder.
	Stat(path string) (isDir, ok bool)
	// Endings counts the files and folders whose path is path or ends
	// with "/" + path, up to 2 (two or more): a bare `session.ts` or an
	// abbreviated `math/irrep.ts` names a file that lives deeper, and one
	// such file is a more specific reading than several.
	Endings(path string) int
	// Ignored reports whether the repository ignores path (.gitignore):
	// such paths are built or local (dist/, node_modules/, .env), so their
	// absence says nothing. A path whose first folder a subproject ignores
	// (`dist/x.js` with web/.gitignore's dist/) counts: it may be that
	// subproject's build.
	Ignored(path string) bool
	// Manifest returns the file in dir ("" for the root) that lists the
	// names tool runs: Makefile targets, package.json scripts, justfile
	// recipes, Taskfile tasks. ok is false when there is none or it cannot
	// be read.
	Manifest(tool Tool, dir string) (m Manifest, ok bool)
	// ListedBelow reports whether the manifest of tool in some folder
	// below the root (not the root's own) lists name: an entry that runs,
	// without naming a folder, a name the root's manifest lacks may mean
	// a subproject's (`npm run lint` for web/package.json's lint), as an
	// entry may name a file by its last folders.
	ListedBelow(tool Tool, name string) bool
	// ManifestThen is tool's manifest in dir ("" for the root) as it was
	// when the entry being judged was last written (committed): a name the
	// root's manifest listed then and lacks now was renamed or removed
	// there, even when a subproject lists it. ok is false when that is not
	// known: outside git, a line not committed, no manifest then, or a Repo
	// not given for one entry.
	ManifestThen(tool Tool, dir string) (m Manifest, ok bool)
	// ManifestLost reports whether the history shows tool's manifest in
	// dir ("" for the root) listing name, which it lacks now: the newest
	// commit that removed it (Commit and When; Commit "" when HEAD still
	// lists it and the work tree removed it). ok is false when no version
	// read listed it, or outside git: a name the project never had is as
	// often another repository's or a generic checklist's as a slip.
	ManifestLost(tool Tool, dir, name string) (Move, bool)
	// RootHad reports whether the root held name (one element, no slash),
	// and whether as a folder, in the newest commit made before the entry
	// being judged was last written: what its author saw. ok is false when
	// it did not, or when that is not known (outside git, a line not
	// committed, a Repo not given for one entry).
	RootHad(name string) (isDir, ok bool)
	// Committed reports whether the newest commit holds path, as a file
	// or a folder, that the index has lost since (a `git mv` or `git rm`
	// not committed yet): it was the repository's, though no history
	// records its going. Judge asks only of a path Stat does not find.
	Committed(path string) bool
	// Children lists the names of the files and folders in the folder
	// dir ("" for the root), nil when there is no such folder.
	Children(dir string) []string
	// Stem reports whether a file exists whose path is path and an
	// extension (`lib/utils` for lib/utils.ts): code cites a module so.
	Stem(path string) bool
	// Moved returns what the repository's history says of a path that no
	// longer exists: the path it was renamed to ("" when it was deleted)
	// and the commit. For a path without a slash, the latest removal of
	// any file or folder of that name counts. ok is false when the history never held the path,
	// or was not read (no git, or beyond the depth read). A Repo given to
	// Judge for one entry (it knows when the entry's line was last
	// written) sets Move.Before.
	Moved(path string) (m Move, ok bool)
	// Pins returns every version the manifests pin for subject (a Ref's
	// Subject): .nvmrc, .node-version, package.json engines and
	// dependencies, .tool-versions, go.mod, .python-version,
	// pyproject.toml, rust-toolchain.toml, Cargo.toml, Dockerfile FROM,
	// compose images.
	Pins(subject string) []Pin
}

// Move is where a path went.
type Move struct {
	// When is the commit's time; Before is judged by it.
	When time.Time
	// To is the path it was renamed or moved to, "" when it was deleted.
	To string
	// Commit is the commit that renamed or deleted it.
	Commit string
	// Before says the path was already gone when the entry citing it was
	// last written.
	Before bool
	// ByName says the history does not know the cited path itself: this is
	// the latest removal of a file or folder of its name somewhere (a bare
	// name, Repo.Moved).
	ByName bool
}

// Manifest is the file that lists a tool's names.
type Manifest struct {
	// File is the manifest's path ("Makefile", "web/package.json").
	File string
	// Names are the targets, scripts, recipes or tasks it lists.
	Names []string
	// Open says the tool may run names the manifest does not list (a
	// pattern rule or include in a Makefile, an import in a justfile or
	// Taskfile): a missing name is then no proof of a stale command.
	Open bool
	// Lines are the 1-based lines the names are defined on, in Names'
	// order (0 when unknown), so that an editor can open the manifest
	// at a cited target.
	Lines []int
}

// Pin is one version a manifest states.
type Pin struct {
	// Value is the version as the manifest writes it: "22", "v22.3.0",
	// ">=18 <21", "^18.2.0", "~=3.10", "16-alpine".
	Value string
	// File and Line locate it (Line 1-based, 0 when unknown).
	File string
	Line int
	// Bare is how a Value without an operator reads: Exact for a version
	// file (.nvmrc 22 is every 22.*), AtLeast for go.mod's go line (the
	// least version the module accepts), Caret for Cargo.toml.
	Bare Op
}
