package lsp

import (
	"fmt"
	"net/url"
	"path/filepath"
	"strings"

	protocol "github.com/tliron/glsp/protocol_3_16"
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
	// A host names another machine's file (a UNC path on Windows), which
	// this server cannot mean; only the local forms are accepted.
	if u.Host != "" && !strings.EqualFold(u.Host, "localhost") {
		return "", fmt.Errorf("document URI %q names the host %q; only local files (file:///…) are served", uri, u.Host)
	}
	// An encoded slash decodes into a path separator that was not one in
	// the URI: no editor writes it, and it would hide ".." segments (on
	// Windows a backslash is a separator too).
	ep := strings.ToLower(u.EscapedPath())
	if strings.Contains(ep, "%2f") || (filepath.Separator == '\\' && strings.Contains(ep, "%5c")) {
		return "", fmt.Errorf("document URI %q has an encoded slash in its path", uri)
	}
	p := u.Path
	if p == "" {
		return "", fmt.Errorf("document URI %q has no path", uri)
	}
	p = filepath.Clean(filepath.FromSlash(p))
	if !filepath.IsAbs(p) {
		return "", fmt.Errorf("document URI %q has a relative path", uri)
	}
	return p, nil
}

// uriOf is the file:// URI of an absolute path, percent-encoded as editors
// write it.
func uriOf(path string) protocol.DocumentUri {
	u := url.URL{Scheme: "file", Path: filepath.ToSlash(path)}
	return protocol.DocumentUri(u.String())
}

// rootOf is the workspace root of a memory file: the folder holding .memory.
func rootOf(path string) string { return filepath.Dir(filepath.Dir(path)) }
