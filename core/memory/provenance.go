package memory

import (
	"bytes"
	"encoding/json"
	"path/filepath"

	"github.com/memory-lsp/memory-lsp/core/secret"
	"github.com/memory-lsp/memory-lsp/core/store"
)

// ProvenanceLog is the file in `.memory/` where every write through
// memory-lsp records who made it and when, a JSON object a line. HackLM
// reads only the category files, so the entries it reads stay as they
// were; a team commits the log or ignores it (.gitignore) as it chooses,
// and `git merge` keeps both sides' lines with `merge=union`, which init
// writes into .gitattributes beside the memory files' driver.
const ProvenanceLog = store.ProvenanceName

// Review actions in the provenance log, beside the store actions.
const (
	ActionApproved = "approved"
	ActionRejected = "rejected"
	ActionDeleted  = "deleted"
)

// Provenance is one write in the provenance log.
type Provenance struct {
	Time string `json:"time"` // RFC 3339, UTC
	// Action is the store's (stored, updated, replaced-conflict), held,
	// rejected or deleted.
	Action  string `json:"action"`
	By      string `json:"by"`             // ByCLI, ByMCP, ByLSP
	Name    string `json:"name,omitempty"` // the client, the CLI's --source, the editor
	File    string `json:"file"`
	Slug    string `json:"slug,omitempty"`
	Content string `json:"content"`
	// Held is the review queue's ID of a held, approved or rejected write.
	Held string `json:"held,omitempty"`
	// ApprovedBy names the person's front end that approved a held write
	// ("cli:alice", "lsp:Neovim"); By and Name stay the writer's.
	ApprovedBy string `json:"approvedBy,omitempty"`
	// Replaced is the content of the entry the write replaced (an update,
	// a reversal, a store under a slug another text held) and Evicted that
	// of the entry a full category gave up, with their slugs: HackLM's
	// upsert by slug and its limit remove a fact an agent was told is
	// stored, and the log keeps it where a person finds it again.
	Replaced     string `json:"replaced,omitempty"`
	ReplacedSlug string `json:"replacedSlug,omitempty"`
	Evicted      string `json:"evicted,omitempty"`
	EvictedSlug  string `json:"evictedSlug,omitempty"`
}

// storeProvenance is the record of the store r, written by who at at.
func storeProvenance(r StoreResult, who Writer, at string) Provenance {
	p := Provenance{Time: at, Action: r.Action, By: who.By, Name: who.Name, File: r.File, Slug: r.Slug, Content: r.Content}
	if m := r.Matched; m != nil && (r.Action == ActionUpdated || r.Action == ActionConflict) && (m.Content != r.Content || m.Slug != r.Slug) {
		p.Replaced, p.ReplacedSlug = withheldIfSecret(m.Content), m.Slug
	}
	if e := r.Evicted; e != nil {
		p.Evicted, p.EvictedSlug = withheldIfSecret(e.Content), e.Slug
	}
	return p
}

// withheldIfSecret is s, or a notice in its place when it holds a likely
// secret (secret.Find, whose private-key detector reads the header). A
// removed entry may be a hand edit that held a credential no store would
// have written; the log is committed beside the memory files and outlives
// the entry, so it must not copy the credential, and cutting the match
// alone left a private key's body behind (a red team's). The entry stays
// in git's history of the memory file.
func withheldIfSecret(s string) string {
	if len(secret.Find(s)) > 0 {
		return "[withheld: the entry held a likely secret]"
	}
	return s
}

// ProvenanceChange appends p to the provenance log of the folder dir.
func ProvenanceChange(dir string, p Provenance) store.Change {
	b, err := json.Marshal(p)
	if err != nil { // only strings
		panic(err)
	}
	return store.Change{Path: filepath.Join(dir, ProvenanceLog), Data: append(b, '\n'), Append: true}
}

// ParseProvenance reads the provenance log; lines that are not records
// (a hand edit, a merge's leftovers) are skipped.
func ParseProvenance(data []byte) []Provenance {
	var out []Provenance
	for line := range bytes.SplitSeq(data, []byte{'\n'}) {
		var p Provenance
		if len(bytes.TrimSpace(line)) == 0 || json.Unmarshal(line, &p) != nil || p.Action == "" {
			continue
		}
		out = append(out, p)
	}
	return out
}

// Latest is the latest record of each entry the log knows, by file and
// content: who wrote the text an entry holds now.
func Latest(log []Provenance) map[[2]string]Provenance {
	out := map[[2]string]Provenance{}
	for _, p := range log {
		switch p.Action {
		case ActionStored, ActionUpdated, ActionConflict:
			out[[2]string{p.File, p.Content}] = p
		}
	}
	return out
}

// ReadProvenance reads the provenance log of the .memory folder dir (its
// last MaxReadBytes when larger) and returns who wrote each entry's current
// text (Latest).
func ReadProvenance(dir string) (map[[2]string]Provenance, error) {
	data, err := store.ReadLogTail(filepath.Join(dir, ProvenanceLog))
	if err != nil {
		return nil, err
	}
	return Latest(ParseProvenance(data)), nil
}

// Who says in words who wrote an entry and when: "mcp (claude-code 2.0.1),
// 2026-11-29T13:00:00Z, approved by cli:alice".
func (p Provenance) Who() string {
	s := Printable(p.By)
	if p.Name != "" {
		s += " (" + Printable(p.Name) + ")"
	}
	s += ", " + Printable(p.Time)
	if p.ApprovedBy != "" {
		s += ", approved by " + Printable(p.ApprovedBy)
	}
	return s
}
