// Package txtar reads and writes the txtar archive format used by the golden
// fixtures under testdata/: a free-form comment followed by files, each
// introduced by a line `-- name --`. It is a minimal reimplementation of
// golang.org/x/tools/txtar so that the module keeps no dependencies.
//
// Every file's data ends in a newline when written; Parse keeps data exactly
// as it appears between two markers.
package txtar

import (
	"bytes"
	"strings"
)

// Archive is a comment plus an ordered list of files.
type Archive struct {
	Comment []byte
	Files   []File
}

// File is one named section.
type File struct {
	Name string
	Data []byte
}

// Parse splits data into its comment and files. It never fails: text before
// the first marker is the comment, and a marker line is one that starts with
// "-- " and ends with " --" around a non-empty name.
func Parse(data []byte) *Archive {
	a := &Archive{}
	var cur *File
	start := 0
	flush := func(end int) {
		if cur == nil {
			a.Comment = data[start:end]
		} else {
			cur.Data = data[start:end]
			a.Files = append(a.Files, *cur)
		}
	}
	for i := 0; i < len(data); {
		end := bytes.IndexByte(data[i:], '\n')
		next := len(data)
		if end >= 0 {
			next = i + end + 1
			end += i
		} else {
			end = len(data)
		}
		if name, ok := marker(data[i:end]); ok {
			flush(i)
			cur = &File{Name: name}
			start = next
		}
		i = next
	}
	flush(len(data))
	return a
}

func marker(line []byte) (string, bool) {
	s := string(line)
	if !strings.HasPrefix(s, "-- ") || !strings.HasSuffix(s, " --") || len(s) < 7 {
		return "", false
	}
	name := strings.TrimSpace(s[3 : len(s)-3])
	return name, name != ""
}

// Format renders the archive. A comment or file that does not end in a
// newline gets one, so that the next marker starts a line.
func Format(a *Archive) []byte {
	var b bytes.Buffer
	b.Write(fixNL(a.Comment))
	for _, f := range a.Files {
		b.WriteString("-- " + f.Name + " --\n")
		b.Write(fixNL(f.Data))
	}
	return b.Bytes()
}

func fixNL(d []byte) []byte {
	if len(d) == 0 || d[len(d)-1] == '\n' {
		return d
	}
	return append(d[:len(d):len(d)], '\n')
}

// Get returns the data of the first file with that name.
func (a *Archive) Get(name string) ([]byte, bool) {
	for _, f := range a.Files {
		if f.Name == name {
			return f.Data, true
		}
	}
	return nil, false
}

// Set replaces the first file with that name, or appends a new one.
func (a *Archive) Set(name string, data []byte) {
	for i := range a.Files {
		if a.Files[i].Name == name {
			a.Files[i].Data = data
			return
		}
	}
	a.Files = append(a.Files, File{Name: name, Data: data})
}
