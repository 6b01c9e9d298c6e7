package refs

import (
	"bytes"
	"path"
	"slices"
	"strings"
)

// Pinned is a pin and what it is a version of (a Ref's Subject).
type Pinned struct {
	Subject string
	Pin     Pin
}

// PinFile reports whether a file of that base name pins versions:
// .nvmrc, .node-version, package.json, .tool-versions, go.mod,
// .python-version, pyproject.toml, rust-toolchain(.toml), Cargo.toml,
// composer.json, .NET project files, Dockerfiles and compose files.
func PinFile(name string) bool { return pinReader(name) != nil }

// ParsePins reads the versions the file at path (slash-separated; its base
// name says what kind of file it is) pins, in the order it states them, each
// with File set to path. Text it cannot read gives no pin, never an error.
func ParsePins(file string, src []byte) []Pinned {
	read := pinReader(path.Base(file))
	if read == nil {
		return nil
	}
	src = bytes.TrimPrefix(src, []byte("\uFEFF"))
	out := read(src)
	// An empty name or version ("" in a manifest) states nothing.
	out = slices.DeleteFunc(out, func(p Pinned) bool { return p.Subject == "" || strings.TrimSpace(p.Pin.Value) == "" })
	for i := range out {
		out[i].Pin.File = file
	}
	return out
}

// PinFileGlobs are glob patterns of base names (path.Match's, which LSP
// file watchers read too) that together match every name PinFile accepts,
// for a client asked to watch them.
var PinFileGlobs = []string{
	".nvmrc", ".node-version", ".python-version", "rust-toolchain", "rust-toolchain.toml",
	"package.json", "composer.json", ".tool-versions", "go.mod", "pyproject.toml", "Cargo.toml",
	"*.[Cc][Ss][Pp][Rr][Oo][Jj]", "*.[Ff][Ss][Pp][Rr][Oo][Jj]", "*.[Vv][Bb][Pp][Rr][Oo][Jj]",
	"[Dd]irectory.[Bb]uild.[Pp]rops",
	"[Dd][Oo][Cc][Kk][Ee][Rr][Ff][Ii][Ll][Ee]*", "*.[Dd][Oo][Cc][Kk][Ee][Rr][Ff][Ii][Ll][Ee]",
	"[Cc][Oo][Nn][Tt][Aa][Ii][Nn][Ee][Rr][Ff][Ii][Ll][Ee]*",
	"*[Cc][Oo][Mm][Pp][Oo][Ss][Ee]*.[Yy][Mm][Ll]", "*[Cc][Oo][Mm][Pp][Oo][Ss][Ee]*.[Yy][Aa][Mm][Ll]",
}

// pinReader is the reader of a file of that base name, nil for none.
func pinReader(name string) func([]byte) []Pinned {
	lower := strings.ToLower(name)
	switch {
	case name == ".nvmrc" || name == ".node-version":
		return func(src []byte) []Pinned { return versionFile(src, "node", true) }
	case name == ".python-version":
		return func(src []byte) []Pinned { return versionFile(src, "python", false) }
	case name == "rust-toolchain":
		return rustToolchainLegacy
	case name == "rust-toolchain.toml":
		return rustToolchain
	case name == "package.json":
		return packagePins
	case name == ".tool-versions":
		return toolVersions
	case name == "go.mod":
		return goModPins
	case name == "pyproject.toml":
		return pyprojectPins
	case name == "Cargo.toml":
		return cargoPins
	case name == "composer.json":
		return composerPins
	case strings.HasSuffix(lower, ".csproj") || strings.HasSuffix(lower, ".fsproj") ||
		strings.HasSuffix(lower, ".vbproj") || lower == "directory.build.props":
		return dotnetProjectPins
	case containerFile(lower):
		return dockerfilePins
	case composeFile(lower):
		return composePins
	}
	return nil
}

// ImagePin reports whether a pin's file (a path) is a Dockerfile or a
// compose file: its version is the image one service is built from or
// runs, which an entry about another part of the project may rightly
// contradict.
func ImagePin(file string) bool {
	lower := strings.ToLower(path.Base(file))
	return containerFile(lower) || composeFile(lower)
}

// containerFile: a Dockerfile's or Containerfile's base name, lower-cased.
func containerFile(lower string) bool {
	return lower == "dockerfile" || lower == "containerfile" || strings.HasPrefix(lower, "dockerfile.") ||
		strings.HasSuffix(lower, ".dockerfile") || strings.HasPrefix(lower, "containerfile.")
}

// composeFile: a compose file's base name, lower-cased.
func composeFile(lower string) bool {
	return (strings.HasPrefix(lower, "compose") || strings.HasPrefix(lower, "docker-compose")) &&
		(strings.HasSuffix(lower, ".yml") || strings.HasSuffix(lower, ".yaml"))
}

// versionFile reads a file that holds a version per line (.nvmrc,
// .python-version): the first line only when first, which is the one
// nvm reads; pyenv tries every line.
func versionFile(src []byte, subject string, first bool) []Pinned {
	var out []Pinned
	for num, line := range lines(src) {
		v := strings.TrimSpace(line)
		if i := strings.IndexByte(v, '#'); i >= 0 {
			v = strings.TrimSpace(v[:i])
		}
		if v == "" {
			continue
		}
		out = append(out, Pinned{subject, Pin{Value: v, Line: num}})
		if first {
			break
		}
	}
	return out
}

// asdfNames maps .tool-versions plugin names to subjects where they differ.
var asdfNames = map[string]string{"nodejs": "node", "golang": "go", "dotnet-core": "dotnet"}

// toolVersions reads .tool-versions: `tool version [fallback…]`, each
// version a pin.
func toolVersions(src []byte) []Pinned {
	var out []Pinned
	for num, line := range lines(src) {
		if i := strings.IndexByte(line, '#'); i >= 0 {
			line = line[:i]
		}
		f := strings.Fields(line)
		if len(f) < 2 {
			continue
		}
		tool := strings.ToLower(f[0])
		if s, ok := asdfNames[tool]; ok {
			tool = s
		}
		for _, v := range f[1:] {
			out = append(out, Pinned{tool, Pin{Value: v, Line: num}})
		}
	}
	return out
}

// goModPins reads go.mod: the go line (the least version the module
// accepts), the toolchain line (the least toolchain it asks for) and each
// required module at the version the build selects.
func goModPins(src []byte) []Pinned {
	var out []Pinned
	inRequire := false
	for num, line := range lines(src) {
		if i := strings.Index(line, "//"); i >= 0 {
			line = line[:i]
		}
		f := strings.Fields(line)
		if len(f) == 0 {
			continue
		}
		if inRequire {
			if f[0] == ")" {
				inRequire = false
			} else if len(f) >= 2 {
				out = append(out, Pinned{strings.ToLower(strings.Trim(f[0], `"`)), Pin{Value: f[1], Line: num}})
			}
			continue
		}
		switch {
		case f[0] == "go" && len(f) == 2:
			out = append(out, Pinned{"go", Pin{Value: f[1], Line: num, Bare: AtLeast}})
		case f[0] == "toolchain" && len(f) == 2:
			out = append(out, Pinned{"go", Pin{Value: f[1], Line: num, Bare: AtLeast}})
		case f[0] == "require" && len(f) == 2 && f[1] == "(":
			inRequire = true
		case f[0] == "require" && len(f) >= 3:
			out = append(out, Pinned{strings.ToLower(strings.Trim(f[1], `"`)), Pin{Value: f[2], Line: num}})
		}
	}
	return out
}

// packagePins reads package.json: engines (node, npm, pnpm, …), Volta's
// pins, packageManager ("pnpm@9.1.0") and the dependencies and
// devDependencies.
func packagePins(src []byte) []Pinned {
	pkg, ok := readPackageJSON(src)
	if !ok {
		return nil
	}
	var out []Pinned
	for _, section := range []string{"engines", "volta"} {
		for _, m := range pkg.objects[section] {
			if m.isString {
				out = append(out, Pinned{strings.ToLower(m.key), Pin{Value: m.value, Line: m.line}})
			}
		}
	}
	if m, ok := pkg.strings["packageManager"]; ok {
		if name, v, ok := strings.Cut(m.value, "@"); ok && name != "" {
			v, _, _ = strings.Cut(v, "+") // the hash after the version
			out = append(out, Pinned{strings.ToLower(name), Pin{Value: v, Line: m.line}})
		}
	}
	for _, section := range []string{"dependencies", "devDependencies"} {
		for _, m := range pkg.objects[section] {
			if m.isString {
				out = append(out, Pinned{strings.ToLower(m.key), Pin{Value: m.value, Line: m.line}})
			}
		}
	}
	return out
}

// composerPins reads composer.json's require and require-dev: PHP itself
// ("php": ">=8.3") and packages by their name ("laravel/framework":
// "^13.0"). Composer writes alternatives with one bar ("^8.2|^8.3"); PHP
// extensions ("ext-json") pin nothing a memory states.
func composerPins(src []byte) []Pinned {
	pkg, ok := readPackageJSON(src)
	if !ok {
		return nil
	}
	var out []Pinned
	for _, section := range []string{"require", "require-dev"} {
		for _, m := range pkg.objects[section] {
			key := strings.ToLower(m.key)
			if !m.isString || strings.HasPrefix(key, "ext-") || strings.HasPrefix(key, "lib-") {
				continue
			}
			v := strings.ReplaceAll(strings.ReplaceAll(m.value, "||", "|"), "|", "||")
			out = append(out, Pinned{key, Pin{Value: v, Line: m.line}})
		}
	}
	return out
}

// reTargetFramework reads a .NET project's target frameworks: net8.0,
// netcoreapp3.1, net8.0-windows. netstandard2.0 and net48 (the .NET
// Framework) are other platforms than the ".NET 8" people write.
var (
	reTargetFrameworks = lazyRegexp(`<TargetFrameworks?>([^<]*)</TargetFrameworks?>`)
	reTargetFramework  = lazyRegexp(`^net(?:coreapp)?(\d+\.\d+)(?:-[A-Za-z0-9.]+)?$`)
)

// dotnetProjectPins reads the target frameworks of a .csproj, .fsproj,
// .vbproj or Directory.Build.props, each an exact pin of dotnet: a project
// that targets net8.0 and net9.0 runs on both (issue 27: ".NET 8" was
// judged against a CI workflow's 9.0.x while the project multi-targets).
// global.json is not read: it pins the SDK that builds, and an SDK builds
// every older target.
func dotnetProjectPins(src []byte) []Pinned {
	var out []Pinned
	for num, line := range lines(src) {
		if !strings.Contains(line, "<TargetFramework") {
			continue
		}
		for _, m := range reTargetFrameworks().FindAllStringSubmatch(line, -1) {
			for _, tfm := range strings.Split(m[1], ";") {
				if v := reTargetFramework().FindStringSubmatch(strings.ToLower(strings.TrimSpace(tfm))); v != nil {
					out = append(out, Pinned{"dotnet", Pin{Value: v[1], Line: num}})
				}
			}
		}
	}
	return out
}
