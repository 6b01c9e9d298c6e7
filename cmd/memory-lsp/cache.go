package main

import (
	"math"
	"os"
	"path/filepath"
	"runtime/debug"
	"strings"
)

// cacheEnv places or turns off what the CLI keeps between runs (the
// history's moves): "off" turns it off, a folder puts it there; unset, it lives in the
// user's cache folder (os.UserCacheDir: $XDG_CACHE_HOME or ~/.cache on
// Linux, ~/Library/Caches on macOS), under memory-lsp/.
const cacheEnv = "MEMORY_LSP_CACHE"

// cacheFolder is the folder in which the CLI keeps what it keeps between
// runs (the history's moves), or "" for none: turned off, or no cache
// folder.
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

// queryGC turns the collector's proportional pacing off for a query, unless
// GOGC says otherwise: a query reads the memory files, allocates a few
// megabytes and exits, and each collection the default pacing starts at a
// 4 MB heap costs more than the memory it would give back
// (BenchmarkQueryProcess).
// The soft memory limit main sets (cliMemoryLimit) stays the guard, so a
// query that scans a very large workspace is still collected near it; with
// no limit (GOMEMLIMIT=off) the pacing is left as it is.
func queryGC() {
	if os.Getenv("GOGC") == "" && debug.SetMemoryLimit(-1) < math.MaxInt64 {
		debug.SetGCPercent(-1)
	}
}
