package memory

import (
	"path"
	"slices"
	"strings"

	"github.com/memory-lsp/memory-lsp/core/refs"
)

// manifestRead is one manifest file as read: its names, or not readable.
type manifestRead struct {
	m  refs.Manifest
	ok bool
}

// Manifest is tool's manifest in dir, looked for from the root, then from
// the top; each file is read once. File is shown from the root when it lies
// below it.
func (r *repo) Manifest(tool refs.Tool, dir string) (refs.Manifest, bool) {
	folders := r.candidates(dir)
	if dir == "" {
		folders = []string{r.rootRel}
		if r.rootRel != "" {
			folders = append(folders, "")
		}
	}
	for _, folder := range folders {
		for _, name := range refs.ManifestNames(tool) {
			f := join(folder, name)
			if isDir, ok := r.p.Stat(f); !ok || isDir {
				continue
			}
			read := r.manifestAt(tool, f)
			return read.m, read.ok
		}
	}
	return refs.Manifest{}, false
}

// manifestAt is the manifest file f (from the top) of tool, read once.
func (r *repo) manifestAt(tool refs.Tool, f string) manifestRead {
	return r.manifests.get(f, func() manifestRead {
		src, err := r.p.ReadFile(f)
		if err != nil {
			return manifestRead{}
		}
		m, ok := refs.ParseManifest(tool, src)
		m.File = r.shown(f)
		return manifestRead{m, ok}
	})
}

// maxManifestsBelow bounds the manifests ListedBelow reads: in a
// repository of more subprojects than that, a name the root's manifest
// lacks is taken for some subproject's without reading them all.
const maxManifestsBelow = 200

// ListedBelow: the manifests of tool in the folders below the workspace
// root, found in the project's file list once per tool and each read once.
func (r *repo) ListedBelow(tool refs.Tool, name string) bool {
	files := r.manifestsBelow.get(tool.String(), func() []string {
		var out []string
		prefix := ""
		if r.rootRel != "" {
			prefix = r.rootRel + "/"
		}
		names := refs.ManifestNames(tool)
		i, _ := slices.BinarySearch(r.p.Files, prefix)
		for ; i < len(r.p.Files) && strings.HasPrefix(r.p.Files[i], prefix); i++ {
			f := r.p.Files[i]
			if rest := f[len(prefix):]; strings.Contains(rest, "/") && slices.Contains(names, path.Base(f)) {
				out = append(out, f)
			}
		}
		return out
	})
	if len(files) > maxManifestsBelow {
		return true
	}
	for _, f := range files {
		if read := r.manifestAt(tool, f); read.ok && slices.Contains(read.m.Names, name) {
			return true
		}
	}
	return false
}

// Pins are what the pin files directly in the root, then directly in the
// top, state for subject; they are read once, on the first call.
func (r *repo) Pins(subject string) []refs.Pin {
	return r.pins.get(r.readPins)[subject]
}

func (r *repo) readPins() map[string][]refs.Pin {
	pins := map[string][]refs.Pin{}
	folders := []string{r.rootRel}
	if r.rootRel != "" {
		folders = append(folders, "")
	}
	for _, folder := range folders {
		for _, f := range r.filesIn(folder) {
			if !refs.PinFile(path.Base(f)) {
				continue
			}
			src, err := r.p.ReadFile(f)
			if err != nil {
				continue
			}
			for _, p := range refs.ParsePins(r.shown(f), src) {
				pins[p.Subject] = append(pins[p.Subject], p.Pin)
			}
		}
	}
	return pins
}

// filesIn lists the files directly in folder (top-relative, "" for the
// top), from the sorted list of the project's files.
func (r *repo) filesIn(folder string) []string {
	files := r.p.Files
	if folder == "" {
		var out []string
		for _, f := range files {
			if !strings.Contains(f, "/") {
				out = append(out, f)
			}
		}
		return out
	}
	prefix := folder + "/"
	i, _ := slices.BinarySearch(files, prefix)
	var out []string
	for ; i < len(files) && strings.HasPrefix(files[i], prefix); i++ {
		if !strings.Contains(files[i][len(prefix):], "/") {
			out = append(out, files[i])
		}
	}
	return out
}

func join(dir, name string) string {
	if dir == "" {
		return name
	}
	return dir + "/" + name
}
