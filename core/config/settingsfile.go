package config

import (
	"errors"
	"fmt"

	"github.com/memory-lsp/memory-lsp/core/store/regfile"
)

// MaxFileBytes is the largest settings file ReadSettingsFile reads: 1 MiB,
// thousands of times a real one (a few hundred bytes). A larger file is a
// mistake, and reading it whole (a multi-gigabyte file) could exhaust memory.
const MaxFileBytes = 1 << 20

// ReadSettingsFile reads a settings file (--config) for ParseSettings;
// errors name the file. The file must be a regular file (a symlink to one is
// fine) of at most MaxFileBytes: `--config /dev/zero` would otherwise be
// read until memory runs out, and a named pipe would block until someone
// writes to it (regfile.Read checks both, before and after the open).
func ReadSettingsFile(path string) ([]byte, error) {
	data, err := regfile.Read(path, MaxFileBytes)
	var notRegular *regfile.NotRegularError
	var over *regfile.OverLimitError
	var read *regfile.ReadError
	switch {
	case errors.As(err, &notRegular):
		return nil, fmt.Errorf("reading config %s: not a regular file but %s; settings are read from a JSON file", path, notRegular.Kind())
	case errors.As(err, &over):
		return nil, fmt.Errorf("reading config %s: it is %d bytes, over the 1 MiB limit of a settings file", path, over.Size)
	case errors.As(err, &read):
		return nil, fmt.Errorf("reading config %s: %w", path, err)
	case err != nil:
		return nil, fmt.Errorf("reading config: %w", err)
	}
	return data, nil
}
