package main

import (
	"context"
	"fmt"
	"os"
	"path/filepath"

	"github.com/memory-lsp/memory-lsp/core/rules"
	"github.com/memory-lsp/memory-lsp/core/store"
	"github.com/memory-lsp/memory-lsp/core/text"
)

// target is one workspace to check and, when the user named files, the only
// files whose findings are reported (the rest are still read: duplicate slugs
// and near-duplicates cross files).
type target struct {
	root  string
	files map[string]bool
}

func resolveTargets(e *env, paths []string) ([]*target, error) {
	if len(paths) == 0 {
		return []*target{{root: e.root}}, nil
	}
	byRoot := map[string]*target{}
	var out []*target
	for _, p := range paths {
		abs, err := filepath.Abs(p)
		if err != nil {
			return nil, err
		}
		fi, err := os.Stat(abs)
		if err != nil {
			return nil, fmt.Errorf("checking %s: %w", p, err)
		}
		var root, file string
		switch {
		case !fi.IsDir():
			if root, file, err = memoryFileTarget(p, abs); err != nil {
				return nil, err
			}
		case filepath.Base(abs) == store.DirName:
			root = filepath.Dir(abs)
		default:
			if fi, err := os.Stat(filepath.Join(abs, store.DirName)); err != nil || !fi.IsDir() {
				return nil, fmt.Errorf("checking %s: no %s folder there", p, store.DirName)
			}
			root = abs
		}
		t := byRoot[root]
		if t == nil {
			t = &target{root: root}
			byRoot[root] = t
			out = append(out, t)
		}
		if file != "" {
			if t.files == nil {
				t.files = map[string]bool{}
			}
			t.files[file] = true
		} else {
			t.files = nil // the whole workspace was asked for
		}
	}
	return out, nil
}

// memoryFileTarget finds the workspace root of a file PATH given to check.
// check reads, and --fix writes, only memory files, so PATH must be a file
// directly inside a `.memory` folder once symlinks are resolved: ".." and
// links are followed, never trusted by name. A PATH in a `.memory` folder
// that is a symlink leading out of that folder is refused (the store would
// not read or write through it either); a PATH elsewhere that is a symlink
// to a memory file stands for that file. A directory PATH, like --root, may
// be a symlink: it names that workspace, whose .memory is the only place
// written.
func memoryFileTarget(p, abs string) (root, file string, err error) {
	if filepath.Base(filepath.Dir(abs)) == store.DirName {
		if li, err := os.Lstat(abs); err == nil && li.Mode()&os.ModeSymlink != 0 {
			real, err := filepath.EvalSymlinks(abs)
			if err != nil {
				return "", "", fmt.Errorf("checking %s: %w", p, err)
			}
			dir, err := filepath.EvalSymlinks(filepath.Dir(abs))
			if err != nil {
				return "", "", fmt.Errorf("checking %s: %w", p, err)
			}
			if rel, err := filepath.Rel(dir, real); err != nil || rel == ".." || startsWithDotDot(rel) {
				return "", "", fmt.Errorf("refusing %s: it is a symlink to %s, outside its %s folder, so it is neither checked nor fixed", p, real, store.DirName)
			}
		}
		return filepath.Dir(filepath.Dir(abs)), abs, nil
	}
	real, err := filepath.EvalSymlinks(abs)
	if err != nil {
		return "", "", fmt.Errorf("checking %s: %w", p, err)
	}
	if filepath.Base(filepath.Dir(real)) != store.DirName {
		return "", "", usagef("%s is not a file directly inside a %s folder: check reads, and --fix writes, only memory files", p, store.DirName)
	}
	return filepath.Dir(filepath.Dir(real)), real, nil
}

type jsonPos struct {
	Path   string `json:"path"`
	Line   int    `json:"line"`
	Column int    `json:"column"`
}

type jsonFinding struct {
	jsonPos
	File      string        `json:"file"`
	EndLine   int           `json:"endLine"`
	EndColumn int           `json:"endColumn"`
	Severity  string        `json:"severity"`
	Code      string        `json:"code"`
	Message   string        `json:"message"`
	Related   []jsonRelated `json:"related,omitempty"`
	Fixes     []jsonFix     `json:"fixes,omitempty"`
}

type jsonRelated struct {
	jsonPos
	Message string `json:"message"`
}

type jsonFix struct {
	Title string `json:"title"`
	Safe  bool   `json:"safe"`
}

type checkSummary struct {
	Files    int `json:"files"`
	Errors   int `json:"errors"`
	Warnings int `json:"warnings"`
	Infos    int `json:"infos"`
	Hints    int `json:"hints"`
}

func runCheck(ctx context.Context, e *env, a *parsedArgs) (int, error) {
	targets, err := resolveTargets(e, a.pos)
	if err != nil {
		return exitError, err
	}
	var (
		lines   []string
		out     []jsonFinding
		fixed   []string
		summary checkSummary
	)
	for _, t := range targets {
		e.root = t.root
		svc, err := e.service()
		if err != nil {
			return exitError, err
		}
		if a.set["fix"] {
			names, err := svc.Fix(ctx)
			if err != nil {
				return exitError, err
			}
			for _, n := range names {
				fixed = append(fixed, display(filepath.Join(svc.WS.Dir, n)))
			}
		}
		files, findings, err := svc.Check()
		if err != nil {
			return exitError, err
		}
		if len(files) == 0 && len(a.pos) == 0 {
			return exitError, fmt.Errorf("no %s folder in %s or any folder above it (run `memory-lsp init` to create one)", store.DirName, display(t.root))
		}
		idx := make([]*text.Index, len(files))
		index := func(i int) *text.Index {
			if idx[i] == nil {
				idx[i] = text.NewIndex(files[i].Doc.Src)
			}
			return idx[i]
		}
		for _, f := range files {
			if t.files == nil || t.files[f.Path] {
				summary.Files++
			}
		}
		for _, f := range findings {
			file := files[f.File]
			if t.files != nil && !t.files[file.Path] {
				continue
			}
			switch f.Severity {
			case rules.Error:
				summary.Errors++
			case rules.Warning:
				summary.Warnings++
			case rules.Information:
				summary.Infos++
			default:
				summary.Hints++
			}
			if !e.json {
				lines = append(lines, rules.FormatText(display(file.Path), file.Doc, f))
				continue
			}
			out = append(out, toJSON(files, index, f))
		}
	}
	if e.json {
		writeJSON(e.stdout, map[string]any{"findings": nonNil(out), "fixed": nonNil(fixed), "summary": summary})
	} else {
		for _, l := range lines {
			fmt.Fprintln(e.stdout, l)
		}
		for _, f := range fixed {
			fmt.Fprintf(e.stderr, "fixed %s\n", f)
		}
		fmt.Fprintf(e.stderr, "%s checked: %s, %s, %s, %s\n", plural(summary.Files, "file"), plural(summary.Errors, "error"),
			plural(summary.Warnings, "warning"), plural(summary.Infos, "info"), plural(summary.Hints, "hint"))
	}
	if summary.Errors > 0 {
		return exitFindings, nil
	}
	return exitOK, nil
}

func toJSON(files []rules.File, index func(int) *text.Index, f rules.Finding) jsonFinding {
	pos := func(file int, off int) (int, int) {
		p, err := index(file).Position(off)
		if err != nil {
			return 0, 0
		}
		return p.Line + 1, p.Col + 1
	}
	file := files[f.File]
	l, c := pos(f.File, f.Span.Start)
	el, ec := pos(f.File, f.Span.End)
	jf := jsonFinding{jsonPos: jsonPos{Path: display(file.Path), Line: l, Column: c}, File: file.Name, EndLine: el, EndColumn: ec,
		Severity: f.Severity.String(), Code: f.Code, Message: f.Message}
	for _, r := range f.Related {
		rl, rc := pos(r.File, r.Span.Start)
		jf.Related = append(jf.Related, jsonRelated{jsonPos: jsonPos{Path: display(files[r.File].Path), Line: rl, Column: rc}, Message: r.Message})
	}
	for _, fx := range f.Fixes {
		jf.Fixes = append(jf.Fixes, jsonFix{Title: fx.Title, Safe: fx.Safe})
	}
	return jf
}

// display shows a path relative to the current directory when it is below it.
func display(p string) string {
	wd, err := os.Getwd()
	if err != nil {
		return p
	}
	if rel, err := filepath.Rel(wd, p); err == nil && !filepath.IsAbs(rel) && rel != ".." && !startsWithDotDot(rel) {
		return rel
	}
	return p
}

func startsWithDotDot(rel string) bool {
	return len(rel) >= 3 && rel[:3] == ".."+string(filepath.Separator)
}

func plural(n int, word string) string {
	if n == 1 {
		return "1 " + word
	}
	return fmt.Sprintf("%d %ss", n, word)
}

// nonNil makes empty lists print as [] rather than null.
func nonNil[T any](s []T) []T {
	if s == nil {
		return []T{}
	}
	return s
}
