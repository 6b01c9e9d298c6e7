package memory

import (
	"errors"
	"fmt"
	"path/filepath"
	"regexp"
	"strings"
	"sync"

	"github.com/memory-lsp/memory-lsp/core/category"
	"github.com/memory-lsp/memory-lsp/core/store"
)

// Pointer blocks: a few lines in a file agents read at startup
// (.github/copilot-instructions.md, AGENTS.md, CLAUDE.md) that point them at
// `.memory/`, between markers so that init can find and refresh its own
// block and leave everything else alone.

// Markers of the pointer blocks. HackLM rewrites its own block on every
// activation, so we never touch it and never add ours beside it in the
// copilot file.
const (
	hackLMBlockStart = "<!-- hacklm-memory:start -->"
	blockStart       = "<!-- memory-lsp:start -->"
	blockEnd         = "<!-- memory-lsp:end -->"
	blockOwner       = "memory-lsp"
)

// InitOptions selects the optional pointer files of Init; each is off by
// default because they are files a team may keep for other purposes.
type InitOptions struct {
	// AgentsMD keeps a pointer block in AGENTS.md at the workspace root.
	AgentsMD bool
	// ClaudeMD keeps a pointer block in CLAUDE.md at the workspace root.
	ClaudeMD bool
}

// pointerBlock is the block, with links to the category files relative to
// the file it goes in (memDir is the path from there to `.memory/`, with a
// trailing slash). It ends with a newline.
func pointerBlock(memDir string) string {
	var b strings.Builder
	b.WriteString(blockStart + "\n## Project memory\n\n")
	b.WriteString("Durable project knowledge lives in `.memory/`, one entry per line (`- [kebab-slug] One concise sentence.`).\n")
	b.WriteString("Read the file that fits the task before answering; always read security.md.\n\n")
	for _, c := range category.All {
		fmt.Fprintf(&b, "- [%s](%s%s)\n", c.File(), memDir, c.File())
	}
	b.WriteString("\nStore new durable facts with the `storeMemory` tool or `memory-lsp store --category <Category> \"<sentence>\"`;\n")
	b.WriteString("the same slug updates an entry instead of duplicating it.\n")
	b.WriteString(blockEnd + "\n")
	return b.String()
}

// pointerFile is one file init keeps a pointer block in.
type pointerFile struct {
	path string
	// onlyIfAbsent: add the block only when neither ours nor HackLM's is
	// there, and never refresh it (the copilot file, which HackLM manages
	// too); otherwise ours is refreshed in place or appended.
	onlyIfAbsent bool
	// memDir is the path from the file to `.memory/`.
	memDir string
	// out is the planned content; write says whether it differs.
	out   string
	write bool
}

// pointerFiles plans the files Init keeps blocks in: each path checked by
// checkPointerPath and each new content computed, so that a refusal comes
// before anything is written.
func (s *Service) pointerFiles(opts InitOptions) ([]pointerFile, error) {
	files := []pointerFile{{path: filepath.Join(s.WS.Root, ".github", "copilot-instructions.md"), onlyIfAbsent: true, memDir: "../.memory/"}}
	if opts.AgentsMD {
		files = append(files, pointerFile{path: filepath.Join(s.WS.Root, "AGENTS.md"), memDir: ".memory/"})
	}
	if opts.ClaudeMD {
		files = append(files, pointerFile{path: filepath.Join(s.WS.Root, "CLAUDE.md"), memDir: ".memory/"})
	}
	for i := range files {
		f := &files[i]
		if err := s.checkPointerPath(f.path); err != nil {
			return nil, err
		}
		cur, err := store.ReadIfExists(f.path)
		if err != nil {
			return nil, fmt.Errorf("reading %s: %w", f.path, err)
		}
		if f.onlyIfAbsent && (strings.Contains(string(cur), hackLMBlockStart) || strings.Contains(string(cur), blockStart)) {
			continue
		}
		if f.out, err = upsertBlock(string(cur), pointerBlock(f.memDir)); err != nil {
			return nil, fmt.Errorf("%s: %w", f.path, err)
		}
		f.write = cur == nil || f.out != string(cur)
	}
	return files, nil
}

// writePointers writes the planned blocks and returns the paths it wrote.
// The files are outside .memory/, so they are written with the same atomic
// replace but without the memory lock.
func (s *Service) writePointers(files []pointerFile) ([]string, error) {
	var wrote []string
	for _, f := range files {
		if !f.write {
			continue
		}
		if err := store.WriteFileCreatingDirs(f.path, []byte(f.out)); err != nil {
			return wrote, err
		}
		wrote = append(wrote, f.path)
	}
	return wrote, nil
}

// markerLine matches a block marker on a line of its own: `<!-- NAME:start -->`
// or `<!-- NAME:end -->`, the convention of HackLM and of other tools that
// manage a part of a shared instructions file. Compiled on first use, as
// every expression a command may not need (package initialisation is paid
// by every run of the binary).
var markerLine = sync.OnceValue(func() *regexp.Regexp { return regexp.MustCompile(`^<!--\s*(\S+?):(start|end)\s*-->$`) })

// errUnterminated is a block start without its end: where the block ends is
// anyone's guess, so the file is left for a person to fix.
var errUnterminated = errors.New("block has no end marker")

// upsertBlock puts block (which ends with a newline) into text: in place of
// our own block if the file has one, else appended after a blank line. A
// block another tool manages (`<!-- NAME:start -->` … `<!-- NAME:end -->`)
// is never changed, and markers of ours inside one are its content, not our
// block. Lines are compared without surrounding whitespace; the block takes
// the file's line ending (CRLF if most lines use it).
func upsertBlock(text, block string) (string, error) {
	eol := "\n"
	if n := strings.Count(text, "\n"); n > 0 && strings.Count(text, "\r\n")*2 > n {
		eol = "\r\n"
		block = strings.ReplaceAll(block, "\n", "\r\n")
	}
	type line struct{ start, end int } // end excludes the line's ending
	var lines []line
	for off := 0; off < len(text); {
		i := strings.IndexByte(text[off:], '\n')
		if i < 0 {
			lines = append(lines, line{off, len(text)})
			break
		}
		lines = append(lines, line{off, off + i})
		off += i + 1
	}
	marker := func(k int) (name, kind string) {
		s := strings.Trim(text[lines[k].start:lines[k].end], " \t\r\uFEFF")
		if m := markerLine().FindStringSubmatch(s); m != nil {
			return m[1], m[2]
		}
		return "", ""
	}
	for k := 0; k < len(lines); k++ {
		name, kind := marker(k)
		if kind != "start" {
			continue
		}
		end := -1
		for j := k + 1; j < len(lines) && end < 0; j++ {
			if n, kd := marker(j); n == name && kd == "end" {
				end = j
			}
		}
		if end < 0 {
			return "", fmt.Errorf("the %s %w, so memory-lsp will not write after it", strings.TrimSpace(text[lines[k].start:lines[k].end]), errUnterminated)
		}
		if name != blockOwner {
			k = end // another tool's block: skip over it, whatever it holds
			continue
		}
		// Ours: replace from the start marker's line to the end marker's
		// line, keeping what follows the end marker (its line ending).
		after := lines[end].end
		if after > lines[end].start && text[after-1] == '\r' {
			after--
		}
		return text[:lines[k].start] + strings.TrimSuffix(block, eol) + text[after:], nil
	}
	out := text
	if out != "" && !strings.HasSuffix(out, "\n") {
		out += eol
	}
	if out != "" && !strings.HasSuffix(out, eol+eol) {
		out += eol
	}
	return out + block, nil
}
