// Package refs finds, in one memory entry's text, the references to the
// repository the memory belongs to — paths, commands, versions — and judges
// them against an abstract view of that repository (Repo), so that memory
// which was true when written can be flagged once the code moved on.
//
// It is pure: no disk, no git. The repository view is an interface the
// caller implements (core/store will); refstest has a map-backed one.
//
// # Precision over recall
//
// A false warning on a true entry teaches users to switch the rule off; a
// missed reference costs one warning that was never given. Every rule below
// leans that way: when a piece of text might be a reference or might be
// prose, it is prose; when the repository gives no proof, the verdict is
// Silent.
//
// # What counts as a path
//
// Text is read in two places: code spans (`…`) and prose. A token is a run
// of letters, digits and path punctuation; whitespace, quotes, brackets,
// commas, arrows and CJK punctuation end it. A sentence's closing "." or
// ":" and Markdown emphasis are trimmed; an ellipsis is not (it marks a
// placeholder). A token is a path when it names a file of this repository
// and nothing else:
//
//   - a name with a known file extension (`session.ts`, `go.mod`,
//     `ET.Transfer.psm1:75-110`), a well-known extensionless file
//     (Makefile, Dockerfile, Justfile), or a dotfile worth checking
//     (`.gitignore`, `.env.example`, `.htaccessprod`, `.github`, `.agents`);
//   - a slashed path ending in one of those, or in a slash (`docs/adr/`), or
//     starting with "./" or a dot-folder (`.github/workflows`);
//   - otherwise, slashed names only when the first folder is a usual
//     top-level one: in prose `src/auth`, `docs/x`, `cmd/x` (slashes in prose
//     are mostly "and/or", "CI/CD", "client/server"); in a code span of its
//     own also `server/x`, `web/x`, … or three parts (`a/b/c`). Two bare
//     names in a code span (`owner/repo`, `web_html/create`) are not enough.
//
// A cited line (`main.go:42`, `main.go:42:7`, `main.go#L42`) is kept apart.
//
// Never a path: URLs and hosts (`github.com/…`, `golang.org/x/…`, `docs.rs`),
// absolute, `~`, `$VAR` and Windows paths, anything leaving the root (`..`),
// globs (`*.tmp`, `src/**`, `v*.*.*`), placeholders (`<name>`, `{id}`, `...`,
// `…`, a lone capital `projects/X/`, `path/to/x.ts`), bare extensions
// (`.md`, `.ps1/.psm1`), branch names and prefixes (`feature/x`; in an entry that lists `feat/` or
// `fix/`, every single folder is taken for a prefix), remotes and refs
// (`origin/main`), media types (`application/json`), platforms
// (`linux/amd64`), scoped packages (`@ai-sdk/openai`), git's own files
// (`.git/hooks`), alternatives (`Database.php/bootstrap.php`), numbers and
// dates (`1/2`, `24/7`), library names that read like files (`three.js`,
// `Node.js`, `llama.cpp`), object members (`process.env`) and calls
// (`playTone()`), and files a command writes (`> src/types.ts`, `-o dist/`).
// Ignored paths (`dist/`, `node_modules/`, `.env`) are
// found but judged Silent.
//
// # What counts as a command
//
// In a code span: `make T…`, `npm run S`, `npm test|start`, `pnpm [run] S`,
// `yarn [run] S`, `bun run S`, `just R`, `task T…`, with the folder from a
// `cd dir &&`, `make -C dir`, `npm --prefix dir`, `pnpm -C dir`, `yarn
// --cwd dir`, `task -d dir`, or a following "in `dir/`". A command that runs
// something Judge cannot resolve gives nothing: another Makefile (`-f`),
// workspace filters (`--filter`, `-w pkg`), built-in subcommands (`pnpm
// add`, `bun test`), files (`bun run src/x.ts`), placeholders and variables.
// In prose only the forms that cannot be English count — the package
// managers with "run", `npm test`, `npm start` — never "make sure", "just
// run it" or "the task runs".
//
// # What counts as a version
//
// A runtime, dependency, tool or image name followed by a version: "Node
// 18", "Node.js 20+", "Python >= 3.10", "at least Go 1.22", "React 19",
// "node 18 or newer", "TypeScript ^5.4"; `react@18.2.0`, `@types/node@20`;
// Go's `go1.22` and `python3.11`; images `postgres:16-alpine` (official
// names, or `org/app:1.4` in a code span); and any name before a
// three-part version ("CodeMirror 5.65.2"). Names that are also words need
// more than a whole number: "go 2 levels up", "Node 2 links to node 3" and
// "Rust 2021" are not versions; "Go 1.22", "Node 18", "Rust 1.75" are. Ports
// (`redis:6379`), document numbers ("ET-IFC-001 v1.0.0") and standards
// ("WCAG 2.1", "TLS 1.3") are not.
//
// # Judging
//
// Judge is Silent whenever the root holds nothing but .memory/. A path
// holds when it exists from the root or ends an existing path (`irrep.ts`,
// `math/irrep.ts`) — but a path with a slash that the history shows moved
// away after the entry was written is Stale even when it ends the path it
// went to (`src/server/mcp.ts`, now packages/server/src/server/mcp.ts); an
// ignored path is Silent. A missing path with a slash is
// Stale, even when its last element exists elsewhere (the file moved and the
// entry points to where it was); the history, when known, says where it
// went. A missing bare name is Stale only when the history shows the
// repository had it: otherwise it may be a file of a user's upload or of
// another machine, or when it was already gone when the entry was written
// (it then names something else). A path with a slash that was already gone
// when the entry was written is Stale too: the entry was wrong from the start.
// A missing path the entry itself speaks of as removed, renamed or replaced
// ("no more `index.html`", "`old.js` was replaced by `new.js`") agrees with
// it: Silent (a path right after "to", "by", "with" is where it went, and is
// judged). So is a missing path without an extension in an entry that
// speaks of routes, redirects, URLs or endpoints, unless the history had it:
// "the browser redirects to `backend/auth/google`" names a URL route.
//
// A command holds when the manifest of its folder lists the name; Stale,
// with the closest listed names, when not — unless the manifest may run
// names it does not list (pattern rules, includes), `npm start` falls back to
// server.js, or `yarn x`/`pnpm x`/`bun run x` may run an installed binary.
// No manifest in the folder is Silent (the entry may mean a folder it does
// not name), and so is a name a subproject's manifest lists when the entry
// names no folder — unless the root's manifest listed it when the entry was
// written (Repo.ManifestThen): it was renamed or removed there; a folder
// that does not exist is Stale.
//
// A version is compared with what the manifests pin for its subject: the
// root's, else the subprojects', else the CI workflows' (ParseWorkflowPins). Exact
// pins (.nvmrc 22, a Docker tag) say what the project runs, so when there are
// any only they count; otherwise ranges do (engines ">=18", "^18.3.1",
// requires-python, go.mod's go line as a minimum, Cargo's caret default).
// "Node 18", "^18" or "18.x" drift when no counted pin admits any of their
// versions; "18 or newer", ">=18" or "18+" only when a pin lies wholly below
// 18 ("Node 18 or newer" with .nvmrc 22 is true), or, where only ranges
// count, when the ranges' least version is above it: "Node >= 18" with
// engines ">=20" claims support the project dropped ("React 18+" with
// "^18.3.1" agrees: the parts the entry wrote are compared); "or older"
// mirrors the first. A
// pin that cannot be read ("lts/iron", "stable", "latest") is no evidence.
package refs
