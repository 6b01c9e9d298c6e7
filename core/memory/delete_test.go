package memory

import (
	"errors"
	"reflect"
	"testing"

	"github.com/memory-lsp/memory-lsp/core/category"
	"github.com/memory-lsp/memory-lsp/core/rules"
	"github.com/memory-lsp/memory-lsp/core/store"
)

func TestValidateDelete(t *testing.T) {
	tests := []struct {
		req       DeleteRequest
		want      DeleteTarget
		wantField string // the *InputError's field; "" for none
	}{
		{DeleteRequest{Category: "Decision", Slug: " db "}, DeleteTarget{Category: category.Decision, Slug: "db"}, ""},
		{DeleteRequest{Category: "quirk", Content: "\tUse Postgres. "}, DeleteTarget{Category: category.Quirk, Content: "Use Postgres."}, ""},
		{DeleteRequest{Category: "Decision", Slug: "db", Content: "x"}, DeleteTarget{Category: category.Decision, Slug: "db", Content: "x"}, ""},
		{DeleteRequest{Category: "Nope", Slug: "db"}, DeleteTarget{}, "category"},
		{DeleteRequest{Category: "Decision"}, DeleteTarget{}, "slug"},
		{DeleteRequest{Category: "Decision", Slug: "  ", Content: " "}, DeleteTarget{}, "slug"},
	}
	for _, tt := range tests {
		got, err := ValidateDelete(tt.req)
		if field := inputField(err); field != tt.wantField || got != tt.want {
			t.Errorf("ValidateDelete(%+v) = %+v, %v; want %+v and an error on %q", tt.req, got, err, tt.want, tt.wantField)
		}
	}
}

func TestPlanDelete(t *testing.T) {
	const src = "# Decisions\n\n- [db] Use Postgres.\n- Use SQLite in tests.\n- [api] Use REST.\n- [db2] Use REST.\n"
	tests := []struct {
		name      string
		target    DeleteTarget
		wantAfter string
		wantRef   EntryRef
		wantMsg   string
		wantErr   string
	}{
		{"by slug", DeleteTarget{Category: category.Decision, Slug: "db"},
			"# Decisions\n\n- Use SQLite in tests.\n- [api] Use REST.\n- [db2] Use REST.\n",
			EntryRef{Category: "Decision", File: "decisions.md", Line: 3, Slug: "db", Content: "Use Postgres."}, `Deleted from decisions.md: "Use Postgres."`, ""},
		{"by content: the first match, slug or not", DeleteTarget{Category: category.Decision, Content: "Use REST."},
			"# Decisions\n\n- [db] Use Postgres.\n- Use SQLite in tests.\n- [db2] Use REST.\n",
			EntryRef{Category: "Decision", File: "decisions.md", Line: 5, Slug: "api", Content: "Use REST."}, `Deleted from decisions.md: "Use REST."`, ""},
		{"by slug and content: both must match", DeleteTarget{Category: category.Decision, Slug: "db2", Content: "Use REST."},
			"# Decisions\n\n- [db] Use Postgres.\n- Use SQLite in tests.\n- [api] Use REST.\n",
			EntryRef{Category: "Decision", File: "decisions.md", Line: 6, Slug: "db2", Content: "Use REST."}, `Deleted from decisions.md: "Use REST."`, ""},
		{"an entry without a slug", DeleteTarget{Category: category.Decision, Content: "Use SQLite in tests."},
			"# Decisions\n\n- [db] Use Postgres.\n- [api] Use REST.\n- [db2] Use REST.\n",
			EntryRef{Category: "Decision", File: "decisions.md", Line: 4, Content: "Use SQLite in tests."}, `Deleted from decisions.md: "Use SQLite in tests."`, ""},
		{"no such slug", DeleteTarget{Category: category.Decision, Slug: "nope"}, "", EntryRef{}, "", "slug: no entry [nope] in decisions.md"},
		{"slug and content that do not go together", DeleteTarget{Category: category.Decision, Slug: "db", Content: "Use REST."}, "", EntryRef{}, "",
			`slug: no entry [db] with content "Use REST." in decisions.md`},
		{"no such content", DeleteTarget{Category: category.Decision, Content: "Use gRPC."}, "", EntryRef{}, "", `content: no entry "Use gRPC." in decisions.md`},
		{"no file of that category", DeleteTarget{Category: category.Quirk, Slug: "db"}, "", EntryRef{}, "", "slug: no entry [db] in quirks.md"},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			files := decisions(src)
			got, err := PlanDelete(files, tt.target)
			if tt.wantErr != "" {
				var in *InputError
				if !errors.As(err, &in) || err.Error() != tt.wantErr {
					t.Fatalf("error %v, want the input error %q", err, tt.wantErr)
				}
				return
			}
			if err != nil {
				t.Fatal(err)
			}
			want := DeletePlan{Path: files[0].Path, After: []byte(tt.wantAfter), Deleted: tt.wantRef, Message: tt.wantMsg}
			if !reflect.DeepEqual(got, want) {
				t.Errorf("plan\n%+v (after %q)\nwant\n%+v (after %q)", got, got.After, want, want.After)
			}
			if string(files[0].Doc.Src) != src {
				t.Errorf("the input file changed to %q", files[0].Doc.Src)
			}
		})
	}
}

func TestPlanDeleteRefusesFileTooLarge(t *testing.T) {
	files := []rules.File{rules.NewFileTooLarge("/w/.memory/decisions.md", store.MaxReadBytes+1)}
	_, err := PlanDelete(files, DeleteTarget{Category: category.Decision, Slug: "db"})
	var big *FileTooLargeError
	if !errors.As(err, &big) || big.Op != "delete from" || big.Path != files[0].Path {
		t.Fatalf("error %v, want a FileTooLargeError for %s", err, files[0].Path)
	}
}

// inputField is the field an *InputError names, or "" for any other error.
func inputField(err error) string {
	var in *InputError
	if errors.As(err, &in) {
		return in.Field
	}
	return ""
}
