// Package secret finds likely credentials in text, so that memory-lsp can
// refuse to store them and flag the ones already in memory files (which are
// committed and read by every agent).
//
// The detectors aim at few false positives: each known token format is
// matched by its fixed prefix and length, and the generic "password: value"
// form only fires when the value is long enough, is not a placeholder and
// mixes character classes.
//
// Cost: one pass over the lower-cased text finds every anchor (a literal that
// starts a match); each detector's expression then runs only on a short
// window at its anchors, so ordinary prose costs about a nanosecond a byte.
package secret

import (
	"regexp"
	"sort"
	"strings"
	"sync"
)

// Match is one likely credential: the byte range of the secret itself (for a
// URL, the password; for an assignment, the value) and what it looks like.
type Match struct {
	Start, End int
	Kind       string
}

type detector struct {
	kind string
	// anchors, in lower case, start every match.
	anchors []string
	// re is anchored (^) and runs on the window starting at an anchor.
	re func() *regexp.Regexp
	// group is the submatch that holds the secret (0: the whole match).
	group int
	// ok, if set, must accept the secret.
	ok func(string) bool
}

// lazy compiles src on first use: most processes (a query, a list) never
// look for secrets, and compiling every detector cost a millisecond of each
// process's start.
func lazy(src string) func() *regexp.Regexp {
	return sync.OnceValue(func() *regexp.Regexp { return regexp.MustCompile(src) })
}

// window is how far past an anchor a match may reach.
const window = 512

var detectors = []detector{
	{kind: "private key", anchors: []string{"-----begin "},
		re: lazy(`^-----BEGIN (?:[A-Z0-9]+ )*PRIVATE KEY-----`)},
	{kind: "AWS access key id", anchors: []string{"akia", "asia"},
		re: lazy(`^((?:AKIA|ASIA)[A-Z0-9]{16})\b`), group: 1, ok: notPlaceholder},
	{kind: "AWS secret access key", anchors: []string{"aws"},
		re:    lazy(`^(?i:aws_?(?:secret|sk)[a-z_]*)["']?[ \t]*[:=][ \t]*["']?([A-Za-z0-9/+]{40})(?:[^A-Za-z0-9/+=]|$)`),
		group: 1, ok: func(v string) bool { return notPlaceholder(v) && classes(v) >= 3 }},
	{kind: "GitHub token", anchors: []string{"ghp_", "gho_", "ghu_", "ghs_", "ghr_"},
		re: lazy(`^(gh[pousr]_[A-Za-z0-9]{36,251})\b`), group: 1, ok: notPlaceholder},
	{kind: "GitHub token", anchors: []string{"github_pat_"},
		re: lazy(`^(github_pat_[A-Za-z0-9_]{22,244})\b`), group: 1, ok: notPlaceholder},
	{kind: "GitLab token", anchors: []string{"glpat-"},
		re: lazy(`^(glpat-[A-Za-z0-9_-]{20,})`), group: 1, ok: notPlaceholder},
	{kind: "Slack token", anchors: []string{"xox"},
		re: lazy(`^(xox[abprs]-[A-Za-z0-9-]{10,})`), group: 1,
		ok: func(v string) bool { return notPlaceholder(v) && strings.ContainsAny(v, "0123456789") }},
	{kind: "Slack webhook", anchors: []string{"https://hooks.slack.com/"},
		re: lazy(`^https://hooks\.slack\.com/(?:services|workflows|triggers)/[A-Za-z0-9]+/[A-Za-z0-9]+/[A-Za-z0-9]{16,}`), ok: notPlaceholder},
	{kind: "Stripe key", anchors: []string{"sk_live_", "rk_live_"},
		re: lazy(`^((?:sk|rk)_live_[A-Za-z0-9]{16,})`), group: 1, ok: notPlaceholder},
	{kind: "Google API key", anchors: []string{"aiza"},
		re: lazy(`^(AIza[0-9A-Za-z_-]{35})(?:[^0-9A-Za-z_-]|$)`), group: 1, ok: notPlaceholder},
	{kind: "API key (sk-…)", anchors: []string{"sk-"},
		re:    lazy(`^(sk-(?:ant-(?:api\d+-|admin\d+-)?|proj-|svcacct-|admin-)?[A-Za-z0-9_-]{32,})`),
		group: 1, ok: func(v string) bool { return notPlaceholder(v) && classes(v) >= 2 && hasDigit(v) }},
	{kind: "npm token", anchors: []string{"npm_"},
		re: lazy(`^(npm_[A-Za-z0-9]{36})\b`), group: 1, ok: notPlaceholder},
	{kind: "JSON Web Token", anchors: []string{"eyj"},
		re: lazy(`^(eyJ[A-Za-z0-9_-]{10,}\.eyJ[A-Za-z0-9_-]{10,}\.[A-Za-z0-9_-]{16,})`), group: 1},
}

// anchorURL starts the hand-written scan for passwords in URLs.
const anchorURL = "://"

// assignmentRoots find the names of `password: value` assignments; see
// assignmentKey for the full names.
var assignmentRoots = []string{"pass", "pwd", "secret", "token", "key"}

type anchor struct {
	text string
	det  int // index into detectors, or -1 for "://", -2 for an assignment root
}

var (
	anchors []anchor
	// isPair[c0<<8|c1] says some anchor starts with bytes c0 c1 (every anchor
	// has at least two); byPair lists them. The small table keeps the scan
	// in cache; the map is consulted only on a hit.
	isPair [1 << 16]bool
	byPair = map[uint16][]uint8{}
)

func init() {
	for i, d := range detectors {
		for _, a := range d.anchors {
			anchors = append(anchors, anchor{a, i})
		}
	}
	anchors = append(anchors, anchor{anchorURL, -1})
	for _, r := range assignmentRoots {
		anchors = append(anchors, anchor{r, -2})
	}
	for i, a := range anchors {
		k := uint16(a.text[0])<<8 | uint16(a.text[1])
		isPair[k] = true
		byPair[k] = append(byPair[k], uint8(i))
	}
}

// Find returns the likely credentials in s, sorted by position, without
// overlaps (the more specific detector wins).
func Find(s string) []Match {
	// The anchors are matched against s lowered a byte at a time: a
	// lowered copy of s would be a second copy of a whole file at every
	// check (8 MB at the size limit, issue 26).
	var hits [][2]int // (anchor index, offset)
	for i := 0; i+1 < len(s); i++ {
		k := uint16(lowerByte(s[i]))<<8 | uint16(lowerByte(s[i+1]))
		if !isPair[k] {
			continue
		}
		for _, ai := range byPair[k] {
			if hasLowerPrefix(s, i, anchors[ai].text) {
				hits = append(hits, [2]int{int(ai), i})
			}
		}
	}
	if len(hits) == 0 {
		return nil
	}
	var out []Match
	// Specific formats first, in detector order, then URLs, then assignments.
	for di := range detectors {
		d := &detectors[di]
		for _, h := range hits {
			if anchors[h[0]].det != di {
				continue
			}
			p := h[1]
			if p > 0 && isWordByte(s[p-1]) && d.group != 0 {
				continue // the token must start a word
			}
			m := d.re().FindStringSubmatchIndex(s[p:min(len(s), p+window)])
			if m == nil {
				continue
			}
			start, end := p+m[2*d.group], p+m[2*d.group+1]
			if d.ok != nil && !d.ok(s[start:end]) {
				continue
			}
			if !overlapsAny(out, start, end) {
				out = append(out, Match{Start: start, End: end, Kind: d.kind})
			}
		}
	}
	for _, h := range hits {
		if anchors[h[0]].det == -1 {
			out = findURLPassword(s, h[1], out)
		}
	}
	for _, h := range hits {
		if anchors[h[0]].det == -2 {
			out = findAssignment(s, h[1], anchors[h[0]].text, out)
		}
	}
	sort.Slice(out, func(i, j int) bool { return out[i].Start < out[j].Start })
	return out
}

func isWordByte(c byte) bool {
	return isLetter(c) || ('0' <= c && c <= '9') || c == '_'
}

// findURLPassword looks at one "://" at i for scheme://user:password@host.
// It is written by hand because an expression starting with the scheme would
// have to run over all the text.
func findURLPassword(s string, i int, out []Match) []Match {
	j := i
	for j > 0 && isSchemeChar(s[j-1]) {
		j--
	}
	if j == i || !isLetter(s[j]) {
		return out
	}
	off := i + 3
	auth := s[off:min(len(s), off+window)]
	if k := strings.IndexAny(auth, " \t\r\n/?#"); k >= 0 {
		auth = auth[:k]
	}
	at := strings.LastIndexByte(auth, '@')
	if at <= 0 || at == len(auth)-1 {
		return out
	}
	colon := strings.IndexByte(auth[:at], ':')
	if colon <= 0 {
		return out
	}
	start, end := off+colon+1, off+at
	if urlPassword(s[start:end]) && !overlapsAny(out, start, end) {
		out = append(out, Match{Start: start, End: end, Kind: "password in a URL"})
	}
	return out
}

func isLetter(c byte) bool { return ('a' <= c && c <= 'z') || ('A' <= c && c <= 'Z') }

func isSchemeChar(c byte) bool {
	return isLetter(c) || ('0' <= c && c <= '9') || c == '+' || c == '.' || c == '-'
}

// assignmentKey finds the full secret name around a root at i in lower
// ("password", "passwd", "passphrase", "pwd", "secret", "token", and
// "api_key", "access-key", "secretkey", "private_key"…) and returns where
// it ends. The name must end the identifier it is part of: "DB_PASSWORD"
// counts, "tokenizer", "max_tokens" and "keyboard" do not.
func assignmentKey(lower string, i int, root string) (int, bool) {
	end := i + len(root)
	switch root {
	case "pass":
		for _, suf := range [...]string{"word", "wd", "phrase"} {
			if strings.HasPrefix(lower[end:], suf) {
				end += len(suf)
				break
			}
		}
		if end == i+len(root) {
			return 0, false
		}
	case "key":
		before := strings.TrimRight(lower[max(0, i-8):i], "_-")
		ok := false
		for _, pre := range [...]string{"api", "access", "private", "secret"} {
			if strings.HasSuffix(before, pre) {
				ok = true
				break
			}
		}
		if !ok {
			return 0, false
		}
	}
	if end < len(lower) && isIdentChar(lower[end]) {
		return 0, false
	}
	return end, true
}

var assignmentValue = lazy(`^["']?[ \t]*(?::=|[:=])[ \t]*["']?([^\s"'` + "`" + `,;)]+)`)

// findAssignment checks one assignment root at i for `password: value`
// whose value looks like a real secret (see genericValue).
func findAssignment(s string, i int, root string, out []Match) []Match {
	// assignmentKey reads at most 8 bytes before the root and a suffix and
	// a byte after it: lowered, that window is all it needs
	from, to := max(0, i-8), min(len(s), i+len(root)+len("phrase")+1)
	end, ok := assignmentKey(asciiLower(s[from:to]), i-from, root)
	end += from
	// assignsNext reads quotes, blanks, ':' and '=', which no lowering changes
	if !ok || !assignsNext(s, end) {
		return out
	}
	m := assignmentValue().FindStringSubmatchIndex(s[end:min(len(s), end+window)])
	if m == nil {
		return out
	}
	start, stop := end+m[2], end+m[3]
	if genericValue(s[start:stop]) && !overlapsAny(out, start, stop) {
		out = append(out, Match{Start: start, End: stop, Kind: "credential in an assignment"})
	}
	return out
}

// assignsNext is a quick test for `["']?[ \t]*[:=]` at i.
func assignsNext(s string, i int) bool {
	if i < len(s) && (s[i] == '"' || s[i] == '\'') {
		i++
	}
	for i < len(s) && (s[i] == ' ' || s[i] == '\t') {
		i++
	}
	return i < len(s) && (s[i] == ':' || s[i] == '=')
}

func isIdentChar(c byte) bool {
	return ('a' <= c && c <= 'z') || ('0' <= c && c <= '9') || c == '_' || c == '-'
}

// lowerByte is c lowered if it is an ASCII letter.
func lowerByte(c byte) byte {
	if 'A' <= c && c <= 'Z' {
		return c + 'a' - 'A'
	}
	return c
}

// hasLowerPrefix reports whether s[i:], ASCII letters lowered, starts with
// p (lower-case).
func hasLowerPrefix(s string, i int, p string) bool {
	if len(s)-i < len(p) {
		return false
	}
	for k := 0; k < len(p); k++ {
		if lowerByte(s[i+k]) != p[k] {
			return false
		}
	}
	return true
}

// asciiLower lowers ASCII letters only, so byte offsets stay the same.
// It copies s once (a Builder's string is its buffer), not twice as a
// []byte and a string of it would.
func asciiLower(s string) string {
	var b strings.Builder
	b.Grow(len(s))
	from := 0
	for i := 0; i < len(s); i++ {
		if c := s[i]; 'A' <= c && c <= 'Z' {
			b.WriteString(s[from:i])
			b.WriteByte(c + 'a' - 'A')
			from = i + 1
		}
	}
	b.WriteString(s[from:])
	return b.String()
}

func overlapsAny(ms []Match, start, end int) bool {
	for _, m := range ms {
		if start < m.End && m.Start < end {
			return true
		}
	}
	return false
}

var placeholderWords = []string{"xxx", "***", "...", "changeme", "change-me", "change_me", "example",
	"placeholder", "redacted", "dummy", "sample", "your-", "your_", "yourpass", "<", ">", "${", "{{", "}}"}

// notPlaceholder rejects documentation values: <your-token>, ${VAR}, $VAR,
// xxx…, ***, "changeme", "example", "your-…".
func notPlaceholder(v string) bool {
	if v == "" || v[0] == '$' || v[0] == '%' {
		return false
	}
	l := asciiLower(v)
	for _, w := range placeholderWords {
		if strings.Contains(l, w) {
			return false
		}
	}
	return true
}

// classes counts the character classes in v: lower, upper, digit, other.
func classes(v string) int {
	var lo, up, di, ot bool
	for _, r := range v {
		switch {
		case 'a' <= r && r <= 'z':
			lo = true
		case 'A' <= r && r <= 'Z':
			up = true
		case '0' <= r && r <= '9':
			di = true
		default:
			ot = true
		}
	}
	n := 0
	for _, b := range [...]bool{lo, up, di, ot} {
		if b {
			n++
		}
	}
	return n
}

func hasDigit(v string) bool { return strings.ContainsAny(v, "0123456789") }

func hasLetter(v string) bool {
	for _, r := range v {
		if ('a' <= r && r <= 'z') || ('A' <= r && r <= 'Z') {
			return true
		}
	}
	return false
}

// dottedIdent is a code reference such as process.env.TOKEN or config.apiKey.
var dottedIdent = lazy(`^[A-Za-z_$][A-Za-z0-9_$]*(?:\.[A-Za-z_$][A-Za-z0-9_$]*|\[[^\]]*\]|\(\))+$`)

// envName is an environment variable name such as NPM_TOKEN.
var envName = lazy(`^[A-Z][A-Z0-9_]*$`)

// genericValue decides whether the value of `password: value` looks like a
// real secret: at least 8 characters, not a placeholder or a reference, and
// mixing letters with digits or both letter cases.
func genericValue(v string) bool {
	if len(v) < 8 || !notPlaceholder(v) || dottedIdent().MatchString(v) || envName().MatchString(v) {
		return false
	}
	if strings.HasPrefix(v, "http://") || strings.HasPrefix(v, "https://") || strings.HasPrefix(v, "/") || strings.HasPrefix(v, "~") {
		return false
	}
	if !hasLetter(v) {
		return false
	}
	var lo, up bool
	for _, r := range v {
		lo = lo || ('a' <= r && r <= 'z')
		up = up || ('A' <= r && r <= 'Z')
	}
	return hasDigit(v) || (lo && up && classes(v) >= 3)
}

// urlPassword accepts the password part of scheme://user:pass@host unless it
// is a placeholder ("pass", "password", "<pw>", "${PW}", "****").
func urlPassword(v string) bool {
	if !notPlaceholder(v) || len(v) < 3 {
		return false
	}
	switch asciiLower(v) {
	case "pass", "password", "passwd", "pwd", "secret", "pw", "token", "user", "username":
		return false
	}
	return !envName().MatchString(v)
}
