//go:build unix

package config

import (
	"path/filepath"
	"strings"
	"syscall"
	"testing"
)

// TestLoadRefusesAPipe: a named pipe is refused, naming it, without being
// opened (opening it for reading would wait for a writer; a regression hangs
// until the test binary's timeout).
func TestLoadRefusesAPipe(t *testing.T) {
	p := filepath.Join(t.TempDir(), "settings.json")
	if err := syscall.Mkfifo(p, 0o600); err != nil {
		t.Skipf("mkfifo: %v", err)
	}
	_, err := load(Default(), p)
	if want := "reading config " + p + ": not a regular file but a named pipe"; err == nil || !strings.Contains(err.Error(), want) {
		t.Errorf("err = %v, want %q", err, want)
	}
}

// TestLoadRefusesADevice: /dev/zero would be read forever.
func TestLoadRefusesADevice(t *testing.T) {
	_, err := load(Default(), "/dev/zero")
	if want := "reading config /dev/zero: not a regular file but a device"; err == nil || !strings.Contains(err.Error(), want) {
		t.Errorf("err = %v, want %q", err, want)
	}
}
