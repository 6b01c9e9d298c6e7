package main

import (
	"encoding/json"
	"net/url"
	"testing"

	"github.com/memory-lsp/memory-lsp/internal/fixture"
)

// The CLI's outputs as a consumer reads them: decoded here with their
// documented field names, not with the types that write them, so a renamed
// field is a failure.

// jsonFindings runs `check --format json`.
func jsonFindings(t *testing.T, ws *archiveWorkspace) []fixture.Finding {
	var doc struct {
		Findings []struct {
			Path     string `json:"path"`
			Line     int    `json:"line"`
			Column   int    `json:"column"`
			Severity string `json:"severity"`
			Code     string `json:"code"`
			Message  string `json:"message"`
			Related  []struct {
				Path    string `json:"path"`
				Line    int    `json:"line"`
				Column  int    `json:"column"`
				Message string `json:"message"`
			} `json:"related"`
			Fixes []struct {
				Title string `json:"title"`
				Safe  bool   `json:"safe"`
			} `json:"fixes"`
		} `json:"findings"`
	}
	out := ws.check(t, "--format", "json")
	if err := json.Unmarshal(out, &doc); err != nil {
		t.Fatalf("check --format json: %v\n%s", err, out)
	}
	var fs []fixture.Finding
	for _, f := range doc.Findings {
		g := fixture.Finding{Path: f.Path, Line: f.Line, Col: f.Column, Severity: f.Severity, Code: f.Code, Message: f.Message}
		for _, r := range f.Related {
			g.Related = append(g.Related, fixture.Related{Path: r.Path, Line: r.Line, Col: r.Column, Message: r.Message})
		}
		for _, x := range f.Fixes {
			g.Fixes = append(g.Fixes, fixture.Fix{Title: x.Title, Safe: x.Safe})
		}
		fs = append(fs, g)
	}
	return fs
}

// sarifDoc is the part of a SARIF log these tests read.
type sarifDoc struct {
	Runs []struct {
		ColumnKind string `json:"columnKind"`
		Results    []struct {
			RuleID  string `json:"ruleId"`
			Level   string `json:"level"`
			Message struct {
				Text string `json:"text"`
			} `json:"message"`
			Locations        []sarifLocationDoc `json:"locations"`
			RelatedLocations []sarifLocationDoc `json:"relatedLocations"`
			Fixes            []struct {
				Description struct {
					Text string `json:"text"`
				} `json:"description"`
				ArtifactChanges []struct {
					ArtifactLocation sarifArtifactDoc `json:"artifactLocation"`
					Replacements     []struct {
						DeletedRegion struct {
							StartLine   int  `json:"startLine"`
							StartColumn int  `json:"startColumn"`
							EndLine     int  `json:"endLine"`
							EndColumn   int  `json:"endColumn"`
							ByteOffset  *int `json:"byteOffset"`
							ByteLength  *int `json:"byteLength"`
						} `json:"deletedRegion"`
						InsertedContent *struct {
							Text string `json:"text"`
						} `json:"insertedContent"`
					} `json:"replacements"`
				} `json:"artifactChanges"`
				Properties struct {
					Safe bool `json:"safe"`
				} `json:"properties"`
			} `json:"fixes"`
		} `json:"results"`
	} `json:"runs"`
}

type sarifLocationDoc struct {
	PhysicalLocation struct {
		ArtifactLocation sarifArtifactDoc `json:"artifactLocation"`
		Region           struct {
			StartLine   int `json:"startLine"`
			StartColumn int `json:"startColumn"`
		} `json:"region"`
	} `json:"physicalLocation"`
	Message *struct {
		Text string `json:"text"`
	} `json:"message"`
}

type sarifArtifactDoc struct {
	URI       string `json:"uri"`
	URIBaseID string `json:"uriBaseId"`
}

// path is the archive's name of an artifact: check runs at the workspace
// root, so every uri is relative to %SRCROOT%, which is that root.
func (a sarifArtifactDoc) path(t *testing.T) string {
	t.Helper()
	if a.URIBaseID != "%SRCROOT%" {
		t.Fatalf("artifact %q has uriBaseId %q, want %%SRCROOT%%", a.URI, a.URIBaseID)
	}
	p, err := url.PathUnescape(a.URI)
	if err != nil {
		t.Fatalf("artifact uri %q: %v", a.URI, err)
	}
	return p
}

// sarif runs `check --format sarif` and decodes its one run.
func (ws *archiveWorkspace) sarif(t *testing.T) sarifDoc {
	t.Helper()
	out := ws.check(t, "--format", "sarif")
	var doc sarifDoc
	if err := json.Unmarshal(out, &doc); err != nil {
		t.Fatalf("check --format sarif: %v\n%s", err, out)
	}
	if len(doc.Runs) != 1 {
		t.Fatalf("check --format sarif: %d runs, want 1", len(doc.Runs))
	}
	// The archives count columns in UTF-16 units, as the run must say it does.
	if k := doc.Runs[0].ColumnKind; k != "utf16CodeUnits" {
		t.Fatalf("columnKind %q, want utf16CodeUnits", k)
	}
	return doc
}

// sarifFindings runs `check --format sarif`.
func sarifFindings(t *testing.T, ws *archiveWorkspace) []fixture.Finding {
	var fs []fixture.Finding
	for _, r := range ws.sarif(t).Runs[0].Results {
		if len(r.Locations) != 1 {
			t.Fatalf("%s result with %d locations, want 1", r.RuleID, len(r.Locations))
		}
		loc := r.Locations[0].PhysicalLocation
		g := fixture.Finding{Path: loc.ArtifactLocation.path(t), Line: loc.Region.StartLine, Col: loc.Region.StartColumn,
			Severity: r.Level, Code: r.RuleID, Message: r.Message.Text}
		for _, rl := range r.RelatedLocations {
			msg := ""
			if rl.Message != nil {
				msg = rl.Message.Text
			}
			g.Related = append(g.Related, fixture.Related{Path: rl.PhysicalLocation.ArtifactLocation.path(t),
				Line: rl.PhysicalLocation.Region.StartLine, Col: rl.PhysicalLocation.Region.StartColumn, Message: msg})
		}
		for _, x := range r.Fixes {
			g.Fixes = append(g.Fixes, fixture.Fix{Title: x.Description.Text, Safe: x.Properties.Safe})
		}
		fs = append(fs, g)
	}
	return fs
}
