package lsptest

import (
	"os"
	"testing"
)

// AppendInPlace appends to a file without replacing it, as HackLM and a
// person's shell write.
func AppendInPlace(tb testing.TB, path, text string) {
	tb.Helper()
	f, err := os.OpenFile(path, os.O_WRONLY|os.O_APPEND, 0)
	if err != nil {
		tb.Fatal(err)
	}
	defer f.Close()
	if _, err := f.WriteString(text); err != nil {
		tb.Fatal(err)
	}
}
