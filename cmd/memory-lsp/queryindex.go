package main

import (
	"crypto/sha256"
	"encoding/hex"
	"math"
	"os"
	"path/filepath"
	"runtime/debug"
	"strings"
)

// cacheEnv places or turns off what the CLI keeps between runs (the query
// index, the history's moves): "off" turns it off, a folder puts it there; unset, it lives in the
// user's cache folder (os.UserCacheDir: $XDG_CACHE_HOME or ~/.cache on
// Linux, ~/Library/Caches on macOS), under memory-lsp/.
const cacheEnv = "MEMORY_LSP_CACHE"

// cacheFolder is the folder in which the CLI keeps what it keeps between
// runs (the query index, the history's moves), or "" for none: turned off,
// or no cache folder.
func cacheFolder(off bool) string {
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
	return base
}

// queryIndexPath is where `query` keeps the index of the memory folder
// memDir, or "" for none (turned off, or no cache folder). Never inside
// .memory/: HackLM users share and commit that folder. One file per memory
// folder, named by a hash of its real path (a symlinked .memory and its
// target share one), replaced whole on each change.
func queryIndexPath(memDir string, off bool) string {
	base := cacheFolder(off)
	if base == "" {
		return ""
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

// queryGC turns the collector's proportional pacing off for a query, unless
// GOGC says otherwise: a query from the index allocates a few megabytes and
// exits, and each collection the default pacing starts at a 4 MB heap costs
// more than the memory it would give back (2 ms of 16 at 100,000 entries).
// The soft memory limit main sets (cliMemoryLimit) stays the guard, so a
// query that scans a very large workspace is still collected near it; with
// no limit (GOMEMLIMIT=off) the pacing is left as it is.
func queryGC() {
	if os.Getenv("GOGC") == "" && debug.SetMemoryLimit(-1) < math.MaxInt64 {
		debug.SetGCPercent(-1)
	}
}
