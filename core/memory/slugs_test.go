package memory

import (
	"errors"
	"reflect"
	"testing"

	"github.com/memory-lsp/memory-lsp/core/config"
	"github.com/memory-lsp/memory-lsp/core/rules"
	"github.com/memory-lsp/memory-lsp/core/store"
)

func TestPlanAssignSlugs(t *testing.T) {
	const (
		dec     = "# Decisions\n\n- [db] Use Postgres.\n- Deploy with blue green releases.\n"
		quirk   = "# Quirks\n\n- The CI cache breaks on Mondays.\n- [flaky] The e2e suite is flaky.\n- Tokens expire after an hour.\n"
		slugged = "# Decisions\n\n- [db] Use Postgres.\n"
		// the secret's line is a hazard: no slug is written into it
		secret  = "# Decisions\n\n- The CI token is ghp_4fK9sLm2Qx7Rt1Vb8Nc3Zd6Wy0Pe5Ha9Jg2U for now.\n- Squash commits when merging.\n"
		unknown = "- not a category file\n"
	)
	files := func(decisions, quirks string) []rules.File {
		fs := []rules.File{rules.NewFile("/w/.memory/decisions.md", []byte(decisions))}
		if quirks != "" {
			fs = append(fs, rules.NewFile("/w/.memory/quirks.md", []byte(quirks)))
		}
		return append(fs, rules.NewFile("/w/.memory/notes.md", []byte(unknown)))
	}
	tests := []struct {
		name      string
		files     []rules.File
		only      string
		wantAfter map[int]string
		wantSlugs []string
		wantFiles []string
		wantMsg   string
	}{
		{"every category file", files(dec, quirk), "",
			map[int]string{
				0: "# Decisions\n\n- [db] Use Postgres.\n- [deploy-green-releases] Deploy with blue green releases.\n",
				1: "# Quirks\n\n- [cache-breaks-mondays] The CI cache breaks on Mondays.\n- [flaky] The e2e suite is flaky.\n- [tokens-expire-hour] Tokens expire after an hour.\n",
			},
			[]string{"deploy-green-releases", "cache-breaks-mondays", "tokens-expire-hour"},
			[]string{"decisions.md", "quirks.md"}, "Assigned 3 slugs in decisions.md, quirks.md."},
		{"one file", files(dec, quirk), "/w/.memory/quirks.md",
			map[int]string{
				1: "# Quirks\n\n- [cache-breaks-mondays] The CI cache breaks on Mondays.\n- [flaky] The e2e suite is flaky.\n- [tokens-expire-hour] Tokens expire after an hour.\n",
			},
			[]string{"cache-breaks-mondays", "tokens-expire-hour"},
			[]string{"quirks.md"}, "Assigned 2 slugs in quirks.md."},
		{"one slug", files(dec, ""), "",
			map[int]string{0: "# Decisions\n\n- [db] Use Postgres.\n- [deploy-green-releases] Deploy with blue green releases.\n"},
			[]string{"deploy-green-releases"}, []string{"decisions.md"}, "Assigned 1 slug in decisions.md."},
		{"nothing to do", files(slugged, ""), "", map[int]string{}, nil, nil, "Every entry already has a slug."},
		{"nothing to do in the file asked for", files(slugged, quirk), "/w/.memory/decisions.md", map[int]string{}, nil, nil, "Every entry already has a slug."},
		{"not on a line holding a secret", files(secret, ""), "",
			map[int]string{0: "# Decisions\n\n- The CI token is ghp_4fK9sLm2Qx7Rt1Vb8Nc3Zd6Wy0Pe5Ha9Jg2U for now.\n- [squash-commits-merging] Squash commits when merging.\n"},
			[]string{"squash-commits-merging"}, []string{"decisions.md"}, "Assigned 1 slug in decisions.md."},
		{"a file too large elsewhere is left alone",
			append(files(dec, ""), rules.NewFileTooLarge("/w/.memory/quirks.md", store.MaxReadBytes+1)), "",
			map[int]string{0: "# Decisions\n\n- [db] Use Postgres.\n- [deploy-green-releases] Deploy with blue green releases.\n"},
			[]string{"deploy-green-releases"}, []string{"decisions.md"}, "Assigned 1 slug in decisions.md."},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			got, err := PlanAssignSlugs(tt.files, config.Default(), tt.only)
			if err != nil {
				t.Fatal(err)
			}
			after := map[int]string{}
			for i, b := range got.After {
				after[i] = string(b)
			}
			var slugs []string
			for _, r := range got.Assigned {
				slugs = append(slugs, r.Slug)
				if r.File == "" || r.Content == "" || r.Line == 0 {
					t.Errorf("assigned %+v: names no entry", r)
				}
			}
			if !reflect.DeepEqual(after, tt.wantAfter) || !reflect.DeepEqual(slugs, tt.wantSlugs) ||
				!reflect.DeepEqual(got.Files, tt.wantFiles) || got.Message != tt.wantMsg {
				t.Errorf("got after %#v, slugs %q, files %q, %q\nwant after %#v, slugs %q, files %q, %q",
					after, slugs, got.Files, got.Message, tt.wantAfter, tt.wantSlugs, tt.wantFiles, tt.wantMsg)
			}
		})
	}
}

func TestPlanAssignSlugsRefusesFileTooLarge(t *testing.T) {
	files := []rules.File{rules.NewFileTooLarge("/w/.memory/decisions.md", store.MaxReadBytes+1)}
	_, err := PlanAssignSlugs(files, config.Default(), files[0].Path)
	var big *FileTooLargeError
	if !errors.As(err, &big) || big.Op != "assign slugs in" || big.Path != files[0].Path {
		t.Fatalf("error %v, want a FileTooLargeError for %s", err, files[0].Path)
	}
}
