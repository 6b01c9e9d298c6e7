package store

import (
	"os"
	"path/filepath"
	"slices"
	"strings"
	"time"
)

// A cache file is derived data a front end keeps outside `.memory/` (the
// CLI's record of the history's moves, in the user's cache folder) to skip
// work another run already did. It is never the only copy of anything: a
// reader that finds it missing, unreadable or damaged does the work again,
// so it is written without fsync and never locked, only replaced whole.

// cacheTempAge is how old a temp file in a cache folder must be before
// a writer takes it for the leftover of a crashed one and removes it.
const cacheTempAge = time.Hour

// WriteCacheFile replaces the file at path with data: a temp file in the
// same folder (created, 0700, if missing), renamed over it, so that a
// reader sees the old file or the new one, and two writers at once leave
// one of theirs whole. Then it keeps at most keep files of the folder with
// path's extension, removing the least recently written, so that caches
// of folders gone (temporary workspaces, moved projects) do not pile up.
func WriteCacheFile(path string, data []byte, keep int) error {
	dir := filepath.Dir(path)
	if err := os.MkdirAll(dir, 0o700); err != nil {
		return err
	}
	tmp, err := os.CreateTemp(dir, "."+filepath.Base(path)+tempMarker+"*")
	if err != nil {
		return err
	}
	_, err = tmp.Write(data)
	if cerr := tmp.Close(); err == nil {
		err = cerr
	}
	if err == nil {
		err = os.Rename(tmp.Name(), path)
	}
	if err != nil {
		_ = os.Remove(tmp.Name())
		return err
	}
	pruneCache(dir, filepath.Ext(path), keep)
	return nil
}

// pruneCache removes the files of dir with extension ext beyond the keep
// most recently written, and temp files left by crashed writers.
func pruneCache(dir, ext string, keep int) {
	ents, err := os.ReadDir(dir)
	if err != nil {
		return
	}
	type cached struct {
		path string
		mod  time.Time
	}
	var files []cached
	for _, e := range ents {
		fi, err := e.Info()
		if err != nil || !fi.Mode().IsRegular() {
			continue
		}
		p := filepath.Join(dir, e.Name())
		switch {
		case strings.Contains(e.Name(), tempMarker):
			if time.Since(fi.ModTime()) > cacheTempAge {
				_ = os.Remove(p)
			}
		case filepath.Ext(e.Name()) == ext:
			files = append(files, cached{p, fi.ModTime()})
		}
	}
	if len(files) <= keep {
		return
	}
	slices.SortFunc(files, func(a, b cached) int { return b.mod.Compare(a.mod) })
	for _, f := range files[keep:] {
		_ = os.Remove(f.path)
	}
}
