package memory

import (
	"fmt"
	"path/filepath"
	"slices"
	"strings"
	"unicode"
	"unicode/utf8"

	"github.com/memory-lsp/memory-lsp/core/category"
	"github.com/memory-lsp/memory-lsp/core/config"
	"github.com/memory-lsp/memory-lsp/core/directive"
	"github.com/memory-lsp/memory-lsp/core/hidden"
	"github.com/memory-lsp/memory-lsp/core/memfile"
	"github.com/memory-lsp/memory-lsp/core/rules"
	"github.com/memory-lsp/memory-lsp/core/secret"
	"github.com/memory-lsp/memory-lsp/core/similar"
	"github.com/memory-lsp/memory-lsp/core/store"
	"github.com/memory-lsp/memory-lsp/core/text"
)

// InputError is a refused request: Field names the input, Problem says what
// is wrong with it in words a user or an agent can act on.
type InputError struct {
	Field   string
	Problem string
}

func (e *InputError) Error() string {
	if strings.HasPrefix(e.Problem, e.Field+" ") {
		return e.Problem // "content is empty", not "content: content is empty"
	}
	return e.Field + ": " + e.Problem
}

// StoreRequest is storeMemory's input as it arrives (HackLM's schema).
type StoreRequest struct {
	Category string `json:"category"`
	Content  string `json:"content"`
	Slug     string `json:"slug,omitempty"`
}

// Store is a validated request: canonical category, trimmed content, checked slug.
type Store struct {
	Category category.Category
	Content  string
	Slug     string
}

const maxSlugLen = 64

// Validate checks a request before anything is read or written. HackLM writes
// whatever it is given (§21 B13); every check here exists because some input
// would otherwise corrupt the file or be read back as something else.
//
// Instructions to agents and hidden text are refused here only with review
// off; with review on, Screen holds them for a person instead.
func Validate(req StoreRequest, cfg config.Config) (Store, error) {
	cfg.Review = config.ReviewOff // what refuses is the rules, as switched
	st, signals, err := screen(req, cfg)
	if err != nil {
		return Store{}, err
	}
	for _, sig := range signals {
		if sig.refusal != nil {
			return Store{}, sig.refusal
		}
	}
	return st, nil
}

// Screen is Validate for a write that review may hold: a request that
// cannot be stored (bad category, content or slug, a likely secret) is
// refused, and the signs of poisoning the content carries are returned
// beside the store (with review off they are refused too, as Validate
// refuses them). Signs that depend on the memory already stored (a new
// link) are the store plan's to add, inside the lock.
func Screen(req StoreRequest, cfg config.Config) (Screened, error) {
	if cfg.Review == config.ReviewOff {
		st, err := Validate(req, cfg)
		return Screened{Store: st, Review: cfg.Review}, err
	}
	st, signals, err := screen(req, cfg)
	return Screened{Store: st, Signals: signals, Review: cfg.Review}, err
}

// Screened is a store Screen let through: the validated store, the signs
// of poisoning it carries and the review mode it was screened under (the
// plan holds it by that mode).
type Screened struct {
	Store   Store
	Signals []Signal
	Review  string
}

// ProjectReview is cfg with the review mode the project's settings file
// (.memory/settings.json, config.ProjectFile) asks for, where that is
// stricter: the file travels with the repository, and no flag, editor
// setting or agent's command line lowers it.
func ProjectReview(cfg config.Config, dir string) (config.Config, error) {
	path := filepath.Join(dir, config.ProjectFile)
	data, err := store.ReadSettings(path)
	if err != nil || data == nil {
		return cfg, err
	}
	floor, err := config.ParseProject(data)
	if err != nil {
		return cfg, fmt.Errorf("%s: %w", path, err)
	}
	if floor != "" {
		cfg.Review, cfg.ReviewFloor = config.Stricter(cfg.Review, floor), floor
	}
	return cfg, nil
}

func screen(req StoreRequest, cfg config.Config) (Store, []Signal, error) {
	cat, err := category.Parse(req.Category)
	if err != nil {
		return Store{}, nil, &InputError{Field: "category", Problem: err.Error()}
	}
	content, throwaway, err := validateContent(req.Content, cfg)
	if err != nil {
		return Store{}, nil, err
	}
	slug := memfile.TrimJS(req.Slug)
	if slug != "" {
		if !similar.IsKebab(slug) || len(slug) > maxSlugLen {
			hint := similar.Kebab(slug)
			msg := fmt.Sprintf("%q is not a kebab-case slug (lowercase letters and digits in words joined by single hyphens, at most %d characters)", req.Slug, maxSlugLen)
			if hint != "" && len(hint) <= maxSlugLen {
				msg += fmt.Sprintf("; try %q", hint)
			}
			return Store{}, nil, &InputError{Field: "slug", Problem: msg}
		}
	} else if looksLikeSlug(content) {
		return Store{}, nil, &InputError{Field: "content", Problem: fmt.Sprintf("content starts with %q, which would be read back as a slug; pass the slug separately or reword the start", content[:min(len(content), 20)])}
	}
	return Store{Category: cat, Content: content, Slug: slug}, contentSignals(content, slug, throwaway, cfg), nil
}

// validateContent also returns the passwords for tests or a local setup
// the content gives (secret.Match.Throwaway), which contentSignals holds:
// any other credential refuses it.
func validateContent(raw string, cfg config.Config) (string, []secret.Match, error) {
	bad := func(format string, args ...any) error {
		return &InputError{Field: "content", Problem: fmt.Sprintf(format, args...)}
	}
	if !utf8.ValidString(raw) {
		return "", nil, bad("content is not valid UTF-8: %s", notUTF8(raw))
	}
	for _, r := range raw {
		switch {
		case r == '\n' || r == '\r' || r == 0x2028 || r == 0x2029 || r == 0x85:
			return "", nil, bad("content contains a line break (U+%04X); a memory entry is exactly one line", r)
		case r == '\t':
		case unicode.IsControl(r):
			return "", nil, bad("content contains the control character U+%04X", r)
		}
	}
	content := memfile.TrimJS(raw)
	if content == "" {
		return "", nil, bad("content is empty")
	}
	if n := text.UTF16Len(content); n > cfg.MaxContent {
		return "", nil, bad("content is %d UTF-16 units long; the limit is %d (one concise sentence)", n, cfg.MaxContent)
	}
	found := secret.Find(content)
	if i := slices.IndexFunc(found, func(m secret.Match) bool { return !m.Throwaway }); i >= 0 {
		return "", nil, bad("content looks like it contains %s; memory files are shared and committed, so store where the secret lives (e.g. an environment variable name) instead", WithArticle(found[i].Kind))
	}
	return content, found, nil
}

// contentSignals are the signs of poisoning in content and its slug.
func contentSignals(content, slug string, throwaway []secret.Match, cfg config.Config) []Signal {
	bad := func(format string, args ...any) error {
		return &InputError{Field: "content", Problem: fmt.Sprintf(format, args...)}
	}
	var out []Signal
	// Memory is pasted into every later agent session as trusted notes, so
	// text that steers the agent is held or refused like a secret;
	// switching the rule off (a project whose facts trip it) lets it
	// through.
	// Under a project's review floor the signs are read whatever the
	// rules' switches say: a writer's own settings must not switch off
	// what holds its writes (without a floor, a writer that may turn
	// review off may as well turn a rule off).
	reviewing := cfg.Review != config.ReviewOff && cfg.ReviewFloor != "" && cfg.ReviewFloor != config.ReviewOff
	if cfg.Enabled(rules.AgentDirectiveCode) || reviewing {
		// A plain installer (directive.Match.Installer) is no refusal: a
		// team's own install line reads the same, and the review gate
		// holds every pipe into a shell below for a person's look. The
		// line is read as it will be written, slug and all: agents read
		// the slug too, and a plain installer's must name what the
		// address installs ("[run-it-again-at-every-session-start]": a
		// red team's).
		all := directive.Find("- " + EntryRef{Slug: slug, Content: content}.Text())
		d := slices.DeleteFunc(slices.Clone(all), func(m directive.Match) bool { return m.Installer })
		if len(d) == 0 && len(all) > 0 && cfg.Review != config.ReviewOff {
			// held on the directive reading's own word: the shell-pipe
			// sign below reads a dotted argument as a script and let an
			// installer through to update a cited one (a red team's)
			out = append(out, Signal{Code: SignalShellPipe, What: "it " + all[0].What()})
		}
		if len(d) > 0 {
			out = append(out, Signal{Code: rules.AgentDirectiveCode, What: "it " + d[0].What(),
				refusal: bad("content %s; memory is read by agents, so it is not stored — state the project fact instead", d[0].What())})
		}
	}
	// Text a reader of the file cannot see (bidi controls, tag characters,
	// zero-width characters, comments) would reach every agent unreviewed.
	if cfg.Enabled(rules.HiddenTextCode) || reviewing {
		all := hidden.Find(content)
		// A comment that holds only a note or a template's hint
		// (hidden.Match.Note, Hint) is stored without review: check
		// reports it, and refusing it would lose the user's fact. With
		// review on it is held like any hidden text: a person sees it
		// before any agent reads it.
		h := slices.DeleteFunc(slices.Clone(all), func(h hidden.Match) bool { return h.Note || h.Hint || h.Stray })
		switch {
		case len(h) > 0:
			at := utf8.RuneCountInString(content[:h[0].Start]) + 1
			out = append(out, Signal{Code: rules.HiddenTextCode,
				What: fmt.Sprintf("it holds hidden text at character %d, %s (made visible: %s)", at, h[0].What(), quoteVisible(content, h)),
				refusal: bad("content holds hidden text at character %d, %s (made visible: %s); memory is read by agents, so it is not stored — remove it",
					at, h[0].What(), quoteVisible(content, h))})
		case len(all) > 0 && cfg.Review != config.ReviewOff:
			at := utf8.RuneCountInString(content[:all[0].Start]) + 1
			out = append(out, Signal{Code: rules.HiddenTextCode,
				What: fmt.Sprintf("it holds hidden text at character %d, %s (made visible: %s)", at, all[0].What(), quoteVisible(content, all))})
		}
	}
	// A password given for tests or a local setup (secret.Match.Throwaway;
	// validateContent refused any other credential) is held for a person,
	// who knows whether it opens anything others reach; with review off it
	// is refused, as every likely credential was before.
	if len(throwaway) > 0 {
		out = append(out, Signal{Code: "secret",
			What:    "it gives a password for tests or a local setup",
			refusal: bad("content looks like it contains %s for tests or a local setup; memory files are shared and committed, so store where the secret lives (e.g. an environment variable name) instead", WithArticle(throwaway[0].Kind))})
	}
	if cfg.Review != config.ReviewOff {
		if len(out) == 0 || out[0].Code != rules.AgentDirectiveCode {
			out = append(out, steersSignals(content)...)
		}
		if p := shellPipe(content); p != "" && !slices.ContainsFunc(out, func(s Signal) bool { return s.Code == SignalShellPipe }) {
			out = append(out, Signal{Code: SignalShellPipe, What: fmt.Sprintf("it pipes into a shell or interpreter (%q)", p)})
		}
	}
	return out
}

// looksLikeSlug reports whether "- " + content would parse with a slug.
func looksLikeSlug(content string) bool {
	d := memfile.Parse([]byte("- " + content))
	return len(d.Entries) == 1 && d.Entries[0].HasSlug
}

// quoteVisible quotes content with its hidden passages made visible,
// shortened around the first one when it is long.
func quoteVisible(content string, passages []hidden.Match) string {
	const around = 40
	from, to := max(0, passages[0].Start-around), min(len(content), passages[0].End+around)
	if from > 0 { // cut at a space, else at a character
		if i := strings.IndexByte(content[from:passages[0].Start], ' '); i >= 0 {
			from += i + 1
		}
		for !utf8.RuneStart(content[from]) {
			from--
		}
	}
	if to < len(content) {
		if i := strings.LastIndexByte(content[passages[0].End:to], ' '); i >= 0 {
			to = passages[0].End + i
		}
		for to < len(content) && !utf8.RuneStart(content[to]) {
			to++
		}
	}
	for _, h := range passages { // a passage across an edge is shown whole
		if h.Start < to && h.End > to {
			to = h.End
		}
	}
	var in []hidden.Match
	for _, h := range passages {
		if h.Start >= from && h.End <= to {
			h.Start, h.End = h.Start-from, h.End-from
			in = append(in, h)
		}
	}
	q := hidden.Show(content[from:to], in)
	if from > 0 {
		q = "…" + q
	}
	if to < len(content) {
		q += "…"
	}
	return `"` + q + `"`
}
