package main

import (
	"crypto/sha256"
	"encoding/hex"
	"os"
	"path/filepath"
	"strings"
)

// cacheEnv places or turns off what the CLI keeps between runs (the query
// index): "off" turns it off, a folder puts it there; unset, it lives in the
// user's cache folder (os.UserCacheDir: $XDG_CACHE_HOME or ~/.cache on
// Linux, ~/Library/Caches on macOS), under memory-lsp/.
const cacheEnv = "MEMORY_LSP_CACHE"

// queryIndexPath is where `query` keeps the index of the memory folder
// memDir, or "" for none (turned off, or no cache folder). Never inside
// .memory/: HackLM users share and commit that folder. One file per memory
// folder, named by a hash of its real path (a symlinked .memory and its
// target share one), replaced whole on each change.
func queryIndexPath(memDir string, off bool) string {
	base := os.Getenv(cacheEnv)
	if off || strings.EqualFold(base, "off") {
		return ""
	}
	if base == "" {
		d, err := os.UserCacheDir()
		if err != nil {
			return ""
		}
		base = filepath.Join(d, "memory-lsp")
	}
	real, err := filepath.EvalSymlinks(memDir)
	if err != nil {
		return ""
	}
	if real, err = filepath.Abs(real); err != nil {
		return ""
	}
	sum := sha256.Sum256([]byte(real))
	return filepath.Join(base, "query", hex.EncodeToString(sum[:16])+".idx")
}
