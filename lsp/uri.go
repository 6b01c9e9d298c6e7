package lsp

import (
	"fmt"
	"net/url"
	"path/filepath"
	"strings"

	protocol "github.com/tliron/glsp/protocol_3_16"

	"github.com/memory-lsp/memory-lsp/core/store"
)

// pathOf turns a file:// URI into a clean absolute path.
func pathOf(uri protocol.DocumentUri) (string, error) {
	u, err := url.Parse(string(uri))
	if err != nil {
		return "", fmt.Errorf("document URI %q: %w", uri, err)
	}
	if u.Scheme != "file" {
		return "", fmt.Errorf("document URI %q is not a file: URI", uri)
	}
	p := u.Path
	if p == "" {
		return "", fmt.Errorf("document URI %q has no path", uri)
	}
	return filepath.Clean(filepath.FromSlash(p)), nil
}

// uriOf is the file:// URI of an absolute path, percent-encoded as editors
// write it.
func uriOf(path string) protocol.DocumentUri {
	u := url.URL{Scheme: "file", Path: filepath.ToSlash(path)}
	return protocol.DocumentUri(u.String())
}

// isMemoryFile: an .md file directly inside a .memory folder. Decided by
// path alone, so a derived mode in Emacs or a custom language in Helix works
// as well as plain "markdown".
func isMemoryFile(path string) bool {
	return strings.HasSuffix(path, ".md") && filepath.Base(filepath.Dir(path)) == store.DirName
}

// rootOf is the workspace root of a memory file: the folder holding .memory.
func rootOf(path string) string { return filepath.Dir(filepath.Dir(path)) }
