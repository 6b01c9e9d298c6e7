package refs

import "strings"

// dockerfilePins reads the images a Dockerfile builds FROM, by their tag:
// `FROM node:22-alpine AS build` pins node. A stage built earlier in the
// file (`FROM build`), scratch, an image without a tag or one named by a
// build argument pins nothing.
func dockerfilePins(src []byte) []Pinned {
	var out []Pinned
	stages := map[string]bool{}
	for num, line := range makeLines(src) {
		word, rest := cutWord(line)
		if !strings.EqualFold(word, "FROM") {
			continue
		}
		f := strings.Fields(rest)
		for len(f) > 0 && strings.HasPrefix(f[0], "--") { // --platform=…
			f = f[1:]
		}
		if len(f) == 0 {
			continue
		}
		if stages[strings.ToLower(f[0])] {
			continue
		}
		if name, tag, ok := imageTag(f[0]); ok {
			out = append(out, Pinned{name, Pin{Value: tag, Line: num}})
		}
		if len(f) >= 3 && strings.EqualFold(f[1], "AS") {
			stages[strings.ToLower(f[2])] = true
		}
	}
	return out
}

// composePins reads the `image: name:tag` lines of a compose file.
func composePins(src []byte) []Pinned {
	var out []Pinned
	for num, line := range lines(src) {
		body := strings.TrimSpace(cutYAMLComment(line))
		body = strings.TrimPrefix(body, "- ")
		key, value, ok := yamlKey(body)
		if !ok || key != "image" {
			continue
		}
		if name, tag, ok := imageTag(unquoteYAML(value)); ok {
			out = append(out, Pinned{name, Pin{Value: tag, Line: num}})
		}
	}
	return out
}

// imageTag splits an image reference (`docker.io/library/node:22@sha256:…`,
// `ghcr.io/org/app:1.4`, `localhost:5000/app:2`) into the name as an entry
// cites it (lower case, without docker.io/ and library/) and its tag. ok is
// false without a tag, for scratch, and for a reference with a variable.
func imageTag(ref string) (name, tag string, ok bool) {
	if ref == "" || strings.ContainsAny(ref, "${}") {
		return "", "", false
	}
	ref, _, _ = strings.Cut(ref, "@") // a digest
	colon := strings.LastIndexByte(ref, ':')
	if colon < 0 || colon < strings.LastIndexByte(ref, '/') {
		return "", "", false
	}
	name, tag = strings.ToLower(ref[:colon]), ref[colon+1:]
	for _, p := range []string{"index.docker.io/", "docker.io/", "library/"} {
		name = strings.TrimPrefix(name, p)
	}
	if name == "" || tag == "" || name == "scratch" {
		return "", "", false
	}
	return name, tag, true
}
