package refs

import "strings"

// pathMode is how much a token must show before it counts as a path.
type pathMode uint8

const (
	// inProse: bare text, or one word of a code span that holds several
	// (a command line). Slashes are everywhere in prose ("and/or",
	// "CI/CD", "Kyber/Dilithium"), so a path needs a file extension, a
	// trailing slash, a leading "./" or ".", or a well-known first folder.
	inProse pathMode = iota
	// inCode: a code span that holds just this token (`src/sim`). Code
	// spans hold identifiers and names too (`web_html/create`,
	// `owner/repo`), so two bare folder names are still not enough unless
	// the first is a usual top-level folder.
	inCode
	// loose: any two names with a slash, for a Soft reference, which the
	// repository's root decides (softPath).
	loose
)

// pathToken is what parsePath reads from one token.
type pathToken struct {
	path string
	line int
	dir  bool
	// valueLen is how many bytes of the token the path takes (the rest is
	// its ":42" or "#L42").
	valueLen int
	// branch says the token is a single folder named like a branch prefix
	// (`feat/`): an entry that lists one lists branch prefixes, not folders.
	branch bool
}

// parsePath decides whether tok is a path of this repository.
func parsePath(tok string, mode pathMode) (pathToken, bool) { return readPath(tok, mode, true) }

// readPath is parsePath; shortcut lets it decide a bare word at once, and
// a test compares the two ways on every token it can find.
func readPath(tok string, mode pathMode, shortcut bool) (pathToken, bool) {
	base, line := splitLine(tok)
	p := pathToken{line: line, valueLen: len(base)}
	if base == "" || !pathChars(base) || strings.Contains(base, "..") {
		return p, false
	}
	switch base[0] {
	case '/', '@', '-', '+':
		return p, false // absolute, a scoped package, a flag
	}
	explicit := false
	for strings.HasPrefix(base, "./") {
		base, explicit = base[2:], true
	}
	if strings.HasSuffix(base, "/") {
		base, p.dir = base[:len(base)-1], true
	}
	if base == "" {
		return p, false
	}
	if shortcut && !p.dir && !explicit && strings.IndexByte(base, '/') < 0 && strings.IndexByte(base, '.') < 0 {
		// A bare word, as nearly every token of prose is: without a dot
		// it has no extension and is no dotfile, so only a well-known
		// file name (Makefile) makes it a path; the reading below comes
		// to the same, at the cost of a split and half a dozen lookups.
		p.path = base
		return p, knownFiles[base] && hasLetter(base)
	}
	segs := strings.Split(base, "/")
	for i, s := range segs {
		switch {
		case s == "" || s == ".":
			return p, false
		case len(s) == 1 && 'A' <= s[0] && s[0] <= 'Z':
			return p, false // a placeholder: projects/X/
		case placeholderSegment(s):
			return p, false // a placeholder: tests/specs/nursery/myRuleName/, src/your-module/
		case i < len(segs)-1 && hasExtension(s) && s[0] != '.':
			return p, false // alternatives: Database.php/bootstrap.php
		}
	}
	if mode == inProse && len(segs) > 1 && techNames(segs) {
		return p, false // "the TypeScript/Vue.js application": names of tools
	}
	p.path = base
	first, last := segs[0], segs[len(segs)-1]
	if first == ".git" {
		return p, false // git's own files, never tracked
	}
	for i := 0; i+2 < len(segs); i++ {
		if strings.EqualFold(segs[i], "path") && strings.EqualFold(segs[i+1], "to") {
			return p, false // the placeholder of usage lines: path/to/file.test.ts, src/path/to/x.ts
		}
	}
	if first[0] == '.' && isExtension(first[1:]) {
		return p, false // a bare extension, or a list of them (`.ps1/.psm1`)
	}
	named := hasExtension(last) || knownFiles[last] || isDotfile(last)
	if len(segs) > 1 && first[0] != '.' && strings.Contains(first, ".") {
		return p, false // a host: github.com/owner/repo, golang.org/x/tools
	}
	if !named && notFolders[strings.ToLower(first)] && !(len(segs) == 1 && p.dir) {
		return p, false // a branch (feat/login), remote (origin/main), media type (application/json), platform (linux/amd64)
	}
	if len(segs) == 1 && !p.dir {
		if explicit {
			return p, hasLetter(last) // ./gradlew
		}
		low := strings.ToLower(last)
		if libraries[low] || hosts[low] {
			return p, false
		}
		return p, named && hasLetter(strings.TrimSuffix(last, "."+extension(last)))
	}
	if len(segs) == 1 { // a single folder: `docs/`, `UI/`
		if branchPrefixes[strings.ToLower(first)] {
			p.branch = true
			return p, false
		}
		return p, len(first) >= 2 && hasLetter(first)
	}
	if !named {
		for _, s := range segs {
			if !hasLetter(s) {
				return p, false // 1/2, 24/7, 2024/05
			}
		}
	}
	switch {
	case named, explicit, p.dir, first[0] == '.':
		return p, true
	case mode == loose:
		return p, true
	case mode == inCode:
		return p, topFolders[first] || len(segs) >= 3
	default:
		// "docs" is a word of prose as often as a folder ("minor
		// docs/typo fixes", "Future docs/frontend commands", "Spelling
		// (docs/misc)": issue 27): under it, prose needs a third part.
		return p, proseFolders[first] || first == "docs" && len(segs) >= 3
	}
}

// splitLine separates a cited line: "main.go:42", "main.go:42:7",
// "main.go:42-50", "main.go#L42", "main.go#L42-L50".
func splitLine(tok string) (string, int) {
	if i := strings.LastIndex(tok, "#L"); i > 0 {
		if n, ok := lineSuffix(tok[i+2:]); ok {
			return tok[:i], n
		}
	}
	if i := strings.IndexByte(tok, ':'); i > 0 {
		if n, ok := lineSuffix(tok[i+1:]); ok {
			return tok[:i], n
		}
	}
	return tok, 0
}

// lineSuffix reads "42", "42:7", "42-50" or "42-L50" and returns 42.
func lineSuffix(s string) (int, bool) {
	n, i := digits(s)
	if i == 0 || i > 9 || n == 0 {
		return 0, false
	}
	rest := s[i:]
	if rest == "" {
		return n, true
	}
	if rest[0] != ':' && rest[0] != '-' {
		return 0, false
	}
	rest = strings.TrimPrefix(rest[1:], "L")
	if _, j := digits(rest); j == 0 || j > 9 || j != len(rest) {
		return 0, false
	}
	return n, true
}

// digits reads the leading decimal digits of s.
func digits(s string) (n, i int) {
	for i < len(s) && '0' <= s[i] && s[i] <= '9' {
		if i < 9 {
			n = n*10 + int(s[i]-'0')
		}
		i++
	}
	return n, i
}

// pathChars reports whether s holds only what a path of this repository is
// written with: letters (any script), digits and "._-/@+".
func pathChars(s string) bool {
	for _, r := range s {
		switch {
		case r == '.' || r == '_' || r == '-' || r == '/' || r == '@' || r == '+':
		case r < 0x80 && !('a' <= r && r <= 'z' || 'A' <= r && r <= 'Z' || '0' <= r && r <= '9'):
			return false
		case r == '…' || r == 0xFFFD:
			return false
		}
	}
	return true
}

func hasLetter(s string) bool {
	for _, r := range s {
		if 'a' <= r && r <= 'z' || 'A' <= r && r <= 'Z' || r >= 0x80 {
			return true
		}
	}
	return false
}

// extension returns what follows the last dot of name, "" when there is no
// dot or nothing before it.
func extension(name string) string {
	i := strings.LastIndexByte(name, '.')
	if i <= 0 || i == len(name)-1 {
		return ""
	}
	return name[i+1:]
}

func hasExtension(name string) bool { return isExtension(extension(name)) }

func isExtension(ext string) bool { return ext != "" && extensions[strings.ToLower(ext)] }

// extensions are the file extensions that make a name a file name. Left out
// on purpose: endings that are also words or object members in prose and
// code ("env" of process.env, "map", "key", "io", "dev", "app", "com"), and
// one-letter endings other than C's.
var extensions = set(
	// Go, JavaScript and TypeScript, web
	"go", "mod", "sum", "js", "mjs", "cjs", "jsx", "ts", "mts", "cts", "tsx",
	"vue", "svelte", "astro", "html", "htm", "css", "scss", "sass", "less",
	"ejs", "hbs", "pug", "njk", "liquid", "twig", "j2", "jinja",
	// data and configuration
	"json", "jsonc", "json5", "ndjson", "jsonl", "yml", "yaml", "toml", "ini", "cfg", "conf",
	"xml", "csv", "tsv", "sql", "graphql", "gql", "proto", "lock", "properties", "plist",
	"tf", "tfvars", "hcl", "nix", "mk", "cmake", "gradle", "csproj", "sln", "xaml",
	// documents and assets
	"md", "mdx", "markdown", "txt", "rst", "adoc", "tex", "pdf", "svg", "png", "jpg",
	"jpeg", "gif", "webp", "ico", "ttf", "woff", "woff2", "otf", "mp3", "wav", "mp4", "log",
	// other languages
	"py", "pyi", "ipynb", "rs", "php", "rb", "erb", "java", "kt", "kts", "scala",
	"groovy", "c", "h", "cc", "cpp", "cxx", "hpp", "hh", "cs", "swift", "lua", "dart",
	"ex", "exs", "erl", "elm", "clj", "hs", "zig", "nim", "jl", "r", "sh", "bash",
	"zsh", "fish", "ps1", "psm1", "psd1", "bat", "wasm", "glsl", "wgsl", "patch", "diff",
)

// knownFiles are file names without an extension that are always files.
var knownFiles = set(
	"Makefile", "makefile", "GNUmakefile", "Dockerfile", "Containerfile",
	"Justfile", "justfile", "Gemfile", "Rakefile", "Procfile", "Jenkinsfile",
	"Vagrantfile", "Brewfile", "Podfile", "Pipfile", "CODEOWNERS",
)

// knownDotfiles are the dotfiles and dot-folders that are worth checking. Any
// other ".name" may be a CSS class (`.card`) or an extension (`.esk`).
var knownDotfiles = set(
	".gitignore", ".gitattributes", ".gitmodules", ".editorconfig", ".env",
	".env.example", ".env.sample", ".env.template", ".env.local",
	".env.development", ".env.production", ".env.test",
	".nvmrc", ".node-version", ".python-version", ".ruby-version", ".tool-versions",
	".terraform-version", ".npmrc", ".yarnrc", ".prettierrc", ".prettierignore",
	".eslintrc", ".eslintignore", ".stylelintrc", ".babelrc", ".browserslistrc",
	".dockerignore", ".htaccess", ".mailmap", ".clang-format", ".clang-tidy",
	".flake8", ".pylintrc", ".coveragerc", ".cursorrules", ".windsurfrules", ".clinerules",
	".github", ".gitlab", ".vscode", ".husky", ".devcontainer", ".circleci",
	".changeset", ".storybook", ".cargo", ".memory",
	// the folders of coding agents
	".agents", ".claude", ".cursor", ".gemini", ".codex", ".windsurf", ".continue", ".kiro",
)

// dotfileFamilies are dotfiles that come in variants: `.htaccessprod`,
// `.env.production.local`, `.eslintrc.base`.
var dotfileFamilies = []string{".htaccess", ".env", ".eslintrc", ".prettierrc", ".babelrc", ".stylelintrc", ".npmrc", ".yarnrc"}

// isDotfile reports whether name is a dotfile or dot-folder worth checking.
func isDotfile(name string) bool {
	if knownDotfiles[name] {
		return true
	}
	for _, f := range dotfileFamilies {
		if rest, ok := strings.CutPrefix(name, f); ok && rest != "" && hasLetter(rest) {
			return true
		}
	}
	return false
}

// libraries are names of projects that read like file names.
var libraries = set(
	"node.js", "vue.js", "next.js", "nuxt.js", "three.js", "express.js",
	"chart.js", "d3.js", "p5.js", "moment.js", "pixi.js", "babylon.js",
	"anime.js", "alpine.js", "ember.js", "backbone.js", "react.js", "angular.js",
	"nest.js", "tone.js", "matter.js", "phaser.js", "leaflet.js", "highlight.js",
	"marked.js", "hammer.js", "video.js", "popper.js", "knockout.js", "mithril.js",
	"preact.js", "solid.js", "gatsby.js", "meteor.js", "ml5.js", "tensorflow.js",
	"brain.js", "paper.js", "fabric.js", "konva.js", "cannon.js", "howler.js",
	"tween.js", "immutable.js", "underscore.js", "require.js", "handlebars.js",
	"mustache.js", "quill.js", "prism.js", "mermaid.js", "plotly.js", "vis.js",
	"cytoscape.js", "sigma.js", "commerce.js", "llama.cpp", "whisper.cpp",
)

// hosts are domain names that end like a file name.
var hosts = set("docs.rs", "bun.sh")

// branchPrefixes are the usual first folders of branch names.
var branchPrefixes = set(
	"feat", "feature", "features", "fix", "fixes", "bugfix", "hotfix", "chore",
	"refactor", "release", "releases", "perf", "wip", "experiment",
)

// notFolders are first segments that make a slashed name something else
// than a path of this repository.
var notFolders = union(branchPrefixes, set(
	"origin", "upstream", "refs", "heads", "remotes", "head",
	"application", "text", "image", "audio", "video", "multipart", "font", "message",
	"linux", "darwin", "windows", "freebsd", "lts",
))

// topFolders are usual top-level folders: in a code span of its own,
// `src/sim` or `docs/adr` is a path.
var topFolders = set(
	"src", "lib", "libs", "docs", "doc", "cmd", "internal", "pkg", "app", "apps",
	"packages", "scripts", "script", "test", "tests", "spec", "specs", "bin",
	"config", "configs", "tools", "public", "assets", "static", "examples",
	"example", "testdata", "fixtures", "core", "server", "client", "web", "api",
	"crates", "deploy", "infra", "components", "pages", "styles", "utils",
	"hooks", "services", "modules", "plugins", "vendor", "build", "dist",
	"migrations", "templates", "backend", "frontend", "projects", "testing", "e2e",
	"bench", "benches", "benchmarks", "website",
)

// proseFolders are top-level folders distinctive enough to make a bare
// two-part name in prose a path (`src/auth`), unlike "client/server" or
// "build/test".
var proseFolders = set(
	"src", "cmd", "internal", "pkg", "scripts", "tests", "testdata",
	"packages", "crates", "lib", "apps",
)

func set(names ...string) map[string]bool {
	m := make(map[string]bool, len(names))
	for _, n := range names {
		m[n] = true
	}
	return m
}

func union(a, b map[string]bool) map[string]bool {
	m := make(map[string]bool, len(a)+len(b))
	for k := range a {
		m[k] = true
	}
	for k := range b {
		m[k] = true
	}
	return m
}

// techNames reports whether every segment of a path in prose is a
// capitalised name and the last one a library's ("TypeScript/Vue.js",
// "React/Next.js": real instruction files, issue 27); `Models/User.js` is
// a path (a red team's).
func techNames(segs []string) bool {
	for _, s := range segs {
		if s == "" || s[0] < 'A' || s[0] > 'Z' {
			return false
		}
	}
	return libraries[strings.ToLower(segs[len(segs)-1])]
}

// placeholderSegment reports whether a path segment names a thing for the
// reader to fill in: "myRuleName", "my-feature", "your_module", "foo",
// "<name>" (the biome labels of issue 27's second set).
func placeholderSegment(s string) bool {
	name := s
	if k := strings.IndexByte(s, '.'); k > 0 {
		name = s[:k] // "foo.test.ts" names foo
	}
	switch strings.ToLower(name) {
	case "foo", "bar", "baz", "xxx", "something", "whatever", "yourname":
		return true
	}
	if strings.Contains(name, "YYYY") || strings.Contains(name, "yyyy") || strings.Contains(name, "MMDD") {
		return true // a dated name's pattern: docs/plans/YYYYMMDD-slug.md, planMMDDNN.md
	}
	if strings.Contains(strings.ToLower(name), "xxx") {
		return true // a name's part to fill in: xxxSchema.js, XxxService
	}
	if strings.ContainsAny(name, "<>{}") {
		return true
	}
	for _, p := range []string{"my", "your"} {
		rest, ok := strings.CutPrefix(name, p)
		if ok && rest != "" && (rest[0] == '-' || rest[0] == '_' || 'A' <= rest[0] && rest[0] <= 'Z') {
			return true
		}
	}
	return false
}
