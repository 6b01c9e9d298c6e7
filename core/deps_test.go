// The dependency rules of the layout, checked on what `go list` reports, as
// the standard library's go/build/deps_test.go checks its own: ARCHITECTURE.md
// states them as invariants, and this is what keeps them true.
package core_test

import (
	"bytes"
	"encoding/json"
	"errors"
	"io"
	"os"
	"os/exec"
	"slices"
	"strings"
	"testing"
)

const module = "github.com/memory-lsp/memory-lsp"

// diskBoundary is the core code that may touch the file system: the store
// and the packages under it.
const diskBoundary = module + "/core/store"

// osImport reports whether path is a package through which code reaches the
// file system or the process: only the disk boundary may import one.
func osImport(path string) bool {
	switch {
	case path == "os", strings.HasPrefix(path, "os/"),
		path == "io/fs", path == "io/ioutil", path == "syscall",
		strings.HasPrefix(path, "golang.org/x/sys/"):
		return true
	}
	return false
}

// protocolModules are the protocol stacks core knows nothing of: the
// language server's (glsp and its logging) and the MCP SDK.
var protocolModules = []string{
	"github.com/tliron/glsp",
	"github.com/tliron/commonlog",
	"github.com/modelcontextprotocol/go-sdk",
}

// frontEnds may not import each other: each adapts core to one protocol.
var frontEnds = []string{module + "/lsp", module + "/mcp"}

// lspMayImport is what the language server may import of core: the
// features and the rules it converts to the protocol, and the values they
// speak in. It plans nothing itself (issue 29): core/refs (what a citation
// leads to and says) and core/merge (reconciling a buffer with the disk)
// are reached through core/memory.
var lspMayImport = map[string]string{
	"core/memory":   "",
	"core/rules":    "",
	"core/text":     "",
	"core/config":   "",
	"core/category": "",
}

// mcpMayImport is what the MCP server may import of core: it converts
// tool calls to core/memory's features as the language server does, and
// opens its workspaces through memory.OpenService.
var mcpMayImport = map[string]string{
	"core/memory":   "",
	"core/config":   "",
	"core/category": "",
}

type listedPackage struct {
	ImportPath string
	Dir        string
	Imports    []string
	Error      *struct{ Err string }
}

// TestDependencies fails for an import that breaks the layout, naming the
// package and the import (and, for one reached indirectly, the chain of
// imports that leads to it).
func TestDependencies(t *testing.T) {
	pkgs := goList(t, module+"/core/...", module+"/lsp/...", module+"/mcp/...")
	imports := map[string][]string{}
	for _, p := range pkgs {
		imports[p.ImportPath] = p.Imports
	}
	if _, ok := imports[diskBoundary]; !ok {
		t.Fatalf("go list does not report %s: the test cannot see the layout", diskBoundary)
	}
	for _, p := range pkgs {
		pkg := p.ImportPath
		if under(pkg, module+"/core") {
			checkCore(t, imports, p)
		}
		if under(pkg, module+"/lsp") {
			checkFrontEnd(t, p, lspMayImport)
		}
		if under(pkg, module+"/mcp") {
			checkFrontEnd(t, p, mcpMayImport)
		}
		for i, fe := range frontEnds {
			other := frontEnds[1-i]
			if !under(pkg, fe) {
				continue
			}
			if chain := importChain(imports, pkg, func(p string) bool { return under(p, other) }); chain != nil && !under(chain[1], fe) {
				t.Errorf("%s depends on %s (%s): the language server and the MCP server are separate front ends over core", pkg, other, strings.Join(chain, " → "))
			}
		}
	}
}

// checkFrontEnd checks that a package of a front end imports of core only
// what mayImport (lspMayImport, mcpMayImport) allows.
func checkFrontEnd(t *testing.T, p listedPackage, mayImport map[string]string) {
	for _, imp := range p.Imports {
		rel, ok := strings.CutPrefix(imp, module+"/")
		if !ok || !under(rel, "core") {
			continue
		}
		if _, allowed := mayImport[rel]; !allowed {
			t.Errorf("%s imports %s: a front end converts what core/memory and core/rules plan; move the planning there", p.ImportPath, imp)
		}
	}
}

// checkCore checks one package under core: no file system outside the
// store, no protocol library in its closure. A dependency reached through
// another core package is reported for that package only.
func checkCore(t *testing.T, imports map[string][]string, p listedPackage) {
	if !under(p.ImportPath, diskBoundary) {
		for _, imp := range p.Imports {
			if osImport(imp) {
				t.Errorf("%s imports %s: only %s touches the file system; use what it offers, or add it there", p.ImportPath, imp, diskBoundary)
			}
		}
	}
	for _, m := range protocolModules {
		chain := importChain(imports, p.ImportPath, func(p string) bool { return under(p, m) })
		if chain != nil && !under(chain[1], module+"/core") {
			t.Errorf("%s depends on %s (%s): core knows no protocol library", p.ImportPath, m, strings.Join(chain, " → "))
		}
	}
}

// under reports whether pkg is path or a package below it.
func under(pkg, path string) bool {
	return pkg == path || strings.HasPrefix(pkg, path+"/")
}

// importChain is the shortest chain of imports from pkg to a package that
// matches, pkg first; nil when there is none.
func importChain(imports map[string][]string, pkg string, match func(string) bool) []string {
	prev := map[string]string{pkg: ""}
	queue := []string{pkg}
	for len(queue) > 0 {
		p := queue[0]
		queue = queue[1:]
		for _, imp := range imports[p] {
			if _, seen := prev[imp]; seen {
				continue
			}
			prev[imp] = p
			if match(imp) {
				var chain []string
				for q := imp; q != ""; q = prev[q] {
					chain = append(chain, q)
				}
				slices.Reverse(chain)
				return chain
			}
			queue = append(queue, imp)
		}
	}
	return nil
}

// goList lists the packages matching patterns and everything they import
// (build files only: tests may use what they like).
func goList(t *testing.T, patterns ...string) []listedPackage {
	t.Helper()
	args := append([]string{"list", "-deps", "-e", "-json=ImportPath,Dir,Imports,Error"}, patterns...)
	cmd := exec.Command("go", args...)
	var stderr bytes.Buffer
	cmd.Stderr = &stderr
	out, err := cmd.Output()
	if err != nil {
		t.Fatalf("go %s: %v\n%s", strings.Join(args, " "), err, stderr.Bytes())
	}
	var pkgs []listedPackage
	dec := json.NewDecoder(bytes.NewReader(out))
	for {
		var p listedPackage
		err := dec.Decode(&p)
		if errors.Is(err, io.EOF) {
			break
		}
		if err != nil {
			t.Fatalf("reading go list's output: %v", err)
		}
		if p.Error != nil {
			t.Errorf("go list: %s: %s", p.ImportPath, p.Error.Err)
		}
		pkgs = append(pkgs, p)
		if under(p.ImportPath, module) {
			noteSources(t, p.Dir)
		}
	}
	return pkgs
}

// noteSources lists dir, a listed package's folder, so that go test's cache,
// which cannot see what the go list process read, keys this test's result
// on the folder's files (their names, sizes and times): an import added to
// one of them runs the test again instead of replaying a pass.
func noteSources(t *testing.T, dir string) {
	if _, err := os.ReadDir(dir); err != nil {
		t.Fatalf("listing %s: %v", dir, err)
	}
}

// TestArchitectureDiagram: the bird's-eye view of ARCHITECTURE.md names,
// for every package of the module, what it imports of the module (tests
// and internal/ aside), and nothing else: a diagram that goes stale misleads
// the newcomer it is for.
func TestArchitectureDiagram(t *testing.T) {
	doc, err := os.ReadFile("../ARCHITECTURE.md")
	if err != nil {
		t.Fatal(err)
	}
	_, view, ok := strings.Cut(string(doc), "## Bird's-eye view")
	if !ok {
		t.Fatal("ARCHITECTURE.md has no \"## Bird's-eye view\"")
	}
	_, view, _ = strings.Cut(view, "```\n")
	view, _, ok = strings.Cut(view, "```")
	if !ok {
		t.Fatal("ARCHITECTURE.md's bird's-eye view has no diagram in a fenced block")
	}
	drawn := map[string][]string{} // package → what the diagram says it imports
	var last []string
	for _, line := range strings.Split(view, "\n") {
		if strings.TrimSpace(line) == "" {
			continue
		}
		left, right, arrow := strings.Cut(line, "──►")
		if !arrow {
			// a continuation of the line above: more imports
			for _, p := range last {
				drawn[p] = append(drawn[p], diagramNames(line)...)
			}
			continue
		}
		last = diagramNames(left)
		for _, p := range last {
			drawn[p] = diagramNames(right)
		}
	}
	pkgs := goList(t, module+"/cmd/...", module+"/core/...", module+"/lsp/...", module+"/mcp/...")
	for _, p := range pkgs {
		rel, ok := strings.CutPrefix(p.ImportPath, module+"/")
		if !ok || strings.HasPrefix(rel, "internal/") || strings.HasSuffix(rel, "test") || p.Dir == "" || !hasBuildFiles(p.Dir) {
			continue
		}
		var real []string
		for _, imp := range p.Imports {
			if r, ok := strings.CutPrefix(imp, module+"/"); ok && !strings.HasPrefix(r, "internal/") {
				real = append(real, r)
			}
		}
		want, ok := drawn[rel]
		if !ok {
			t.Errorf("ARCHITECTURE.md's diagram does not show %s (it imports %v)", rel, real)
			continue
		}
		slices.Sort(real)
		want = slices.Clone(want)
		slices.Sort(want)
		if !slices.Equal(real, want) {
			t.Errorf("ARCHITECTURE.md's diagram says %s imports %v; it imports %v", rel, want, real)
		}
		delete(drawn, rel)
	}
	for p := range drawn {
		t.Errorf("ARCHITECTURE.md's diagram shows %s, which is no package of the module", p)
	}
}

// diagramNames are the package paths of one side of a diagram line, the
// notes in parentheses and "nothing of this module" aside.
func diagramNames(s string) []string {
	var out []string
	for {
		a, rest, ok := strings.Cut(s, "(")
		if !ok {
			break
		}
		_, after, _ := strings.Cut(rest, ")")
		s = a + after
	}
	for _, f := range strings.FieldsFunc(s, func(r rune) bool { return r == ',' || r == ' ' }) {
		if strings.Contains(f, "/") || f == "lsp" || f == "mcp" {
			out = append(out, f)
		}
	}
	return out
}

// hasBuildFiles reports whether dir holds a Go file that is not a test.
func hasBuildFiles(dir string) bool {
	es, err := os.ReadDir(dir)
	if err != nil {
		return false
	}
	for _, e := range es {
		if n := e.Name(); strings.HasSuffix(n, ".go") && !strings.HasSuffix(n, "_test.go") {
			return true
		}
	}
	return false
}
