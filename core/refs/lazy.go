package refs

import (
	"regexp"
	"sync"
)

// lazyRegexp compiles src on first use. Compiled at package
// initialisation, this package's expressions are compiled by every command
// of the binary, most of which never reads a reference
// (BenchmarkCLIProcess).
func lazyRegexp(src string) func() *regexp.Regexp {
	return sync.OnceValue(func() *regexp.Regexp { return regexp.MustCompile(src) })
}
