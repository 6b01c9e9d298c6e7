package lsp

import (
	"fmt"
	"path/filepath"
	"slices"
	"strings"

	protocol "github.com/tliron/glsp/protocol_3_16"

	"github.com/memory-lsp/memory-lsp/core/memory"
)

// Commands write into <root>/.memory, and their root and uri arguments come
// from whoever can send the server a request: an agent told what to pass by
// text it read, a repository's editor configuration. So a command acts only
// where the client pointed the server itself: a workspace folder, a folder
// inside one, or the folder of a memory file the client opened (single-file
// mode). Paths are compared after filepath.EvalSymlinks on both sides, so
// "..", percent-encoded dots, and symlinks inside a workspace folder cannot
// lead a write out of it; everything else is refused with an InputError that
// names the argument and the path.

// commandRoot picks the workspace a command acts on: the root argument,
// else the first workspace folder.
func (s *Server) commandRoot(arg string) (string, error) {
	if arg == "" {
		s.mu.Lock()
		roots := slices.Clone(s.roots)
		s.mu.Unlock()
		if len(roots) == 0 {
			return "", &memory.InputError{Field: "root", Problem: "no workspace folder is open; pass the folder that holds .memory as \"root\""}
		}
		return roots[0], checkMemoryDir("root", roots[0])
	}
	p, err := argPath("root", arg)
	if err != nil {
		return "", err
	}
	return s.allowedRoot("root", p)
}

// commandFile resolves a uri argument naming one memory file: an .md file
// directly inside the .memory folder of a root commandRoot would accept. A
// file that is a symlink must stay inside that .memory folder. It returns
// the file's path as the server's view names it, and its root.
func (s *Server) commandFile(field, arg string) (path, root string, err error) {
	p, err := argPath(field, arg)
	if err != nil {
		return "", "", err
	}
	if !memory.IsMemoryFile(p) {
		return "", "", &memory.InputError{Field: field, Problem: fmt.Sprintf("%s is not a memory file (an .md file directly inside a .memory folder)", p)}
	}
	if root, err = s.allowedRoot(field, rootOf(p)); err != nil {
		return "", "", err
	}
	path = filepath.Join(memory.Dir(root), filepath.Base(p))
	if err := memory.StaysIn(field, memory.Dir(root), path); err != nil {
		return "", "", err
	}
	return path, root, nil
}

// argPath turns a root or uri argument, a file: URI or an absolute path,
// into a clean absolute path.
func argPath(field, arg string) (string, error) {
	scheme, ok := uriScheme(arg)
	switch {
	case ok && strings.EqualFold(scheme, "file"):
		p, err := pathOf(protocol.DocumentUri(arg))
		if err != nil {
			return "", &memory.InputError{Field: field, Problem: err.Error()}
		}
		return p, nil
	case ok:
		return "", &memory.InputError{Field: field, Problem: fmt.Sprintf("%q is not a file: URI; pass an absolute path or a file:// URI", arg)}
	case !filepath.IsAbs(arg):
		return "", &memory.InputError{Field: field, Problem: fmt.Sprintf("%q is a relative path; pass an absolute path or a file:// URI", arg)}
	}
	return filepath.Clean(arg), nil
}

// uriScheme is the scheme of s when s starts with one (RFC 3986: a letter,
// then letters, digits, "+", "-" or ".", then ":").
func uriScheme(s string) (string, bool) {
	i := strings.IndexByte(s, ':')
	if i <= 0 {
		return "", false
	}
	for k, c := range []byte(s[:i]) {
		letter := c >= 'a' && c <= 'z' || c >= 'A' && c <= 'Z'
		if !letter && (k == 0 || !(c >= '0' && c <= '9' || c == '+' || c == '-' || c == '.')) {
			return "", false
		}
	}
	return s[:i], true
}

// allowedRoot accepts p, a clean absolute path, as a command's root when,
// symlinks resolved, it is a workspace folder, or a folder inside one that
// holds .memory, or the folder holding the .memory of a memory file opened
// outside every workspace folder, provided that .memory exists (so opening
// some /X/.memory/x.md authorises that one existing folder and nothing else
// under /X). It returns the root as the server names it, so that open
// buffers are found in its view. Its .memory may not be a symlink out of it.
func (s *Server) allowedRoot(field, p string) (string, error) {
	real, err := memory.RealPath(p)
	if err != nil {
		return "", &memory.InputError{Field: field, Problem: fmt.Sprintf("%s is not a workspace folder, nor a folder inside one: %v", p, err)}
	}
	s.mu.Lock()
	roots := slices.Clone(s.roots)
	var single []*folder // folders served only for an open file
	for _, f := range s.folders {
		if !f.root && len(f.docs) > 0 {
			single = append(single, f)
		}
	}
	s.mu.Unlock()
	inside := false
	for _, r := range roots {
		rr := resolved(r)
		if rr == real {
			return r, checkMemoryDir(field, r)
		}
		_, below := memory.RootRelative(rr, real)
		inside = inside || below
	}
	for _, f := range single {
		r := filepath.Dir(f.dir)
		if resolved(r) == real && memory.HasDir(r) && sameFolder(resolved(f.dir), f.key) {
			return r, checkMemoryDir(field, r)
		}
	}
	if !inside {
		via := ""
		if real != p {
			via = fmt.Sprintf(" (it resolves to %s)", real)
		}
		folders := "none is open"
		if len(roots) > 0 {
			folders = strings.Join(roots, ", ")
		}
		return "", &memory.InputError{Field: field, Problem: fmt.Sprintf("%s is not a workspace folder, nor a folder inside one (%s), nor the folder of an open memory file whose .memory exists%s", p, folders, via)}
	}
	if !memory.HasDir(p) {
		return "", &memory.InputError{Field: field, Problem: fmt.Sprintf("%s is inside a workspace folder but holds no .memory folder", p)}
	}
	return p, checkMemoryDir(field, p)
}

// checkMemoryDir refuses a root whose .memory is a symlink leading out of
// the root (the store refuses it too; this names the argument).
func checkMemoryDir(field, root string) error {
	return memory.StaysIn(field, root, memory.Dir(root))
}

// resolved is p with its symlinks resolved, or p itself when that fails
// (a folder that does not exist resolves to nothing but its own path).
func resolved(p string) string {
	if r, err := memory.RealPath(p); err == nil {
		return r
	}
	return filepath.Clean(p)
}
