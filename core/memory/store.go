package memory

import (
	"bytes"
	"fmt"
	"strings"

	"github.com/memory-lsp/memory-lsp/core/category"
	"github.com/memory-lsp/memory-lsp/core/config"
	"github.com/memory-lsp/memory-lsp/core/memfile"
	"github.com/memory-lsp/memory-lsp/core/similar"
	"github.com/memory-lsp/memory-lsp/core/store"
	"github.com/memory-lsp/memory-lsp/core/text"
)

// Store actions, as the CLI's and the commands' JSON name them.
const (
	ActionStored   = "stored"
	ActionUpdated  = "updated"
	ActionSkipped  = "skipped"
	ActionConflict = "replaced-conflict"
)

// EntryRef names one entry in a workspace.
type EntryRef struct {
	Category string `json:"category"`
	File     string `json:"file"`
	Line     int    `json:"line"`
	Slug     string `json:"slug,omitempty"`
	Content  string `json:"content"`
}

// EntryLine is how the front ends list an entry on one line:
// "decisions.md:3 [Decision] [slug] content" (no category brackets when the
// category is empty, no slug brackets without a slug).
func EntryLine(r EntryRef) string {
	var b strings.Builder
	fmt.Fprintf(&b, "%s:%d ", r.File, r.Line)
	if r.Category != "" {
		fmt.Fprintf(&b, "[%s] ", r.Category)
	}
	b.WriteString(r.Text())
	return b.String()
}

// Text is the entry as its line reads after the marker: "[slug] content",
// or the content alone.
func (r EntryRef) Text() string {
	if r.Slug != "" {
		return "[" + r.Slug + "] " + r.Content
	}
	return r.Content
}

// EntriesMessage lists entries as every front end sends them (the editor's
// memory.listMemories, MCP's listMemories and getMemory): "2 memories:"
// then one EntryLine each, or "0 memories." for none.
func EntriesMessage(entries []EntryRef) string {
	if len(entries) == 0 {
		return "0 memories."
	}
	var b strings.Builder
	b.WriteString(Plural(len(entries), "memory", "memories") + ":")
	for _, e := range entries {
		b.WriteString("\n" + EntryLine(e))
	}
	return b.String()
}

// ListMessage is EntriesMessage for a listing (List).
func ListMessage(entries []CatalogEntry) string {
	refs := make([]EntryRef, len(entries))
	for i, ce := range entries {
		refs[i] = ce.EntryRef
	}
	return EntriesMessage(refs)
}

// StoreResult says what a store did (or, in a dry run, would do).
type StoreResult struct {
	Action     string    `json:"action"`
	Similarity float64   `json:"similarity"`
	Matched    *EntryRef `json:"matched,omitempty"`
	Evicted    *EntryRef `json:"evicted,omitempty"`
	File       string    `json:"file"`
	Line       int       `json:"line"`
	Slug       string    `json:"slug,omitempty"`
	// SlugAdded: the content was already stored without a slug, and the
	// store gave that entry the requested slug (Action is ActionUpdated).
	SlugAdded bool `json:"slugAdded,omitempty"`
	// SlugAsked is the slug the caller gave when the update matched an
	// entry under another slug: the entry keeps its own (Slug), so that
	// whatever addresses it by that slug still finds it (issue 28).
	SlugAsked string `json:"slugAsked,omitempty"`
	Content   string `json:"content"`
	// Kind is how the new text relates to Matched (similar.Kind*): a
	// "sibling" was stored beside it, a "reversal" replaced it.
	Kind   string `json:"kind,omitempty"`
	Reason string `json:"reason,omitempty"`
	// Related are entries of the category on the same subject as a text
	// stored as a new entry (Action is ActionStored and Kind is not a
	// sibling): a restatement in other words, a reversal by meaning or a
	// changed value the word-by-word verdict could not tell from a second
	// fact. They are left as they are and named, so that the caller — often
	// an agent that reads meaning — or a person can remove what is stale.
	Related []EntryRef `json:"related,omitempty"`
	// Held says why a write was held for review (Action is ActionHeld),
	// and the ID a person approves it by.
	Held    *HeldRef `json:"held,omitempty"`
	Message string   `json:"message"`
}

// PlanStore decides a store against the current bytes of the category file
// (nil when the file does not exist) and returns the file's new bytes, or nil
// when nothing is to be written.
//
// Where HackLM is right this is its decision; where it is wrong (§21 B3, B4)
// we differ on purpose: a slug update replaces its line in place, a reversal
// replaces the rule it reverses and says so, a changed value is an update not
// a duplicate, and eviction happens only when an entry is added.
func PlanStore(cur []byte, s Store, cfg config.Config) ([]byte, StoreResult, error) {
	return PlanStoreParsing(cur, memfile.Parse, s, cfg)
}

// PlanStoreParsing is PlanStore with the file's parse made by parse, which
// must be memfile.Parse's: a caller that has these bytes parsed already
// gives that parse (ParsedAs).
func PlanStoreParsing(cur []byte, parse func([]byte) *memfile.Document, s Store, cfg config.Config) ([]byte, StoreResult, error) {
	file := s.Category.File()
	if !memfile.Fits(cur) {
		return nil, StoreResult{}, &FileTooLargeError{Op: "store into", Path: file, Size: int64(len(cur)), Lines: memfile.Lines(cur)}
	}
	if cur == nil {
		cur = store.NewFileBytes(s.Category)
	}
	d := parse(cur)
	res := StoreResult{File: file, Slug: s.Slug, Content: s.Content}
	th := similar.Thresholds{Skip: cfg.SkipThreshold, Update: cfg.UpdateThreshold}
	newText := similar.Analyze(s.Content)

	target := -1          // entry replaced in place
	var contents []string // the entries' contents, for the dedup and the eviction
	var related []int     // entries on the new text's subject (res.Related)
	if s.Slug != "" {
		for i, e := range d.Entries {
			if e.HasSlug && e.Slug == s.Slug {
				target = i
				break
			}
		}
	}
	if target >= 0 {
		old := d.Entries[target]
		v := similar.Classify(similar.Analyze(old.Content), newText, th)
		res.Similarity, res.Reason, res.Kind = v.Similarity, v.Reason, v.Kind
		res.Matched = ref(s.Category, file, old)
		switch {
		case old.Content == s.Content || v.Exact:
			res.Action = ActionSkipped
		case v.Action == similar.Conflict:
			res.Action = ActionConflict
		default:
			res.Action = ActionUpdated
		}
	} else {
		var match int
		var v similar.Verdict
		contents = contentsOf(d)
		match, v = similar.DecideContents(newText, contents, th)
		res.Similarity, res.Reason, res.Kind = v.Similarity, v.Reason, v.Kind
		if match >= 0 {
			res.Matched = ref(s.Category, file, d.Entries[match])
		}
		switch v.Action {
		case similar.Skip:
			res.Action = ActionSkipped
			if s.Slug != "" && !d.Entries[match].HasSlug {
				// The fact is stored, without the slug the caller wants to
				// address it by: give the stored entry that slug, and keep
				// its text (the skip says the two are the same fact).
				res.Action, target, res.SlugAdded = ActionUpdated, match, true
				res.Content = d.Entries[match].Content
			}
		case similar.Update:
			res.Action, target = ActionUpdated, match
		case similar.Conflict:
			res.Action, target = ActionConflict, match
		default:
			res.Action = ActionStored
			if v.Kind != similar.KindSibling {
				// one more than named, in case eviction takes one
				related = similar.SameSubjectAmong(newText, contents, relatedMost+1)
			}
		}
	}

	var edits []text.Edit
	switch {
	case res.Action == ActionSkipped:
		res.Line = res.Matched.Line
		res.Slug = res.Matched.Slug
		res.Message = messageFor(res)
		return nil, res, nil
	case target >= 0:
		old := d.Entries[target]
		switch {
		case res.Slug == "" && old.HasSlug:
			res.Slug = old.Slug // an update keeps the entry's identity
		case old.HasSlug && res.Slug != old.Slug:
			// matched by what it says, under another slug: it keeps its
			// own, and the reply says so
			res.SlugAsked, res.Slug = res.Slug, old.Slug
		}
		edits = append(edits, d.ReplaceLine(old.LineIndex, memfile.EntryLine(res.Slug, res.Content)))
	default:
		if len(d.Entries) >= cfg.Limit(s.Category) {
			if contents == nil {
				contents = contentsOf(d)
			}
			order, _ := similar.PruneOrder(s.Category, contents)
			w := order[len(order)-1] // the weakest, as HackLM evicts
			res.Evicted = ref(s.Category, file, d.Entries[w])
			edits = append(edits, d.DeleteLines([]int{d.Entries[w].LineIndex})...)
		}
		edits = append(edits, appendEntry(d, memfile.EntryLine(s.Slug, s.Content)))
	}
	out, err := text.Apply(cur, edits)
	if err != nil {
		return nil, res, fmt.Errorf("planning store into %s: %w", file, err)
	}
	if err := RefuseGrowth("store into", file, cur, out); err != nil {
		return nil, StoreResult{}, err
	}
	res.Line = lineOf(out, target >= 0, d, target)
	res.Related = relatedRefs(s.Category, file, d, related, edits)
	res.Message = messageFor(res)
	return out, res, nil
}

// relatedRefs names the entries on the subject, at their lines once edits
// are applied: an eviction deletes a line before some of them, and the
// entry it deletes is named no more (a reply that sends the caller to
// remove a line must name the line that is there).
func relatedRefs(cat category.Category, file string, d *memfile.Document, related []int, edits []text.Edit) []EntryRef {
	var out []EntryRef
	for _, i := range related {
		e := d.Entries[i]
		start, gone, shift := e.LineSpan.Start, false, 0
		for _, ed := range edits {
			switch {
			case ed.Start <= start && start < ed.End:
				gone = true
			case ed.End <= start:
				shift += strings.Count(ed.New, "\n") - bytes.Count(d.Src[ed.Start:ed.End], []byte("\n"))
			}
		}
		if gone || len(out) == relatedMost {
			continue
		}
		r := ref(cat, file, e)
		r.Line += shift
		out = append(out, *r)
	}
	return out
}

// relatedMost is how many entries on the same subject a store names: the
// reply is one sentence an agent reads on every store.
const relatedMost = 2

// ParsedAs is a parse function (PlanStoreParsing's) that gives d for d's
// own bytes, and parses any other.
func ParsedAs(d *memfile.Document) func([]byte) *memfile.Document {
	return func(b []byte) *memfile.Document {
		if bytes.Equal(b, d.Src) {
			return d
		}
		return memfile.Parse(b)
	}
}

// lineOf finds the written entry's line in the new bytes: in place it keeps
// its line; appended it is the file's last entry. The appended line is the
// last line of out, and an entry is parsed from its line alone, so only that
// line is parsed and the lines before it counted, rather than parsing a file
// of thousands of entries a second time.
func lineOf(out []byte, inPlace bool, before *memfile.Document, target int) int {
	if inPlace {
		return before.Entries[target].Line
	}
	if n := len(out); n > 0 && out[n-1] == '\n' {
		start := bytes.LastIndexByte(out[:n-1], '\n') + 1
		if last := memfile.Parse(out[start:]); len(last.Entries) == 1 {
			return bytes.Count(out[:start], []byte{'\n'}) + last.Entries[0].Line
		}
	}
	nd := memfile.Parse(out)
	return nd.Entries[len(nd.Entries)-1].Line
}

// contentsOf lists a document's entry contents in file order.
func contentsOf(d *memfile.Document) []string {
	out := make([]string, len(d.Entries))
	for i, e := range d.Entries {
		out[i] = e.Content
	}
	return out
}

func ref(cat category.Category, file string, e memfile.Entry) *EntryRef {
	r := &EntryRef{Category: cat.String(), File: file, Line: e.Line, Content: e.Content}
	if e.HasSlug {
		r.Slug = e.Slug
	}
	return r
}
