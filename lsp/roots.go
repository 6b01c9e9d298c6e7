package lsp

import (
	"errors"
	"fmt"
	"io/fs"
	"path/filepath"
	"slices"
	"strings"

	protocol "github.com/tliron/glsp/protocol_3_16"

	"github.com/memory-lsp/memory-lsp/core/memory"
	"github.com/memory-lsp/memory-lsp/core/store"
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
	if !isMemoryFile(p) {
		return "", "", &memory.InputError{Field: field, Problem: fmt.Sprintf("%s is not a memory file (an .md file directly inside a .memory folder)", p)}
	}
	if root, err = s.allowedRoot(field, rootOf(p)); err != nil {
		return "", "", err
	}
	path = filepath.Join(memoryDir(root), filepath.Base(p))
	r, err := store.ResolveIn(memoryDir(root), path)
	switch {
	case err != nil && store.FailedStep(err) == store.LookingAtPath:
		// absent (a write creates it), or the write will say why not
	case err != nil:
		return "", "", &memory.InputError{Field: field, Problem: fmt.Sprintf("%s is a symlink that cannot be resolved: %v", path, pathProblem(err))}
	case !r.Inside:
		return "", "", &memory.InputError{Field: field, Problem: fmt.Sprintf("%s is a symlink to %s, outside %s", path, r.Link, memoryDir(root))}
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
	real, err := filepath.EvalSymlinks(p)
	if err != nil {
		return "", &memory.InputError{Field: field, Problem: fmt.Sprintf("%s is not a workspace folder, nor a folder inside one: %v", p, pathProblem(err))}
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
		inside = inside || store.Within(rr, real)
	}
	for _, f := range single {
		r := filepath.Dir(f.dir)
		if resolved(r) == real && store.IsDir(f.dir) && sameFolder(resolved(f.dir), f.key) {
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
	if !store.IsDir(memoryDir(p)) {
		return "", &memory.InputError{Field: field, Problem: fmt.Sprintf("%s is inside a workspace folder but holds no .memory folder", p)}
	}
	return p, checkMemoryDir(field, p)
}

// checkMemoryDir refuses a root whose .memory is a symlink leading out of
// the root (the store refuses it too; this names the argument).
func checkMemoryDir(field, root string) error {
	dir := memoryDir(root)
	r, err := store.ResolveIn(root, dir)
	switch {
	case err != nil && store.FailedStep(err) == store.LookingAtPath:
		return nil // absent: a write creates it inside root
	case err != nil:
		return &memory.InputError{Field: field, Problem: fmt.Sprintf("%s is a symlink that cannot be resolved: %v", dir, pathProblem(err))}
	case !r.Inside:
		return &memory.InputError{Field: field, Problem: fmt.Sprintf("%s is a symlink to %s, outside %s", dir, r.Link, root)}
	}
	return nil
}

// resolved is p with its symlinks resolved, or p itself when that fails
// (a folder that does not exist resolves to nothing but its own path).
func resolved(p string) string {
	if r, err := filepath.EvalSymlinks(p); err == nil {
		return r
	}
	return filepath.Clean(p)
}

// pathProblem is the reason of a file-system error without the operation
// and path that the message around it already names.
func pathProblem(err error) error {
	var pe *fs.PathError
	if errors.As(err, &pe) {
		if errors.Is(pe.Err, fs.ErrNotExist) {
			return errors.New("it does not exist")
		}
		return pe.Err
	}
	return err
}
