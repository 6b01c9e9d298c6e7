// Package category names HackLM's five memory categories, their files and
// their fixed order. The order matters: HackLM reads, dedups, cleans and
// breaks ties in this order, and so do we.
package category

import (
	"fmt"
	"strings"

	"github.com/memory-lsp/memory-lsp/core/text"
)

// Category is one of the five fixed memory categories.
type Category int

// The five categories, in HackLM's order.
const (
	Instruction Category = iota
	Quirk
	Preference
	Decision
	Security
)

// All lists the categories in HackLM's order.
var All = [...]Category{Instruction, Quirk, Preference, Decision, Security}

var (
	names   = [...]string{"Instruction", "Quirk", "Preference", "Decision", "Security"}
	plurals = [...]string{"Instructions", "Quirks", "Preferences", "Decisions", "Security"}
	files   = [...]string{"instructions.md", "quirks.md", "preferences.md", "decisions.md", "security.md"}
	// weights are HackLM's category term of the pruning score.
	weights = [...]int{20, 10, 10, 15, 25}
	// defaultLimits are HackLM 1.1.0's contributed defaults.
	defaultLimits = [...]int{30, 40, 40, 40, 30}
)

// Valid reports whether c is one of the five categories.
func (c Category) Valid() bool { return c >= Instruction && c <= Security }

// String is the canonical, capitalised name HackLM writes and expects.
func (c Category) String() string {
	if !c.Valid() {
		return fmt.Sprintf("Category(%d)", int(c))
	}
	return names[c]
}

// Plural is the title of a new file's heading (`# Decisions`).
func (c Category) Plural() string { return plurals[c] }

// File is the category's file name inside `.memory/`.
func (c Category) File() string { return files[c] }

// Weight is the category term of HackLM's pruning score.
func (c Category) Weight() int { return weights[c] }

// DefaultLimit is the number of entries HackLM keeps in the category by default.
func (c Category) DefaultLimit() int { return defaultLimits[c] }

// Names is the list used in error messages: "Instruction, Quirk, …".
func Names() string { return strings.Join(names[:], ", ") }

// Parse accepts a category name in any letter case ("decision", "DECISION")
// and returns its canonical value. HackLM itself is case-sensitive; being
// lenient on input costs nothing because we always write the canonical name.
func Parse(s string) (Category, error) {
	t := strings.TrimSpace(s)
	if t == "" {
		return 0, fmt.Errorf("category is empty. Valid: %s", Names())
	}
	// As users write them: "Decision", "decisions", "DECISIONS",
	// "decisions.md".
	for _, c := range All {
		if strings.EqualFold(t, names[c]) || strings.EqualFold(t, plurals[c]) || strings.EqualFold(t, files[c]) {
			return c, nil
		}
	}
	if c, ok := nearest(t); ok {
		return 0, fmt.Errorf("unknown category: %q; did you mean %s? Valid: %s", s, names[c], Names())
	}
	return 0, fmt.Errorf("unknown category: %q. Valid: %s", s, Names())
}

// nearest is the category whose name, plural or file name is within two
// edits of s (case ignored): "Desicion", "quirk.md", "preferances".
func nearest(s string) (Category, bool) {
	s = strings.ToLower(s)
	for _, c := range All {
		for _, n := range []string{names[c], plurals[c], files[c]} {
			if text.EditDistance(s, strings.ToLower(n)) <= 2 {
				return c, true
			}
		}
	}
	return 0, false
}

// FromFile maps a file's base name to its category; ok is false for any other
// file (the unknown-file rule flags those).
func FromFile(base string) (Category, bool) {
	for _, c := range All {
		if base == files[c] {
			return c, true
		}
	}
	return 0, false
}
