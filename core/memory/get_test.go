package memory

import (
	"errors"
	"slices"
	"strconv"
	"testing"

	"github.com/memory-lsp/memory-lsp/core/config"
	"github.com/memory-lsp/memory-lsp/core/rules"
)

func getFiles() []rules.File {
	return []rules.File{
		rules.NewFile("/w/.memory/quirks.md", []byte("# Quirks\n\n- [ci] CI caches expire after a week.\n")),
		rules.NewFile("/w/.memory/decisions.md", []byte("# Decisions\n\n- [db] Use Postgres.\nprose\n- Ship on Tuesdays.\n- [ci] Run CI on every push.\n")),
		rules.NewFile("/w/.memory/notes.md", []byte("- [n] A stray note.\n")),
	}
}

func TestGet(t *testing.T) {
	ip := func(n int) *int { return &n }
	cases := []struct {
		req  GetRequest
		want []string // file:line
	}{
		{GetRequest{Slug: "ci"}, []string{"quirks.md:3", "decisions.md:6"}},
		{GetRequest{Slug: "ci", File: "Decision"}, []string{"decisions.md:6"}},
		{GetRequest{File: "decisions.md"}, []string{"decisions.md:3", "decisions.md:5", "decisions.md:6"}},
		{GetRequest{File: "DECISION", Line: ip(4), EndLine: ip(5)}, []string{"decisions.md:5"}},
		{GetRequest{File: "Decision", Line: ip(4)}, nil},
		{GetRequest{File: "notes.md", Line: ip(1)}, []string{"notes.md:1"}},
		{GetRequest{Slug: "missing"}, nil},
	}
	for _, c := range cases {
		got, err := Get(getFiles(), c.req)
		if err != nil {
			t.Errorf("%+v: %v", c.req, err)
			continue
		}
		var names []string
		for _, e := range got {
			names = append(names, e.File+":"+strconv.Itoa(e.Line))
		}
		if !slices.Equal(names, c.want) {
			t.Errorf("%+v: %v, want %v", c.req, names, c.want)
		}
	}
	for _, req := range []GetRequest{
		{},
		{File: "security.md"},
		{File: "../decisions.md"},
		{File: "Decision", Line: ip(0)},
		{File: "Decision", EndLine: ip(3)},
		{File: "Decision", Line: ip(4), EndLine: ip(3)},
		{Slug: "db", Line: ip(3)},
	} {
		var in *InputError
		if _, err := Get(getFiles(), req); !errors.As(err, &in) {
			t.Errorf("%+v: %v, want an InputError", req, err)
		}
	}
}

func TestComputeStats(t *testing.T) {
	files := []rules.File{
		rules.NewFile("/w/.memory/decisions.md", []byte("# Decisions\n\n- Always run the linter before committing.\n- Never run the linter before committing.\n- Use Postgres for the ledger database.\n- Use Postgres for the ledger database.\n")),
	}
	st := ComputeStats(files, config.Default(), nil)
	if st.Total != 4 || len(st.Categories) != 5 || st.Categories[3].Entries != 4 || st.Categories[3].Limit != 40 {
		t.Errorf("counts: %+v", st)
	}
	if len(st.Duplicates) != 1 || st.Duplicates[0].Kind != "duplicate" || st.Duplicates[0].Entry.Line != 6 || st.Duplicates[0].Other.Line != 5 || st.Duplicates[0].Similarity != 1 {
		t.Errorf("duplicates: %+v", st.Duplicates)
	}
	if len(st.Conflicts) != 1 || st.Conflicts[0].Entry.Line != 4 || st.Conflicts[0].Other.Line != 3 || st.Conflicts[0].Reason != "reversal" {
		t.Errorf("conflicts: %+v", st.Conflicts)
	}
}
