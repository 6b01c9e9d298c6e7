package main

import (
	"crypto/sha256"
	"encoding/hex"
	"io"
	"net/url"
	"os"
	"path/filepath"
	"slices"
	"strconv"
	"strings"

	"github.com/memory-lsp/memory-lsp/core/config"
	"github.com/memory-lsp/memory-lsp/core/rules"
	"github.com/memory-lsp/memory-lsp/core/store"
	"github.com/memory-lsp/memory-lsp/core/text"
)

// `check --format sarif` writes SARIF 2.1.0, the format GitHub code scanning
// and other CI dashboards ingest. Only the parts consumers read are emitted;
// the field names below are the standard's and must not be renamed.

const (
	sarifSchema  = "https://json.schemastore.org/sarif-2.1.0.json"
	sarifVersion = "2.1.0"
	// sarifRoot names the folder every result's uri is relative to; GitHub
	// resolves such uris against the repository's root.
	sarifRoot      = "%SRCROOT%"
	projectURI     = "https://github.com/memory-lsp/memory-lsp"
	codesHelpURI   = projectURI + "/blob/main/docs/rules.md#diagnostic-codes"
	fingerprintKey = "memoryLsp/v1"
)

type sarifLog struct {
	Schema  string     `json:"$schema"`
	Version string     `json:"version"`
	Runs    []sarifRun `json:"runs"`
}

type sarifRun struct {
	Tool               sarifTool                        `json:"tool"`
	OriginalURIBaseIDs map[string]sarifArtifactLocation `json:"originalUriBaseIds"`
	ColumnKind         string                           `json:"columnKind"`
	Results            []sarifResult                    `json:"results"`
}

type sarifTool struct {
	Driver sarifDriver `json:"driver"`
}

type sarifDriver struct {
	Name           string                     `json:"name"`
	Version        string                     `json:"version"`
	InformationURI string                     `json:"informationUri"`
	Rules          []sarifReportingDescriptor `json:"rules"`
}

type sarifReportingDescriptor struct {
	ID                   string                 `json:"id"`
	ShortDescription     sarifMultiformat       `json:"shortDescription"`
	FullDescription      sarifMultiformat       `json:"fullDescription"`
	Help                 sarifMultiformat       `json:"help"`
	HelpURI              string                 `json:"helpUri"`
	DefaultConfiguration sarifRuleConfiguration `json:"defaultConfiguration"`
}

type sarifMultiformat struct {
	Text     string `json:"text"`
	Markdown string `json:"markdown,omitempty"`
}

type sarifRuleConfiguration struct {
	Level string `json:"level"`
	// Enabled is false for a rule that is off unless a setting turns it on
	// (SARIF's default is true, so it is left out otherwise).
	Enabled *bool `json:"enabled,omitempty"`
}

type sarifMessage struct {
	Text string `json:"text"`
}

type sarifResult struct {
	RuleID              string            `json:"ruleId"`
	RuleIndex           *int              `json:"ruleIndex,omitempty"`
	Level               string            `json:"level"`
	Message             sarifMessage      `json:"message"`
	Locations           []sarifLocation   `json:"locations"`
	RelatedLocations    []sarifLocation   `json:"relatedLocations,omitempty"`
	PartialFingerprints map[string]string `json:"partialFingerprints"`
	Fixes               []sarifFix        `json:"fixes,omitempty"`
}

type sarifLocation struct {
	ID               *int                  `json:"id,omitempty"`
	PhysicalLocation sarifPhysicalLocation `json:"physicalLocation"`
	Message          *sarifMessage         `json:"message,omitempty"`
}

type sarifPhysicalLocation struct {
	ArtifactLocation sarifArtifactLocation `json:"artifactLocation"`
	Region           sarifRegion           `json:"region"`
}

type sarifArtifactLocation struct {
	URI         string        `json:"uri,omitempty"`
	URIBaseID   string        `json:"uriBaseId,omitempty"`
	Description *sarifMessage `json:"description,omitempty"`
}

// sarifRegion is 1-based lines and 1-based UTF-16 columns (the run's
// columnKind), endColumn just past the last character; a region that ends
// with a line break ends at column 1 of the next line, as in LSP. A fix's
// deleted region also carries its byte range, which says exactly which bytes
// go whatever a consumer makes of line breaks.
type sarifRegion struct {
	StartLine   int  `json:"startLine"`
	StartColumn int  `json:"startColumn"`
	EndLine     int  `json:"endLine"`
	EndColumn   int  `json:"endColumn"`
	ByteOffset  *int `json:"byteOffset,omitempty"`
	ByteLength  *int `json:"byteLength,omitempty"`
}

type sarifFix struct {
	Description     sarifMessage          `json:"description"`
	ArtifactChanges []sarifArtifactChange `json:"artifactChanges"`
	Properties      map[string]any        `json:"properties,omitempty"`
}

type sarifArtifactChange struct {
	ArtifactLocation sarifArtifactLocation `json:"artifactLocation"`
	Replacements     []sarifReplacement    `json:"replacements"`
}

type sarifReplacement struct {
	DeletedRegion   sarifRegion           `json:"deletedRegion"`
	InsertedContent *sarifArtifactContent `json:"insertedContent,omitempty"`
}

type sarifArtifactContent struct {
	Text string `json:"text"`
}

// sarifLevel maps our severities onto SARIF's three problem levels: SARIF
// has no hint, and "none" would tell dashboards it is not a problem at all.
func sarifLevel(s rules.Severity) string {
	switch s {
	case rules.Error:
		return "error"
	case rules.Warning:
		return "warning"
	}
	return "note"
}

// sarifRules lists the registry, so a rule added there appears here with
// nothing else to change; ruleIndex points into this list.
func sarifRules() ([]sarifReportingDescriptor, map[string]int) {
	infos := rules.Rules()
	defaults := config.Default()
	out := make([]sarifReportingDescriptor, len(infos))
	index := make(map[string]int, len(infos))
	for i, r := range infos {
		index[r.Code] = i
		out[i] = sarifReportingDescriptor{
			ID:               r.Code,
			ShortDescription: sarifMultiformat{Text: shortSummary(r.Summary)},
			FullDescription:  sarifMultiformat{Text: r.Summary},
			Help: sarifMultiformat{
				Text:     r.Summary + " See " + codesHelpURI + " for every code.",
				Markdown: r.Summary + " See [the diagnostic codes](" + codesHelpURI + ").",
			},
			HelpURI:              codesHelpURI,
			DefaultConfiguration: sarifRuleConfiguration{Level: sarifLevel(r.Severity)},
		}
		if !defaults.Enabled(r.Code) {
			off := false
			out[i].DefaultConfiguration.Enabled = &off
		}
	}
	return out, index
}

// shortSummary is a summary's opening clause: dashboards show the short
// description as a title, and the registry's summaries go on to explain
// after a colon or semicolon.
func shortSummary(s string) string {
	cut := len(s)
	for _, sep := range []string{": ", "; "} {
		if i := strings.Index(s, sep); i > 0 && i < cut {
			cut = i
		}
	}
	return strings.TrimSuffix(s[:cut], ".")
}

func writeSARIF(w io.Writer, results []*checked, since *sinceReport) error {
	descriptors, ruleIndex := sarifRules()
	sinceIndex := len(descriptors)
	if since.ref != "" {
		descriptors = append(descriptors, since.sarifDescriptor())
	}
	root := sarifRootDir(results)
	run := sarifRun{
		Tool: sarifTool{Driver: sarifDriver{Name: "memory-lsp", Version: versionString(), InformationURI: projectURI, Rules: descriptors}},
		// The absolute folder is left out on purpose: it differs on every
		// machine, and consumers (GitHub) resolve against their checkout.
		OriginalURIBaseIDs: map[string]sarifArtifactLocation{sarifRoot: {
			Description: &sarifMessage{Text: "The folder memory-lsp check ran in, or the workspace root when the checked files lie outside it."}}},
		ColumnKind: "utf16CodeUnits",
		Results:    []sarifResult{},
	}
	for _, c := range results {
		seen := map[string]int{}
		for _, f := range c.findings {
			run.Results = append(run.Results, sarifResultOf(c, f, root, ruleIndex, seen))
		}
		run.Results = append(run.Results, since.sarifResults(c, root, sinceIndex, seen)...)
	}
	writeJSON(w, sarifLog{Schema: sarifSchema, Version: sarifVersion, Runs: []sarifRun{run}})
	return nil
}

func sarifResultOf(c *checked, f rules.Finding, root string, ruleIndex map[string]int, seen map[string]int) sarifResult {
	res := sarifResult{
		RuleID:    f.Code,
		Level:     sarifLevel(f.Severity),
		Message:   sarifMessage{Text: f.Message},
		Locations: []sarifLocation{{PhysicalLocation: c.sarifPhysical(f.File, f.Span, root)}},
	}
	if i, ok := ruleIndex[f.Code]; ok {
		res.RuleIndex = &i
	}
	for i, r := range f.Related {
		id := i
		res.RelatedLocations = append(res.RelatedLocations, sarifLocation{ID: &id,
			PhysicalLocation: c.sarifPhysical(r.File, r.Span, root), Message: &sarifMessage{Text: r.Message}})
	}
	res.PartialFingerprints = map[string]string{fingerprintKey: c.fingerprint(f, root, seen)}
	for _, fx := range f.Fixes {
		if fx.KeepBoth {
			continue // "Keep both": a choice, not a change to the files
		}
		res.Fixes = append(res.Fixes, c.sarifFixOf(f.EditsOf(&fx, c.files), fx, root))
	}
	return res
}

func (c *checked) sarifPhysical(file int, sp text.Span, root string) sarifPhysicalLocation {
	return sarifPhysicalLocation{ArtifactLocation: c.sarifArtifact(file, root), Region: c.sarifRegion(file, sp)}
}

func (c *checked) sarifRegion(file int, sp text.Span) sarifRegion {
	l, col := c.pos(file, sp.Start)
	el, ec := c.pos(file, sp.End)
	return sarifRegion{StartLine: l, StartColumn: col, EndLine: el, EndColumn: ec}
}

// sarifArtifact is a file's location, worked out once per file: every
// result, related location, fix and fingerprint names it. root is the same
// throughout one SARIF run.
func (c *checked) sarifArtifact(file int, root string) sarifArtifactLocation {
	if c.artifacts == nil {
		c.artifacts = make([]sarifArtifactLocation, len(c.files))
	}
	if c.artifacts[file].URI == "" {
		uri, base := sarifURI(c.files[file].Path, root)
		c.artifacts[file] = sarifArtifactLocation{URI: uri, URIBaseID: base}
	}
	return c.artifacts[file]
}

// sarifURI is a file's uri relative to root (slash-separated, each segment
// escaped) with the %SRCROOT% base, or an absolute file uri for a file
// outside root.
func sarifURI(path, root string) (uri, base string) {
	abs, err := filepath.Abs(path)
	if err != nil {
		abs = path
	}
	if rel, ok := store.RelativePath(root, abs); ok {
		segs := strings.Split(filepath.ToSlash(rel), "/")
		for i, s := range segs {
			segs[i] = url.PathEscape(s)
		}
		return strings.Join(segs, "/"), sarifRoot
	}
	p := filepath.ToSlash(abs)
	if !strings.HasPrefix(p, "/") {
		p = "/" + p // a Windows drive: file:///C:/…
	}
	return (&url.URL{Scheme: "file", Path: p}).String(), ""
}

// sarifRootDir picks %SRCROOT%: the current directory when every checked
// workspace lies within it (CI and pre-commit run at the repository's top,
// so uris come out relative to the repository, as GitHub wants them);
// otherwise the deepest folder holding every workspace, e.g. the root found
// above the current directory.
func sarifRootDir(results []*checked) string {
	var roots []string
	for _, c := range results {
		roots = append(roots, c.root)
	}
	if wd, err := os.Getwd(); err == nil && slices.IndexFunc(roots, func(r string) bool { return !store.Within(wd, r) }) < 0 {
		return wd
	}
	if len(roots) == 0 {
		return "."
	}
	common := roots[0]
	for _, r := range roots[1:] {
		for !store.Within(common, r) && filepath.Dir(common) != common {
			common = filepath.Dir(common)
		}
	}
	return common
}

// fingerprint identifies a finding by what it is about rather than where:
// its code, its file and the text of the line it starts on, plus how many
// identical (code, file, line text) findings came before it. Adding or
// removing lines above a finding keeps it, so GitHub keeps its alert (and a
// dismissal of it) instead of opening a new one.
func (c *checked) fingerprint(f rules.Finding, root string, seen map[string]int) string {
	uri := c.sarifArtifact(f.File, root).URI
	ix := c.index(f.File)
	line := 0
	if p, err := ix.Position(f.Span.Start); err == nil {
		line = p.Line
	}
	src := c.files[f.File].Doc.Src
	key := f.Code + "\x00" + uri + "\x00" + string(src[ix.LineStart(line):ix.LineEnd(line)])
	n := seen[key]
	seen[key]++
	sum := sha256.Sum256([]byte(key + "\x00" + strconv.Itoa(n)))
	return hex.EncodeToString(sum[:16])
}

// sarifFixOf turns a fix's byte edits into SARIF replacements, one
// artifactChange per file, each region in the file as it is now and in file
// order, so a consumer can apply them from the last to the first.
func (c *checked) sarifFixOf(fixEdits []rules.FileEdit, fx rules.Fix, root string) sarifFix {
	out := sarifFix{Description: sarifMessage{Text: fx.Title}, Properties: map[string]any{"safe": fx.Safe}}
	edits := slices.Clone(fixEdits)
	slices.SortStableFunc(edits, func(a, b rules.FileEdit) int { return a.Edit.Start - b.Edit.Start })
	byFile := map[int]int{} // file → index in ArtifactChanges
	for _, fe := range edits {
		i, ok := byFile[fe.File]
		if !ok {
			i = len(out.ArtifactChanges)
			byFile[fe.File] = i
			out.ArtifactChanges = append(out.ArtifactChanges, sarifArtifactChange{ArtifactLocation: c.sarifArtifact(fe.File, root)})
		}
		sp := text.Span{Start: fe.Edit.Start, End: fe.Edit.End}
		r := sarifReplacement{DeletedRegion: c.sarifRegion(fe.File, sp)}
		off, n := sp.Start, sp.Len()
		r.DeletedRegion.ByteOffset, r.DeletedRegion.ByteLength = &off, &n
		if fe.Edit.New != "" {
			r.InsertedContent = &sarifArtifactContent{Text: fe.Edit.New}
		}
		out.ArtifactChanges[i].Replacements = append(out.ArtifactChanges[i].Replacements, r)
	}
	return out
}
