package refs

import (
	"path"
	"reflect"
	"testing"
)

func TestParsePins(t *testing.T) {
	type p = Pinned
	pin := func(subject, value string, line int, bare Op) Pinned {
		return Pinned{subject, Pin{Value: value, Line: line, Bare: bare}}
	}
	cases := []struct {
		file, src string
		want      []Pinned
	}{
		{".nvmrc", "v22.3.0\n", []p{pin("node", "v22.3.0", 1, Exact)}},
		{".nvmrc", "\n# comment\nlts/iron # codename\n20\n", []p{pin("node", "lts/iron", 3, Exact)}},
		{"web/.node-version", "20.11.1", []p{pin("node", "20.11.1", 1, Exact)}},
		{".python-version", "3.12.1\n3.11\n", []p{pin("python", "3.12.1", 1, Exact), pin("python", "3.11", 2, Exact)}},
		{".tool-versions", "nodejs 20.11.0\ngolang 1.22.1 1.21.0 # fallback\n\nterraform 1.7.0\nbroken\n",
			[]p{pin("node", "20.11.0", 1, Exact), pin("go", "1.22.1", 2, Exact), pin("go", "1.21.0", 2, Exact), pin("terraform", "1.7.0", 4, Exact)}},
		{"go.mod", "module example.com/x\n\ngo 1.22 // minimum\n\ntoolchain go1.22.3\n\nrequire github.com/Spf13/cobra v1.8.0\n\nrequire (\n\tgolang.org/x/sys v0.20.0 // indirect\n\t\"example.com/q\" v1.0.0\n)\nreplace a => b v1\n",
			[]p{pin("go", "1.22", 3, AtLeast), pin("go", "go1.22.3", 5, AtLeast), pin("github.com/spf13/cobra", "v1.8.0", 7, Exact),
				pin("golang.org/x/sys", "v0.20.0", 10, Exact), pin("example.com/q", "v1.0.0", 11, Exact)}},
		{"package.json", "{\n  \"engines\": {\"node\": \">=18\", \"pnpm\": \"9\"},\n  \"packageManager\": \"pnpm@9.1.0+sha256.abc\",\n  \"volta\": {\"node\": \"20.11.0\"},\n  \"dependencies\": {\n    \"React\": \"^18.3.1\",\n    \"local\": {\"x\": 1}\n  },\n  \"devDependencies\": {\"@types/node\": \"20\"},\n  \"peerDependencies\": {\"vue\": \"3\"}\n}\n",
			[]p{pin("node", ">=18", 2, Exact), pin("pnpm", "9", 2, Exact), pin("node", "20.11.0", 4, Exact), pin("pnpm", "9.1.0", 3, Exact),
				pin("react", "^18.3.1", 6, Exact), pin("@types/node", "20", 9, Exact)}},
		{"package.json", "{not json", nil},
		// a .NET project's target frameworks, each a pin; the .NET
		// Framework, .NET Standard and a property are no .NET release
		{"src/App/App.csproj", "<Project>\n  <PropertyGroup>\n    <TargetFrameworks>net8.0;net10.0-windows; netcoreapp3.1;netstandard2.0;net48;$(Extra)</TargetFrameworks>\n    <TargetFramework>net9.0</TargetFramework>\n  </PropertyGroup>\n</Project>\n",
			[]p{pin("dotnet", "8.0", 3, Exact), pin("dotnet", "10.0", 3, Exact), pin("dotnet", "3.1", 3, Exact), pin("dotnet", "9.0", 4, Exact)}},
		{"Directory.Build.props", "<Project><PropertyGroup><TargetFramework>net8.0</TargetFramework></PropertyGroup></Project>", []p{pin("dotnet", "8.0", 1, Exact)}},
		{"composer.json", "{\n  \"require\": {\n    \"php\": \"^8.2|^8.3\",\n    \"ext-json\": \"*\",\n    \"laravel/framework\": \"^13.0\"\n  },\n  \"require-dev\": {\"larastan/larastan\": \"^3.7\"}\n}\n",
			[]p{pin("php", "^8.2||^8.3", 3, Exact), pin("laravel/framework", "^13.0", 5, Exact), pin("larastan/larastan", "^3.7", 7, Exact)}},
		{"pyproject.toml", "[build-system]\nrequires = [\"hatchling>=1\"]\n\n[project]\nname = \"x\"\nrequires-python = \">=3.10,<4\"\ndependencies = [\n  \"Django>=4.2\", # web\n  \"requests\",\n  'attrs[tests] (>=23.1) ; python_version >= \"3.8\"',\n  \"pkg @ https://example.com/pkg.whl\",\n]\n\n[project.optional-dependencies]\ndev = [\"pytest~=8.0\"]\n\n[dependency-groups]\nlint = [\"ruff==0.4.*\"]\n\n[tool.other]\ndependencies = [\"nope>=1\"]\n",
			[]p{pin("python", ">=3.10,<4", 6, Exact), pin("django", ">=4.2", 8, Exact), pin("attrs", ">=23.1", 10, Exact),
				pin("pytest", "~=8.0", 15, Exact), pin("ruff", "==0.4.*", 18, Exact)}},
		{"pyproject.toml", "[project\ndependencies = [\n\"a>=1\"", nil},
		{"Cargo.toml", "[package]\nname = \"x\"\nrust-version = \"1.70\"\n\n[dependencies]\nserde = { version = \"1.0\", features = [\"derive\"] }\ntokio = \"1.37\"\nlocal = { path = \"../local\" }\nshared = { workspace = true }\nanyhow.workspace = true\nthiserror.version = \"1.0.60\"\n\n[dev-dependencies]\ncriterion = \"0.5\"\n\n[target.'cfg(unix)'.dependencies]\nlibc = \"0.2\"\n\n[dependencies.regex]\nversion = \"1.10\"\ndefault-features = false\n",
			[]p{pin("rust", "1.70", 3, AtLeast), pin("serde", "1.0", 6, Caret), pin("tokio", "1.37", 7, Caret), pin("thiserror", "1.0.60", 11, Caret),
				pin("criterion", "0.5", 14, Caret), pin("libc", "0.2", 17, Caret), pin("regex", "1.10", 20, Caret)}},
		{"rust-toolchain.toml", "[toolchain]\nchannel = \"1.75.0\"\ncomponents = [\"rustfmt\"]\n", []p{pin("rust", "1.75.0", 2, Exact)}},
		{"rust-toolchain", "1.74.1\n", []p{pin("rust", "1.74.1", 1, Exact)}},
		{"rust-toolchain", "[toolchain]\nchannel = \"stable\"\n", []p{pin("rust", "stable", 2, Exact)}},
		{"Dockerfile", "ARG V=22\nFROM --platform=$BUILDPLATFORM node:22-alpine AS build\nRUN npm ci\nFROM build AS test\nfrom docker.io/library/nginx:1.27 \\\n  AS web\nFROM scratch\nFROM node:${V}\nFROM ghcr.io/org/app:1.4@sha256:abc\nFROM localhost:5000/tool\n",
			[]p{pin("node", "22-alpine", 2, Exact), pin("nginx", "1.27", 5, Exact), pin("ghcr.io/org/app", "1.4", 9, Exact)}},
		{"docker/api.Dockerfile", "FROM python:3.12-slim\n", []p{pin("python", "3.12-slim", 1, Exact)}},
		{"compose.yaml", "services:\n  db:\n    image: \"postgres:16-alpine\" # main\n  cache:\n    image: redis\n  app:\n    image: ${APP_IMAGE:-app:1}\n    build: .\n# image: mysql:8\n",
			[]p{pin("postgres", "16-alpine", 3, Exact)}},
		{"docker-compose.override.yml", "x:\n  - image: bitnami/redis:7.2\n", []p{pin("bitnami/redis", "7.2", 2, Exact)}},
		{"README.md", "go 1.22\n", nil},
	}
	for _, c := range cases {
		t.Run(c.file, func(t *testing.T) {
			got := ParsePins(c.file, []byte(c.src))
			for i := range c.want {
				c.want[i].Pin.File = c.file
			}
			if !reflect.DeepEqual(got, c.want) {
				t.Errorf("got\n  %+v\nwant\n  %+v", got, c.want)
			}
		})
	}
}

func TestPinFile(t *testing.T) {
	for _, name := range []string{".nvmrc", "package.json", "composer.json", "go.mod", "Cargo.toml", "Dockerfile", "Dockerfile.dev",
		"web.dockerfile", "Containerfile", "compose.yml", "docker-compose.yaml", "docker-compose.prod.yml",
		"pyproject.toml", ".python-version", ".tool-versions", "rust-toolchain", "rust-toolchain.toml", ".node-version"} {
		if !PinFile(name) {
			t.Errorf("PinFile(%q) = false", name)
		}
	}
	for _, name := range []string{"Makefile", "go.sum", "package-lock.json", "composer.lock", "README.md", "compose.json"} {
		if PinFile(name) {
			t.Errorf("PinFile(%q) = true", name)
		}
	}
}

// TestPinsJudged: pins read from real manifests give the verdicts Judge
// promises for them.
func TestPinsJudged(t *testing.T) {
	repo := pinRepo{}
	for file, src := range map[string]string{
		".nvmrc":         "22\n",
		"go.mod":         "module x\n\ngo 1.22\n",
		"Cargo.toml":     "[dependencies]\nserde = \"1.0\"\n",
		"compose.yaml":   "services:\n  db:\n    image: postgres:16-alpine\n",
		"pyproject.toml": "[project]\nrequires-python = \">=3.10\"\n",
	} {
		for _, p := range ParsePins(file, []byte(src)) {
			repo[p.Subject] = append(repo[p.Subject], p.Pin)
		}
	}
	for _, c := range []struct {
		text string
		want Status
	}{
		{"We are on Node 18.", Drift},
		{"Node 18 or newer.", Holds},
		{"Built with Go 1.23.", Holds},
		{"Built with Go 1.21.", Drift},
		{"`serde@1.0.200` everywhere.", Holds},
		{"DB is `postgres:15`.", Drift},
		{"Python 3.9 only.", Drift},
		{"Python 3.12.", Holds},
	} {
		rs := Extract(c.text)
		if len(rs) == 0 {
			t.Fatalf("%q: no reference", c.text)
		}
		if got := Judge(rs[0], repo).Status; got != c.want {
			t.Errorf("%q: %s, want %s", c.text, got, c.want)
		}
	}
}

// pinRepo is a Repo with pins alone.
type pinRepo map[string][]Pin

func (pinRepo) HasCode() bool                                  { return true }
func (pinRepo) Stat(string) (bool, bool)                       { return false, false }
func (pinRepo) Endings(string) int                             { return 0 }
func (pinRepo) Ignored(string) bool                            { return false }
func (pinRepo) Manifest(Tool, string) (Manifest, bool)         { return Manifest{}, false }
func (pinRepo) ListedBelow(Tool, string) bool                  { return false }
func (pinRepo) Moved(string) (Move, bool)                      { return Move{}, false }
func (pinRepo) ManifestThen(Tool, string) (Manifest, bool)     { return Manifest{}, false }
func (pinRepo) RootHad(string) (bool, bool)                    { return false, false }
func (pinRepo) ManifestLost(Tool, string, string) (Move, bool) { return Move{}, false }
func (pinRepo) Stem(string) bool                               { return false }
func (pinRepo) Committed(string) bool                          { return false }
func (pinRepo) Children(string) []string                       { return nil }
func (r pinRepo) Pins(subject string) []Pin                    { return r[subject] }

// TestPinFileGlobs: every name PinFile reads is matched by one of the globs
// a client is asked to watch.
func TestPinFileGlobs(t *testing.T) {
	for _, name := range []string{".nvmrc", ".node-version", ".python-version", "rust-toolchain", "rust-toolchain.toml",
		"package.json", "composer.json", ".tool-versions", "go.mod", "pyproject.toml", "Cargo.toml", "Dockerfile", "dockerfile",
		"Dockerfile.dev", "api.dockerfile", "Containerfile", "containerfile.ci", "compose.yaml", "docker-compose.yml",
		"compose.prod.YAML"} {
		if !PinFile(name) {
			t.Fatalf("PinFile(%q) = false: the sample is wrong", name)
		}
		matched := false
		for _, g := range PinFileGlobs {
			if ok, _ := path.Match(g, name); ok {
				matched = true
			}
		}
		if !matched {
			t.Errorf("no glob of PinFileGlobs matches %q", name)
		}
	}
}
