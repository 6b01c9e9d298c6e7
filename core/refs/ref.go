package refs

// Kind says what a reference cites.
type Kind uint8

const (
	// Path is a file or folder of the repository.
	Path Kind = iota + 1
	// Command is a target, script, recipe or task a tool runs.
	Command
	// Version is a version of a runtime, dependency, tool or image.
	Version
)

var kindNames = [...]string{Path: "path", Command: "command", Version: "version"}

func (k Kind) String() string {
	if int(k) < len(kindNames) && kindNames[k] != "" {
		return kindNames[k]
	}
	return "unknown"
}

// Tool is a program whose names (targets, scripts, recipes, tasks) a
// manifest lists.
type Tool uint8

const (
	Make Tool = iota + 1 // Makefile targets
	Npm                  // package.json scripts
	Pnpm                 // package.json scripts
	Yarn                 // package.json scripts
	Bun                  // package.json scripts
	Just                 // justfile recipes
	Task                 // Taskfile tasks
)

var toolNames = [...]string{Make: "make", Npm: "npm", Pnpm: "pnpm", Yarn: "yarn", Bun: "bun", Just: "just", Task: "task"}

func (t Tool) String() string {
	if int(t) < len(toolNames) && toolNames[t] != "" {
		return toolNames[t]
	}
	return "unknown"
}

// NameKind is what the tool calls the names its manifest lists, as
// messages, links and hovers say it: "no target \"e2e\" in Makefile".
func (t Tool) NameKind() string {
	switch t {
	case Make:
		return "target"
	case Just:
		return "recipe"
	case Task:
		return "task"
	}
	return "script"
}

// Op is how a stated version or a pin bounds the versions it admits.
type Op uint8

const (
	Exact      Op = iota // "18", "v18", "18.x", "=18": every 18.*
	AtLeast              // ">=18", "18+", "18 or newer", "at least 18"
	Above                // ">18"
	AtMost               // "<=18", "18 or older"
	Below                // "<18"
	Caret                // "^18.2": up to the next major (npm, Cargo)
	Tilde                // "~18.2": up to the next minor
	Compatible           // "~=3.10" (PEP 440): up to the next release of the part before the last
)

var opNames = [...]string{Exact: "=", AtLeast: ">=", Above: ">", AtMost: "<=", Below: "<", Caret: "^", Tilde: "~", Compatible: "~="}

func (o Op) String() string {
	if int(o) < len(opNames) {
		return opNames[o]
	}
	return "?"
}

// Ref is one reference to this repository found in an entry's text.
//
// Spans are byte offsets into the text given to Extract. Start..End covers
// the reference as cited (for a path, with its ":42"; for a command, from a
// `cd dir &&` or the tool to the target; for a version, from the subject to
// the comparison words). ValueStart..ValueEnd is the part a fix rewrites: the
// path without its line, the target, the version number.
type Ref struct {
	Start, End           int
	ValueStart, ValueEnd int

	// Path is the cited path, slash-separated and relative to the workspace
	// root, without a leading "./" or a trailing slash (Kind Path).
	Path string

	// Target is what Tool runs (Kind Command).
	Target string
	// In is the folder the command runs in (`cd web &&`, `make -C web`,
	// "`npm test` in `web/`"), "" for the root (Kind Command).
	In string

	// Subject is what the version is of, lower-case: "node", "go", "python",
	// "rust", a dependency ("react", "@types/node") or an image
	// ("postgres", "bitnami/redis") (Kind Version).
	Subject string
	// Version is the stated version without operator or "v": "18", "1.22.3" (Kind Version).
	Version string

	// The small fields come last, together: a Ref is 128 bytes rather than
	// 152 with them spread between the words, and the language server keeps
	// one for every reference a folder cites (TestRefSize).

	// Line is the cited line (`main.go:42`), 0 when none (Kind Path); nine
	// digits at most (lineSuffix).
	Line int32
	Kind Kind
	// Dir says the path was written with a trailing slash, naming a folder (Kind Path).
	Dir bool
	// Gone says the entry speaks of what it cites as removed, replaced or
	// moved away ("no more `index.html`", "`old.js` was replaced by …",
	// "formerly `lib/`"): a missing path then agrees with it (Kind Path).
	Gone bool
	// Arg says the path is an argument of a command the entry shows
	// (`pnpm run test ./src/components/Button.test.ts`): often an example
	// of how to call it rather than a claim that the file exists (Kind Path).
	Arg bool
	// Route says the entry speaks of URLs, routes or requests and the path
	// has no extension: it may be a URL route (`backend/auth/google`), whose
	// absence from the repository proves nothing (Kind Path).
	Route bool
	// Soft says the text alone does not make it a path: a leading "/"
	// (`/web/src/app.ts`) or "@/" may be the repository's root or the
	// machine's or an alias, and two names with a slash
	// (`internal-packages/zodworker`) may be a package, an owner and
	// repository or a ratio. It names this repository only where the root
	// has, or had when the entry was written, a folder named as its first
	// element (Kind Path).
	Soft bool
	// Tool runs Target (Kind Command).
	Tool Tool
	// Implicit says the tool was not told to run a script (`yarn lint`,
	// `bun run x`): it falls back to a binary of that name, so a script
	// missing from the manifest does not prove the command fails (Kind Command).
	Implicit bool
	// Op is how the stated version bounds the versions it admits (Kind Version).
	Op Op
	// Aside says a lower bound is written as an aside in parentheses
	// ("use `for range N` (Go 1.22+)"): the release that brought what the
	// sentence speaks of, not the oldest the project supports, so it does
	// not contradict a pin by admitting older versions (Kind Version).
	Aside bool
	// Alt says the version was written after a slash as an alternative of
	// the one before it, of the same subject ("Pydantic v1/v2") (Kind Version).
	Alt bool
	// Compound says Subject is a package named by two words emphasised as
	// one ("**Lucide React**": lucide-react); where the project pins no
	// such package, the version is the second word's (Kind Version).
	Compound bool
}
