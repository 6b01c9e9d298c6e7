package memory

import (
	"bytes"
	"crypto/sha256"
	"encoding/hex"
	"encoding/json"
	"fmt"
	"maps"
	"path/filepath"
	"regexp"
	"strings"
	"time"
	"unicode"

	"github.com/memory-lsp/memory-lsp/core/category"
	"github.com/memory-lsp/memory-lsp/core/config"
	"github.com/memory-lsp/memory-lsp/core/hidden"
	"github.com/memory-lsp/memory-lsp/core/refs"
	"github.com/memory-lsp/memory-lsp/core/rules"
	"github.com/memory-lsp/memory-lsp/core/store"
	"github.com/memory-lsp/memory-lsp/core/text"
)

// Review (issue 30). Memory is read by every later agent session, so a line
// an agent was tricked into storing steers all of them; a detector catches
// the wordings it was given, and attackers paraphrase. So a write that a sign
// of poisoning touches (review: flagged), or every write that does not come
// from a person in an editor (review: agents), is held in store.HeldName,
// which nothing reads as memory, until a person approves it into its
// category file (as a direct store would have written it) or rejects it.

// ActionHeld is the store action of a write held for review.
const ActionHeld = "held"

// Signal codes besides the rules' own (agent-directive, hidden-text).
const (
	SignalURL       = "url"
	SignalShellPipe = "shell-pipe"
	SignalReview    = "review-agents"
)

// Signal is one reason a write is held.
type Signal struct {
	Code string `json:"code"`
	What string `json:"what"` // "it links to https://…, which no entry cites"
	// refusal is the error that refuses the write when review is off
	// (nil: with review off the write is stored).
	refusal error
}

// Held is one write waiting for review, a line of store.HeldName.
type Held struct {
	ID       string   `json:"id"`
	Time     string   `json:"time"`
	By       string   `json:"by"`
	Name     string   `json:"name,omitempty"`
	Category string   `json:"category"`
	Slug     string   `json:"slug,omitempty"`
	Content  string   `json:"content"`
	Signals  []Signal `json:"signals"`
	// Line is the record's line in the queue (1-based), set when read.
	Line int `json:"-"`
}

// HeldRef is what a store reply says of a held write.
type HeldRef struct {
	ID      string   `json:"id"`
	Signals []Signal `json:"signals"`
}

// ParseHeld reads the review queue's records. A line that is not a record
// (a hand edit, a cut write) is kept as it is by every rewrite and
// reported in bad, by line number, so that nothing in it is lost unseen.
func ParseHeld(data []byte) (held []Held, bad []int) {
	for i, line := range bytes.Split(data, []byte{'\n'}) {
		if len(bytes.TrimSpace(line)) == 0 {
			continue
		}
		var h Held
		if err := json.Unmarshal(line, &h); err != nil || h.ID == "" || h.Content == "" {
			bad = append(bad, i+1)
			continue
		}
		if _, err := category.Parse(h.Category); err != nil {
			bad = append(bad, i+1)
			continue
		}
		h.Line = i + 1
		held = append(held, h)
	}
	return held, bad
}

// heldLine encodes h as the queue's line.
func heldLine(h Held) []byte {
	b, err := json.Marshal(h)
	if err != nil { // only strings and slices of them
		panic(err)
	}
	return append(b, '\n')
}

// heldID names a held write: short, typed by a person, the same for the
// same write at the same moment only.
func heldID(cat, content, at string) string {
	sum := sha256.Sum256([]byte(cat + "\x00" + content + "\x00" + at))
	return "h" + hex.EncodeToString(sum[:4])
}

// heldBy reports whether a write by who with these signals is held.
func heldBy(mode string, who Writer, signals []Signal) bool {
	switch mode {
	case config.ReviewFlagged:
		return len(signals) > 0
	case config.ReviewAgents:
		return len(signals) > 0 || !who.Person
	}
	return false
}

// pipeStageRE finds a pipe into a shell or an interpreter, and the rest of
// that stage of the pipeline.
var pipeStageRE = regexp.MustCompile(`\|\s*((?:sudo\s+(?:-\S+\s+)*)?(?:/usr)?(?:/bin/)?((?:ba|z|k|da|fi|c|tc)?sh|python[0-9.]*|perl|ruby|node|deno|bun|php|pwsh|powershell|iex|invoke-expression|source))\b([^|;&)\n]*)`)

// shellPipe is the first pipe in s whose shell or interpreter reads its
// program from the pipe (no script file named, no -c/-e/-m program), or "":
// `curl … | sh` runs what it fetched, `… | python3 -m json.tool` and
// `… | bash deploy.sh` only read data.
func shellPipe(s string) string {
	lower := strings.ToLower(s)
	for _, m := range pipeStageRE.FindAllStringSubmatchIndex(lower, -1) {
		// The stage ends with the code span the pipe stands in, or with
		// its sentence: in "`curl … | bash`. See ~/.bashrc." the path is
		// no script of the pipe's (a red team's way past the review).
		stage := lower[m[6]:m[7]]
		for _, sp := range refs.CodeSpanContents(lower) {
			// spans as Markdown pairs their backtick runs: "``a | sh -c``
			// and …" ends at its closing pair (a red team's)
			if sp[0] <= m[0] && m[0] < sp[1] && sp[1] < m[7] {
				stage = lower[m[6]:max(m[6], sp[1])]
			}
		}
		for _, end := range []string{". ", "! ", "? ", "。", "！", "？"} {
			if i := sentenceEnd(stage, end); i >= 0 {
				stage = stage[:i]
			}
		}
		rest := strings.Fields(stage)
		shell := lower[m[4]:m[5]]
		program := false
		for k, f := range rest {
			// A script is named like a file (deploy.sh, ./x, bin/run), or
			// given after -c (-e and -m for the interpreters that take
			// one: a shell's -e is errexit, and "| bash -e" still runs
			// what it is piped, a red team's); other words are the
			// sentence going on ("| sh now.").
			f = strings.TrimRight(f, ".,;:!?`")
			given := k+1 < len(rest)
			switch {
			case f == "-c" || f == "-command":
				program = given
			case f == "-e" || f == "-m":
				program = given && !shellFamily(shell)
			case strings.ContainsAny(f, "./") && !strings.HasPrefix(f, "-"):
				program = true
			}
			if program {
				break
			}
		}
		if !program {
			return strings.TrimSpace(lower[m[0]:m[5]])
		}
	}
	return ""
}

// shellFamily reports whether name is a shell (sh, bash, zsh, …) rather
// than an interpreter that takes a program with -e or -m (PowerShell's -e
// is -EncodedCommand).
func shellFamily(name string) bool {
	return strings.HasSuffix(name, "sh") && name != "pwsh"
}

// sentenceEnd is where end first ends a sentence in s, or -1: an
// ellipsis ("bash ... ./x") ends none.
func sentenceEnd(s, end string) int {
	for from := 0; ; {
		i := strings.Index(s[from:], end)
		if i < 0 {
			return -1
		}
		i += from
		if end != ". " || i == 0 || s[i-1] != '.' {
			return i
		}
		from = i + len(end)
	}
}

// urlRE finds http(s) links; trailing punctuation is trimmed after.
var urlRE = regexp.MustCompile(`(?i)\bhttps?://[^\s<>"'` + "`" + `)\]]+`)

// urls are the http(s) links in s, as written.
func urls(s string) []string {
	var out []string
	for _, u := range urlRE.FindAllString(s, -1) {
		out = append(out, strings.TrimRight(u, ".,;:!?"))
	}
	return out
}

// newURLSignals are the links in content that no entry of files cites: a
// link the team has already let into memory is no new way out.
func newURLSignals(content string, files []rules.File) []Signal {
	var out []Signal
	for _, u := range urls(content) {
		known := false
		for _, f := range files {
			if f.Doc != nil && bytes.Contains(bytes.ToLower(f.Doc.Src), []byte(strings.ToLower(u))) {
				known = true
				break
			}
		}
		if !known {
			out = append(out, Signal{Code: SignalURL, What: fmt.Sprintf("it links to %s, which no entry cites yet", Printable(u))})
		}
	}
	return out
}

// holdPlan is the plan of a write held for review: a record appended to
// the queue (none when the same text is held already) and to the
// provenance log. The result says so, and how a person approves it.
func holdPlan(dir string, st Store, v View, signals []Signal, who Writer, now time.Time, res *StoreResult) ([]store.Change, error) {
	if v.HeldErr != nil {
		return nil, fmt.Errorf("this write is to be held for review, and %w", v.HeldErr)
	}
	held, _ := ParseHeld(v.Held)
	for _, h := range held {
		if h.Category == st.Category.String() && h.Content == st.Content && h.Slug == st.Slug {
			*res = heldResult(st, h)
			return nil, nil
		}
	}
	at := now.UTC().Format(time.RFC3339Nano)
	h := Held{ID: heldID(st.Category.String(), st.Content, at), Time: at, By: who.By, Name: who.Name,
		Category: st.Category.String(), Slug: st.Slug, Content: st.Content, Signals: signals}
	line := heldLine(h)
	if len(v.Held)+len(line) > store.MaxHeldBytes {
		return nil, fmt.Errorf("the review queue %s is full (%d bytes): approve or reject what it holds (memory-lsp review) before anything more is held", store.HeldName, len(v.Held))
	}
	*res = heldResult(st, h)
	return []store.Change{
		{Path: filepath.Join(dir, store.HeldName), Data: line, Append: true},
		ProvenanceChange(dir, Provenance{Time: at, Action: ActionHeld, By: who.By, Name: who.Name, File: st.Category.File(), Slug: st.Slug, Content: st.Content, Held: h.ID}),
	}, nil
}

func heldResult(st Store, h Held) StoreResult {
	r := StoreResult{Action: ActionHeld, File: st.Category.File(), Slug: st.Slug, Content: st.Content, Held: &HeldRef{ID: h.ID, Signals: h.Signals}}
	whys := make([]string, len(h.Signals))
	for i, s := range h.Signals {
		whys[i] = Printable(s.What)
	}
	why := strings.Join(whys, "; ")
	// Quoted made visible: the reply must not carry the hidden text on to
	// whoever reads it.
	shown := Printable(st.Content)
	r.Message = fmt.Sprintf("Held for review, not stored: %s (%s). A person approves it into %s with `memory-lsp review --approve %s`, or in the editor; until then no query returns it. Tell the user it is waiting.", quote(shown), why, st.Category.File(), h.ID)
	return r
}

// ReviewRequest picks held writes: by ID, or all.
type ReviewRequest struct {
	IDs     []string
	All     bool
	Approve bool // else reject
	// Content, when set, is the text the person was shown for the one ID:
	// a record that says anything else (the file was edited since) is not
	// approved or rejected on their word.
	Content string
}

// ReviewOutcome is what a review did to one held write.
type ReviewOutcome struct {
	Held Held `json:"held"`
	// Store is the store an approval made (Action stored, updated, …);
	// nil for a rejection.
	Store *StoreResult `json:"store,omitempty"`
	// Problem says why a write approved with all others could not be
	// stored; it stays held.
	Problem string `json:"problem,omitempty"`
}

// ReviewPlan approves or rejects held writes inside the lock: each approved
// one is stored as a direct store would store it (PlanStoreParsing, in the
// queue's order, each on the file the one before left), without the
// review's checks (a person approved it), and the queue is rewritten
// without the writes reviewed. who is the reviewer.
func ReviewPlan(dir string, req ReviewRequest, who Writer, out *[]ReviewOutcome) Plan {
	return func(v View, cfg config.Config) ([]store.Change, error) {
		*out = nil
		if v.HeldErr != nil {
			return nil, v.HeldErr
		}
		held, _ := ParseHeld(v.Held)
		picked := map[int]bool{}
		for _, id := range req.IDs {
			var at []int
			for i, h := range held {
				if h.ID == id {
					at = append(at, i)
				}
			}
			switch {
			case len(at) == 0:
				return nil, &InputError{Field: "id", Problem: fmt.Sprintf("no held write has the id %q (memory-lsp review lists them)", id)}
			case len(at) > 1:
				// Only a hand edit makes two: which one the person meant
				// is not ours to guess.
				return nil, &InputError{Field: "id", Problem: fmt.Sprintf("%d held writes have the id %q (the queue %s was edited by hand): look at them with memory-lsp review and remove the one that should not be there", len(at), id, store.HeldName)}
			case req.Content != "" && held[at[0]].Content != req.Content:
				return nil, &InputError{Field: "id", Problem: fmt.Sprintf("the held write %q no longer says what you were shown (the queue changed since): look at it again", id)}
			}
			picked[at[0]] = true
		}
		for i := range held {
			if req.All {
				picked[i] = true
			}
		}
		if len(picked) == 0 {
			return nil, nil
		}
		now := time.Now()
		at := now.UTC().Format(time.RFC3339Nano)
		cur := map[category.Category][]byte{}
		var logs []store.Change
		drop := map[int]bool{}
		for i, h := range held {
			if !picked[i] {
				continue
			}
			if !req.Approve {
				drop[h.Line] = true
				*out = append(*out, ReviewOutcome{Held: h})
				logs = append(logs, ProvenanceChange(dir, Provenance{Time: at, Action: ActionRejected, By: who.By, Name: who.Name, File: h.File(), Slug: h.Slug, Content: h.Content, Held: h.ID}))
				continue
			}
			st, b, err := approvalInput(h, cur, v.Files, cfg)
			var next []byte
			var r StoreResult
			if err == nil {
				next, r, err = PlanStore(b, st, cfg)
			}
			if err != nil {
				if !req.All {
					return nil, fmt.Errorf("approving %s: %w", h.ID, err)
				}
				// One bad record (a hand edit, a category file too large
				// to read) does not keep the others from their review; it
				// stays, and the reply says why.
				*out = append(*out, ReviewOutcome{Held: h, Problem: err.Error()})
				continue
			}
			drop[h.Line] = true
			if next != nil {
				cur[st.Category] = next
			}
			*out = append(*out, ReviewOutcome{Held: h, Store: &r})
			if rec := ConflictRecord(r, now); rec != nil {
				logs = append(logs, store.Change{Path: filepath.Join(dir, ConflictLog), Data: rec, Append: true})
			}
			// The entry is the agent's, approved by the reviewer.
			p := storeProvenance(r, Writer{By: h.By, Name: h.Name}, at)
			p.Held, p.ApprovedBy = h.ID, reviewerName(who)
			logs = append(logs, ProvenanceChange(dir, p))
			logs = append(logs, AckChange(dir, StoreAck(r, ByReview, now)))
		}
		var changes []store.Change
		for _, c := range category.All {
			if b, ok := cur[c]; ok {
				path := filepath.Join(dir, c.File())
				if f := CategoryFile(v.Files, c); f != nil {
					path = f.Path
				}
				changes = append(changes, store.Change{Path: path, Data: b})
			}
		}
		// The queue without the reviewed lines; every other line, a record
		// or not, kept byte for byte.
		var rest []byte
		for i, line := range bytes.SplitAfter(v.Held, []byte{'\n'}) {
			if !drop[i+1] {
				rest = append(rest, line...)
			}
		}
		changes = append(changes, store.Change{Path: filepath.Join(dir, store.HeldName), Data: rest})
		return append(changes, logs...), nil
	}
}

// approvedConfig is cfg for a write a person approved: the checks that
// held it are answered.
func approvedConfig(cfg config.Config) config.Config {
	c := cfg
	c.Review = config.ReviewOff // the review is what happened
	c.Disabled = make(map[string]bool, len(cfg.Disabled)+2)
	maps.Copy(c.Disabled, cfg.Disabled)
	c.Disabled[rules.AgentDirectiveCode] = true
	c.Disabled[rules.HiddenTextCode] = true
	return c
}

// approvalInput is the store that approving h makes and the bytes of its
// category file it is planned against: those the review planned already
// (cur), else the file's.
func approvalInput(h Held, cur map[category.Category][]byte, files []rules.File, cfg config.Config) (Store, []byte, error) {
	st, err := Validate(StoreRequest{Category: h.Category, Content: h.Content, Slug: h.Slug}, approvedConfig(cfg))
	if err != nil {
		return Store{}, nil, err
	}
	if b, ok := cur[st.Category]; ok {
		return st, b, nil
	}
	if f := CategoryFile(files, st.Category); f != nil {
		if f.TooLarge() {
			return Store{}, nil, tooLarge("store into", f)
		}
		return st, f.Doc.Src, nil
	}
	return st, nil, nil
}

// File is the category file a held write would go to ("" for no category).
func (h Held) File() string {
	c, err := category.Parse(h.Category)
	if err != nil {
		return ""
	}
	return c.File()
}

// Who names a held write's writer for a person, printable (an agent chose
// its own name): "mcp (claude-code 2.0.1)".
func (h Held) Who() string {
	who := Printable(h.By)
	if h.Name != "" {
		who += " (" + Printable(h.Name) + ")"
	}
	return who
}

func reviewerName(who Writer) string {
	if who.Name != "" {
		return who.By + ":" + who.Name
	}
	return who.By
}

// HeldCode is the code of the finding that shows a held write in the
// editor.
const HeldCode = "held"

// HeldFinding is the finding that shows the held write h in the file it
// would be stored into, on that file's first line (info: it is not memory
// yet, and someone has to decide it); false when files lacks that file.
func HeldFinding(files []rules.File, h Held) (rules.Finding, bool) {
	c, err := category.Parse(h.Category)
	if err != nil {
		return rules.Finding{}, false
	}
	for i, f := range files {
		if !f.IsCategory || f.Category != c || f.Doc == nil {
			continue
		}
		end := bytes.IndexByte(f.Doc.Src, '\n')
		if end < 0 {
			end = len(f.Doc.Src)
		}
		// The reasons read again from the content: the record's own are
		// whatever wrote the file.
		signals := Recheck(h, config.Default())
		if len(signals) == 0 {
			signals = h.Signals
		}
		whys := make([]string, len(signals))
		for k, s := range signals {
			whys[k] = Printable(s.What)
		}
		if len(whys) == 0 {
			whys = []string{"the review queue holds it (no sign is found in it now)"}
		}
		shown := Printable(h.Content)
		if h.Slug != "" {
			shown = "[" + Printable(h.Slug) + "] " + shown
		}
		return rules.Finding{Code: HeldCode, Severity: rules.Information, File: i, Span: text.Span{Start: 0, End: end},
			Message: fmt.Sprintf("held for review, not stored: %s — written by %s at %s; held because %s. Approve or reject it (code actions, or memory-lsp review %s).",
				quote(shown), h.Who(), Printable(h.Time), strings.Join(whys, "; "), Printable(h.ID))}, true
	}
	return rules.Finding{}, false
}

// ReadHeld reads the review queue of the workspace ws: the held writes,
// and the lines that are no record (ParseHeld).
func ReadHeld(ws *store.Workspace) ([]Held, []int, error) {
	snap, err := ws.SnapshotOnly([]string{store.HeldName})
	if err != nil {
		return nil, nil, err
	}
	if snap.HeldErr != nil {
		return nil, nil, snap.HeldErr
	}
	held, bad := ParseHeld(snap.Held)
	return held, bad, nil
}

// Printable is s as a person may be shown it, in a reply, a listing or the
// editor: hidden text made visible (hidden.Show) and every other
// control character escaped, so that neither an agent's text nor a name it
// chose for itself can hide or rewrite what the reviewer reads.
func Printable(s string) string {
	s = hidden.Show(s, hidden.Find(s))
	if !strings.ContainsFunc(s, isControl) {
		return s
	}
	var b strings.Builder
	for _, r := range s {
		if isControl(r) {
			fmt.Fprintf(&b, "\\u%04x", r)
			continue
		}
		b.WriteRune(r)
	}
	return b.String()
}

func isControl(r rune) bool { return r != '\t' && unicode.IsControl(r) }

// Recheck is what the review's checks find in a held write now, as the
// reviewer must be shown it: the record's own reasons are whatever wrote
// the file (an agent with a shell may have written it).
func Recheck(h Held, cfg config.Config) []Signal {
	c := cfg
	if c.Review == config.ReviewOff {
		c.Review = config.ReviewFlagged
	}
	_, signals, err := screen(StoreRequest{Category: h.Category, Content: h.Content, Slug: h.Slug}, c)
	if err != nil {
		return []Signal{{Code: "invalid", What: "it cannot be stored: " + err.Error()}}
	}
	return append(signals, newURLSignals(h.Content, nil)...)
}

// wouldHold is a dry run's reply for a write review would hold.
func wouldHold(r StoreResult) string {
	whys := make([]string, len(r.Held.Signals))
	for i, s := range r.Held.Signals {
		whys[i] = Printable(s.What)
	}
	return fmt.Sprintf("Would be held for review, not stored: %s (%s).", quote(Printable(r.Content)), strings.Join(whys, "; "))
}
