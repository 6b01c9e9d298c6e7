package refs

import (
	"strings"
	"unicode"
	"unicode/utf8"
)

// subject is a name that, followed by a number, states a version.
type subject struct {
	// name is the Subject Judge looks up.
	name string
	// integer says a bare whole number is a version ("React 19"); for
	// "go", "rust", "express" it is more likely a count ("go 2 levels up"),
	// so they need a dotted version, a comparison or a "v".
	integer bool
}

// subjects maps a written name (lower case) to what it is a version of:
// the runtimes the manifests pin, and dependencies, tools and images common
// enough that "Name 18" is their version. A framework is named by the package
// that carries its version: Angular by @angular/core (the package "angular"
// is AngularJS), Remix by @remix-run/react, NestJS by @nestjs/core. Other names count only as
// `name@1.2` or with a three-part version ("CodeMirror 5.65.2").
var subjects = map[string]subject{
	"node": {"node", true}, "node.js": {"node", true}, "nodejs": {"node", true},
	"go": {"go", false}, "golang": {"go", false},
	"python": {"python", true}, "cpython": {"python", true},
	"rust": {"rust", false}, "rustc": {"rust", false},
	"deno": {"deno", true}, "bun": {"bun", false}, "ruby": {"ruby", false},
	"php": {"php", true}, "java": {"java", true}, "jdk": {"java", true},
	"openjdk": {"java", true}, "kotlin": {"kotlin", true}, "dotnet": {"dotnet", true},
	".net": {"dotnet", true}, "dart": {"dart", true}, "flutter": {"flutter", true},
	"swift": {"swift", false}, "elixir": {"elixir", false}, "erlang": {"erlang", true},
	"typescript": {"typescript", true}, "react": {"react", true}, "react-dom": {"react-dom", true},
	"vue": {"vue", true}, "vue.js": {"vue", true}, "angular": {"@angular/core", true},
	"next.js": {"next", true}, "nextjs": {"next", true}, "nuxt": {"nuxt", true},
	"svelte": {"svelte", true}, "sveltekit": {"@sveltejs/kit", true}, "vite": {"vite", true},
	"webpack": {"webpack", true}, "electron": {"electron", true}, "express": {"express", false},
	"tailwind": {"tailwindcss", true}, "tailwindcss": {"tailwindcss", true},
	"eslint": {"eslint", true}, "prettier": {"prettier", true}, "jest": {"jest", true},
	"vitest": {"vitest", true}, "playwright": {"@playwright/test", true}, "prisma": {"prisma", true},
	"astro": {"astro", true}, "remix": {"@remix-run/react", false},
	"nestjs": {"@nestjs/core", true}, "nest.js": {"@nestjs/core", true}, "storybook": {"storybook", true},
	"django": {"django", true}, "flask": {"flask", true}, "fastapi": {"fastapi", false},
	"pydantic": {"pydantic", true}, "numpy": {"numpy", true}, "pandas": {"pandas", true},
	"pytorch": {"torch", true}, "torch": {"torch", false}, "tensorflow": {"tensorflow", true},
	"sqlalchemy": {"sqlalchemy", true}, "pytest": {"pytest", true},
	"rails": {"rails", true}, "laravel": {"laravel/framework", true}, "symfony": {"symfony", true},
	"tokio": {"tokio", false}, "serde": {"serde", false}, "axum": {"axum", false},
	"tauri": {"tauri", true}, "bevy": {"bevy", false},
	"postgres": {"postgres", true}, "postgresql": {"postgres", true}, "mysql": {"mysql", true},
	"mariadb": {"mariadb", true}, "redis": {"redis", true}, "mongodb": {"mongo", true},
	"mongo": {"mongo", true}, "nginx": {"nginx", false}, "alpine": {"alpine", false},
	"ubuntu": {"ubuntu", false}, "debian": {"debian", true},
	"pnpm": {"pnpm", true}, "yarn": {"yarn", true}, "npm": {"npm", true},
	"gradle": {"gradle", true}, "terraform": {"terraform", false},
	"golangci-lint": {"golangci-lint", false},
}

// suffixed are names people write in two words, the second given here,
// before a version: "Tailwind CSS 4.1.4", "Node JS 18", "Next JS 14".
var suffixed = map[string]struct {
	word string
	sub  subject
}{
	"tailwind": {"css", subjects["tailwind"]}, "node": {"js", subjects["node"]},
	"vue": {"js", subjects["vue"]}, "next": {"js", subjects["next.js"]}, "nest": {"js", subjects["nestjs"]},
}

// images are official image names that, as `name:tag`, are an image.
var images = set(
	"node", "python", "golang", "rust", "postgres", "mysql", "mariadb", "redis",
	"mongo", "nginx", "alpine", "ubuntu", "debian", "php", "ruby", "openjdk",
	"eclipse-temurin", "httpd", "traefik", "rabbitmq", "elasticsearch", "memcached",
	"busybox", "caddy", "deno", "oven/bun",
)

// notSoftware are words that precede a three-part number without naming
// software ("version 1.2.3", "from 1.2.3", "section 4.1.2").
var notSoftware = set(
	"version", "ver", "v", "release", "section", "chapter", "step", "phase",
	"table", "figure", "fig", "rule", "spec", "adr", "rfc", "iso", "part", "item",
	"page", "line", "tier", "stage", "level", "milestone", "sprint", "round", "build",
	"patch", "semver", "from", "to", "at", "on", "in", "and", "or", "of", "the",
	"a", "an", "is", "was", "be", "with", "by", "as", "vs", "via", "since", "until",
	"after", "before", "than", "upgrade", "bump", "tag", "wcag", "tls", "ssl", "http",
	"oauth", "ip", "ipv4", "ipv6", "x", "y", "z",
)

func parseOp(t string) Op {
	switch t {
	case ">=", "=>", "≥":
		return AtLeast
	case ">":
		return Above
	case "<=", "=<", "≤":
		return AtMost
	case "<":
		return Below
	case "^":
		return Caret
	case "~":
		return Tilde
	case "~=":
		return Compatible
	}
	return Exact
}

// boundaryBefore reports whether a name may start at s[i]: not inside a
// word, a path, a package name or an address.
func boundaryBefore(s string, i int) bool {
	if i == 0 {
		return true
	}
	r, _ := utf8.DecodeLastRuneInString(s[:i])
	return !isWordRune(r) && !strings.ContainsRune("./@-:\\", r)
}

func isWordRune(r rune) bool {
	return r == '_' || 'a' <= r && r <= 'z' || 'A' <= r && r <= 'Z' || '0' <= r && r <= '9' ||
		r >= 0x80 && r != utf8.RuneError && (isLetterOrDigit(r))
}

// endsWithLetter refuses "ET-IFC-001 v1.0.0" (a document's number) as a subject.
func endsWithLetter(name string) bool {
	c := name[len(name)-1]
	return 'a' <= c && c <= 'z' || 'A' <= c && c <= 'Z'
}

func isLetterOrDigit(r rune) bool { return unicode.IsLetter(r) || unicode.IsDigit(r) }

func isDigit(c byte) bool { return '0' <= c && c <= '9' }
