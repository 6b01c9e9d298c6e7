package refs

import (
	"strings"
	"unicode/utf8"
)

// Versions are found in two steps: a linear scan finds anchors (a subject
// word, an "@" or ":" before a digit, a name before a three-part number),
// and a small anchored expression reads what follows. One large expression
// run over the whole text would cost about its size per byte.
var (
	// reTail reads what follows a subject: [**][:] [version|v] [op] 18[.2][.x][+]
	// [or newer] ("**Node.js**: Version 20", "Node: v22").
	reTail = lazyRegexp(`^(?:\*{1,2}|_{1,2})?:?(?i:\s+versions?)?(?:\s*(>=|=>|≥|<=|=<|≤|~=|==|>|<|\^|~|=|@)\s*|\s+[vV]|\s+)` +
		`[vV]?(\d+(?:\.\d+){0,3})((?:\.[xX*])*)(\+)?` +
		`(?i:(\s+(?:or|and)\s+(?:newer|later|higher|above|up|greater|more|over|older|earlier|lower|below|under)))?`)
	// reAtLeast is what may precede a subject to make it a lower bound.
	reAtLeast = lazyRegexp(`(?i)(?:at\s+least|minimum|min\.?)\s+$`)
	// reAtTail reads what follows the "@" of name@18, react@^18.2.0.
	reAtTail = lazyRegexp(`^(>=|<=|>|<|\^|~|=)?v?(\d+(?:\.\d+){0,3})((?:\.[xX*])*)`)
	// reTagTail reads what follows the ":" of postgres:16-alpine.
	reTagTail = lazyRegexp(`^v?(\d+(?:\.\d+){0,3})`)
)

// reListedPackage reads a package line as Laravel Boost writes it into
// agent files, the whole entry: "laravel/framework (LARAVEL) - v12",
// "tailwindcss (TAILWINDCSS) - v4": a package, its short name in capitals,
// the major version installed.
var reListedPackage = lazyRegexp(`^\s*(?:[-*+]\s+)?(@?[a-z0-9][a-z0-9._-]*(?:/[a-z0-9][a-z0-9._-]*)?) \(([A-Z][A-Z0-9_]*)\) - v(\d+(?:\.\d+){0,2})\s*$`)

// listedPackage reads the version of s, when s[a:b] is all of s and s is
// a reListedPackage line whose capitals name its package. Only the whole
// line, as Boost writes it: in a sentence the same shape is an example, a
// history ("removed in … - v11") or another thing's version ("uuid
// (RFC9562) - v7"), which a red team found warned of.
func listedPackage(s string, a, b int) []Ref {
	if strings.TrimSpace(s[:a]) != "" || strings.TrimSpace(s[b:]) != "" || !strings.Contains(s[a:b], ") - v") {
		return nil
	}
	m := reListedPackage().FindStringSubmatchIndex(s[a:b])
	if m == nil {
		return nil
	}
	name, short := s[a+m[2]:a+m[3]], strings.ToLower(strings.ReplaceAll(s[a+m[4]:a+m[5]], "_", ""))
	if !strings.Contains(strings.ReplaceAll(name, "-", ""), short) {
		return nil
	}
	return []Ref{{Kind: Version, Start: a + m[2], End: a + m[7], ValueStart: a + m[6], ValueEnd: a + m[7],
		Subject: name, Version: s[a+m[6] : a+m[7]], Op: Exact}}
}

// versions finds the versions stated in s[a:b]. code says s[a:b] is the
// content of a code span, where `org/app:1.4` is an image too.
func versions(s string, a, b int, code bool) []Ref {
	out := listedPackage(s, a, b)
	for i := a; i < b; {
		switch c := s[i]; {
		case isNameByte(c):
			j := i
			for j < b && isNameByte(s[j]) {
				j++
			}
			if boundaryBefore(s, i) {
				out = append(out, nameVersions(s, i, j, b)...)
			}
			i = j
		case c == '@' || c == ':':
			if r, ok := atVersion(s, a, i, b, code); ok {
				out = append(out, r)
			}
			i++
		default:
			i++
		}
	}
	return out
}

// isNameByte: the bytes of a subject, a package or an image name.
func isNameByte(c byte) bool {
	return 'a' <= c && c <= 'z' || 'A' <= c && c <= 'Z' || '0' <= c && c <= '9' ||
		c == '.' || c == '_' || c == '-' || c == '+'
}

// afterOK reports whether a version may end at s[i]: not inside a word or
// a longer number ("Node 18GB", "Python 3.11a").
func afterOK(s string, i int) bool {
	if i >= len(s) {
		return true
	}
	r, _ := utf8.DecodeRuneInString(s[i:])
	return !isWordRune(r) && !(r == '.' && i+1 < len(s) && isDigit(s[i+1]))
}

// nameVersions reads the version the name s[i:j] starts: a subject followed
// by a version, Go's go1.22, the interpreter's python3.11, or any name
// followed by a three-part version ("CodeMirror 5.65.2").
func nameVersions(s string, i, j, b int) []Ref {
	word := strings.TrimRight(s[i:j], ".")
	if word == "" {
		return nil
	}
	low := strings.ToLower(word)
	switch {
	case strings.HasPrefix(word, "go1."):
		return fixedVersion(s, i, j, len("go"), "go")
	case strings.HasPrefix(low, "python3."):
		return fixedVersion(s, i, j, len("python"), "python")
	}
	if sx, ok := suffixed[low]; ok {
		// "Tailwind CSS 4.1.4", "Next JS 14": a name written in two words
		k := i + len(word)
		for k < b && s[k] == ' ' {
			k++
		}
		if k > i+len(word) && k+len(sx.word) <= b && strings.EqualFold(s[k:k+len(sx.word)], sx.word) &&
			(k+len(sx.word) == b || !isNameByte(s[k+len(sx.word)])) {
			if r, ok := subjectRef(s, i, k+len(sx.word), b, sx.sub); ok {
				return []Ref{r}
			}
		}
	}
	if sub, ok := subjects[low]; ok {
		compound := compoundName(s, i)
		if compound != "" {
			sub = subject{compound + "-" + sub.name, sub.integer}
		}
		if r, ok := subjectRef(s, i, i+len(word), b, sub); ok {
			r.Compound = compound != ""
			return append([]Ref{r}, alternatives(s, r, word, b)...)
		}
		return nil
	}
	if notSoftware[low] || !endsWithLetter(word) {
		return nil
	}
	k := i + len(word)
	for k < b && (s[k] == ' ' || s[k] == '\t') {
		k++
	}
	if k == i+len(word) || k >= b {
		return nil
	}
	if s[k] == 'v' || s[k] == 'V' {
		k++
	}
	n := threePart(s[k:b])
	if n == 0 || !afterOK(s, k+n) {
		return nil
	}
	return []Ref{{Kind: Version, Start: i, End: k + n, ValueStart: k, ValueEnd: k + n, Subject: low, Version: s[k : k+n]}}
}

// threePart returns the length of the "5.65.2" s starts with, 0 if none.
func threePart(s string) int {
	k := 0
	for part := 0; part < 3; part++ {
		if part > 0 {
			if k >= len(s) || s[k] != '.' {
				return 0
			}
			k++
		}
		_, n := digits(s[k:])
		if n == 0 {
			return 0
		}
		k += n
	}
	return k
}

// fixedVersion reads go1.22 or python3.11: the version follows a prefix of
// skip bytes inside the name s[i:j].
func fixedVersion(s string, i, j, skip int, subject string) []Ref {
	v, n := s[i+skip:j], 0
	for n < len(v) && (isDigit(v[n]) || v[n] == '.' && n+1 < len(v) && isDigit(v[n+1])) {
		n++
	}
	if n == 0 || !afterOK(s, i+skip+n) {
		return nil
	}
	return []Ref{{Kind: Version, Start: i, End: i + skip + n, ValueStart: i + skip, ValueEnd: i + skip + n,
		Subject: subject, Version: v[:n]}}
}

// subjectRef reads the version after the subject s[i:j], or refuses it.
func subjectRef(s string, i, j, b int, sub subject) (Ref, bool) {
	m := reTail().FindStringSubmatchIndex(s[j:b])
	if m == nil || !afterOK(s, j+m[1]) {
		return Ref{}, false
	}
	group := func(k int) (string, bool) {
		if m[2*k] < 0 {
			return "", false
		}
		return s[j+m[2*k] : j+m[2*k+1]], true
	}
	opText, hasOp := group(1)
	ver, _ := group(2)
	wild, _ := group(3)
	_, plus := group(4)
	post, hasPost := group(5)
	start := i
	from := max(0, i-16)
	for from > 0 && !utf8.RuneStart(s[from]) {
		from--
	}
	pre := reAtLeast().FindStringIndex(s[from:i])
	if pre != nil {
		start = from + pre[0]
	}
	op := Exact
	switch {
	case hasOp:
		op = parseOp(opText)
	case plus:
		op = AtLeast
	}
	if hasPost {
		op = AtLeast
		p := strings.ToLower(post)
		for _, w := range []string{"older", "earlier", "lower", "below", "under"} {
			if strings.HasSuffix(p, w) {
				op = AtMost
			}
		}
	}
	if pre != nil {
		op = AtLeast
	}
	vPrefix := strings.ContainsAny(s[j:j+m[4]], "vV")
	explicit := strings.Contains(ver, ".") || wild != "" || hasOp || plus || hasPost || pre != nil || vPrefix
	if e := j + m[1]; e+1 < b && s[e] == '-' && widthWords[strings.ToLower(nextWord(s, e+1, b))] {
		// "TypeScript: 2-space indent": a width, not a release
		return Ref{}, false
	}
	if releaseOwns(s, j+m[1]) {
		return Ref{}, false
	}
	if !sub.admits(ver, explicit) || languageWords[strings.ToLower(nextWord(s, j+m[1], b))] {
		return Ref{}, false // "Python >3.12 typing style" is a style, not the runtime
	}
	if featureVerbs[strings.ToLower(nextWord(s, j+m[1], b))] || releasedIn(s, start) || comparedWith(s, start) || releaseClause(s, start, j+m[1]) ||
		inCondition(s, start) {
		// "Laravel 11 allows …", "new commands available in Laravel 11":
		// what a release brought, not what the project runs (issue 27);
		// "compared with `next.js < 15`": another release, for contrast
		return Ref{}, false
	}
	lower := (op == AtLeast || op == Above) && pre == nil
	return Ref{Kind: Version, Start: start, End: j + m[1], ValueStart: j + m[4], ValueEnd: j + m[5],
		Subject: sub.name, Version: ver, Op: op, Aside: lower && (opensAside(s, start, b) || namesFeature(s, start, j+m[1], b, sub.name))}, true
}

// namesFeature reports whether the words right after a lower bound of a
// language name one of its features: "PHP 8.1+ backed enums", "Go 1.23+
// iterators". The bound is the release that brought it, as in an aside
// (opensAside), not the oldest the project supports. A word that says it
// is needed, before the version in its clause ("Requires Go 1.21+
// generics", "Minimum: …") or after it ("Go 1.21+ required for …"), or a
// preposition between ("Go 1.21+ without generics", "Node 18+ lambdas on
// AWS") keeps the claim: a red team's.
func namesFeature(s string, start, i, b int, subject string) bool {
	if !languages[subject] || neededBefore(s, start) {
		return false
	}
	for n := 0; n < 2; n++ {
		for i < b && (s[i] == ' ' || s[i] == '\t') {
			i++
		}
		j := i
		for j < b && ('a' <= s[j] && s[j] <= 'z' || s[j] == '-' && j > i) {
			j++ // a lower-case word: a name ("Go 1.22+ Docker") is another subject
		}
		w := s[i:j]
		if w == "" || neededWords[w] || joinWords[w] || j < b && s[j] != ' ' && s[j] != '\t' && s[j] != ',' && s[j] != ';' && s[j] != ')' && s[j] != '.' {
			return false
		}
		if featureNouns[w] {
			return true
		}
		i = j
	}
	return false
}

// neededBefore reports whether the words of the clause before s[i] say
// the version is needed or supported, or what the project builds, tests
// or runs ("Must use Go 1.21+ generics", "Build with …").
func neededBefore(s string, i int) bool {
	clause := s[strings.LastIndexAny(s[:i], ".;!?\n")+1 : i]
	return holdsWord(clause, neededWords) || holdsWord(clause, claimWords)
}

// holdsWord reports whether text holds a word of set, in lower case.
func holdsWord(text string, set map[string]bool) bool {
	for _, w := range strings.FieldsFunc(strings.ToLower(text), func(r rune) bool { return !isWordRune(r) }) {
		if set[w] {
			return true
		}
	}
	return false
}

// languages are the subjects whose releases bring featureNouns.
var languages = set("go", "php", "python", "java", "rust", "typescript", "kotlin", "ruby", "swift", "dart", "elixir", "dotnet")

// featureNouns are what a release brings to a language and nothing else
// is called: "PHP 8.1+ enums". Lambdas, operators, constructs, records
// and threads are also what clouds, clusters and businesses run or keep.
var featureNouns = set("enums", "enum", "generics", "iterators", "fibers", "coroutines", "builtins", "built-ins",
	"dataclasses", "decorators", "f-strings")

// joinWords between a version and a noun tie the noun to something else.
var joinWords = set("with", "without", "for", "on", "in", "to", "and", "or", "vs", "no", "not", "at", "via", "from", "by", "of", "as")

// comparedWith reports whether the words before s[i] set the release
// against another for contrast: "compared with `next.js < 15`", "unlike
// Node 18", "im Vergleich zu PHP 7". That names a release, and claims
// nothing. "vs" also joins the releases a project runs ("Test Node 22 vs
// Node 18 in CI"): it is contrast only in a sentence with no word of
// testing, running or support (a red team's).
func comparedWith(s string, i int) bool {
	from := max(0, i-48) // the longest phrase ("по сравнению с", 25 bytes) and the marks before a version
	for from > 0 && !utf8.RuneStart(s[from]) {
		from--
	}
	before := strings.ToLower(strings.TrimRight(s[from:i], " \t`*_\"'“«„(["))
	at := func(w string) bool {
		k := len(before) - len(w)
		return strings.HasSuffix(before, w) && (k == 0 && from == 0 || k > 0 && (before[k-1] == ' ' || before[k-1] == '(' || before[k-1] == ','))
	}
	for _, w := range comparisonWords {
		if at(w) {
			return true
		}
	}
	if !at("vs") && !at("vs.") && !at("versus") {
		return false
	}
	to := len(s)
	if k := strings.IndexAny(s[i:], ";!?\n"); k >= 0 {
		to = i + k
	}
	sentence := s[strings.LastIndexAny(s[:i], ";!?\n")+1 : to]
	return !holdsWord(sentence, neededWords) && !holdsWord(sentence, claimWords)
}

// comparisonWords end a phrase of contrast, in the languages the rules
// read. Not "gegenüber" or "par rapport à", which also mean "towards"
// and "regarding" ("Abwärtskompatibilität gegenüber PHP 7.4"): a red
// team's.
var comparisonWords = []string{"compared with", "compared to", "comparing with", "comparing to",
	"unlike", "sammenlignet med", "jämfört med", "im vergleich zu", "verglichen mit",
	"comparé à", "comparée à", "comparado con", "comparada con", "en comparación con", "comparado com", "em comparação com",
	"по сравнению с", "в сравнении с", "相比于", "相较于"}

// claimWords say, beside neededWords, that a sentence is about what a
// project builds, tests, runs or keeps: "Must use Go 1.21+ generics",
// "Test Node 22 vs Node 18 in CI".
var claimWords = set("must", "build", "builds", "compile", "compiles", "test", "tests", "testing", "tested", "ci", "matrix",
	"run", "runs", "running", "keep", "both", "prod", "production", "staging", "worker", "workers", "deploy", "deployed")

// releaseOwns reports whether the version that ends at s[e] owns what
// follows, a feature in code or a new one: "PHP 8.4's `public
// private(set)` properties", ".NET 8's new minimal APIs". That is what the
// release has, not what the project runs. Other "'s" may be "is" ("Node
// 18's the minimum") or a scope ("PHP 8.2's syntax"), and stay claims.
func releaseOwns(s string, e int) bool {
	rest := s[e:] // past the prose: the code span it owns is another part
	switch {
	case strings.HasPrefix(rest, "'s "), strings.HasPrefix(rest, "'S "):
		rest = rest[3:]
	case strings.HasPrefix(rest, "’s "):
		rest = rest[len("’s "):]
	default:
		return false
	}
	return strings.HasPrefix(rest, "`") || strings.HasPrefix(strings.ToLower(rest), "new ")
}

// opensAside reports whether s[i] is the first word inside parentheses
// (past emphasis and blanks) that say no more than when a feature came:
// "Use `for range N` (Go 1.22+)", "(Python 3.9+ built-ins)". Parentheses
// that say it is needed ("(Go 1.21+ required)", "(at least Go 1.21)"), or
// follow a label ("Requirements (Go 1.21+, Docker)", "Toolchain: (Go
// 1.21+)"), state what the project needs.
func opensAside(s string, i, b int) bool {
	before := strings.TrimRight(s[:i], " \t*_")
	open := 0
	switch {
	case strings.HasSuffix(before, "("):
		open = len("(")
	case strings.HasSuffix(before, "（"):
		open = len("（")
	default:
		return false
	}
	inner := s[i:b]
	if k := strings.IndexAny(inner, ")）"); k >= 0 {
		inner = inner[:k]
	}
	if holdsWord(inner, neededWords) {
		return false
	}
	lead := strings.TrimRight(before[:len(before)-open], " \t*_")
	if lead == "" || strings.HasSuffix(lead, ":") {
		return false
	}
	w, _ := wordBefore(lead, len(lead))
	return !neededWords[strings.ToLower(w)]
}

// neededWords say a version is what the project needs, inside parentheses
// or as the label before them.
var neededWords = set("required", "requires", "require", "requirement", "requirements", "needed", "needs", "need",
	"minimum", "min", "least", "only", "mandatory", "prerequisite", "prerequisites", "toolchain", "language",
	"runtime", "runtimes", "platform", "engine", "engines", "version", "versions", "stack", "environment", "support",
	"supports", "supported", "target", "targets", "compatibility", "compatible", "setup", "install")

// compoundName is the first word of another name emphasised as one whose
// second word is the subject at s[i], lower-case, "" for none:
// "**TypeScript ESLint**" (the package typescript-eslint), "**Lucide
// React**" (lucide-react, an icon library). The version is that package's
// where the project pins one of that name, else the subject's ("**Frontend
// React** 18"): Judge reads Ref.Compound. Unemphasised, the word before is
// another part of a stack ("TypeScript React 18"), and the claim is React's.
func compoundName(s string, i int) string {
	if i == 0 || s[i-1] != ' ' {
		return ""
	}
	w, at := wordBefore(s, i)
	if w == "" || at+len(w) != i-1 || w[0] < 'A' || w[0] > 'Z' {
		return ""
	}
	before := strings.TrimRight(s[:at], " \t")
	if strings.HasSuffix(before, "**") || strings.HasSuffix(before, "__") {
		return strings.ToLower(w)
	}
	return ""
}

// alternatives reads the versions written after r's with a slash, as
// alternatives of the same subject: "Pydantic v1/v2", ".NET 8/.NET 9",
// "Node 18/20 compatible". Only a later release of the same shape and
// close by is one: "Node 18/512 MB", "Go 1.21/386", "Node 18/V8" and
// "Python 3.9/64-bit" speak of other things. JudgeAll reads each with
// the ones before it.
func alternatives(s string, r Ref, word string, b int) []Ref {
	var out []Ref
	withV := r.ValueStart > 0 && (s[r.ValueStart-1] == 'v' || s[r.ValueStart-1] == 'V')
	last, ok := parseSemver(r.Version)
	for e := r.End; ok && e < b && s[e] == '/'; {
		k := e + 1
		named := false
		if k+len(word) <= b && strings.EqualFold(s[k:k+len(word)], word) {
			k, named = k+len(word), true
			for k < b && s[k] == ' ' {
				k++
			}
		}
		if k < b && (s[k] == 'v' || s[k] == 'V') {
			if !withV && !named {
				break
			}
			k++
		} else if withV && !named {
			break
		}
		n := 0
		for k+n < b && (isDigit(s[k+n]) || s[k+n] == '.' && k+n+1 < b && isDigit(s[k+n+1])) {
			n++
		}
		if n == 0 || !afterOK(s, k+n) || k+n < b && s[k+n] == '-' {
			break
		}
		v, vok := parseSemver(s[k : k+n])
		if !vok || !last.less(v) || v.v[0]-last.v[0] > 5 {
			break
		}
		out = append(out, Ref{Kind: Version, Start: e + 1, End: k + n, ValueStart: k, ValueEnd: k + n,
			Subject: r.Subject, Version: s[k : k+n], Op: Exact, Alt: true})
		e, last = k+n, v
	}
	return out
}

// backtickedVersion reads a version written as a code span of its own right
// after a subject in prose: "pnpm `8.15.5`", "Node.js `20.11.1`". The same
// guards hold as for a version in prose: a subject that is also a word needs
// more than a whole number.
func backtickedVersion(s string, c codeSpan) (Ref, bool) {
	v := strings.TrimSpace(s[c.inner.start:c.inner.end])
	lead := c.inner.start + strings.Index(s[c.inner.start:c.inner.end], v)
	if t := strings.TrimPrefix(strings.TrimPrefix(v, "v"), "V"); t != v {
		lead, v = lead+1, t
	}
	if v == "" || !wholeDotted(v) {
		return Ref{}, false
	}
	j := c.outer.start
	for j > 0 && s[j-1] == ' ' {
		j--
	}
	if j == c.outer.start {
		return Ref{}, false // "pnpm`8`": not a name and its version
	}
	i := j
	for i > 0 && isNameByte(s[i-1]) {
		i--
	}
	sub, ok := subjects[strings.ToLower(strings.TrimRight(s[i:j], "."))]
	if !ok || !boundaryBefore(s, i) {
		return Ref{}, false
	}
	if !sub.admits(v, strings.Contains(v, ".")) {
		return Ref{}, false
	}
	return Ref{Kind: Version, Start: i, End: c.outer.end, ValueStart: lead, ValueEnd: lead + len(v),
		Subject: sub.name, Version: v}, true
}

// wholeDotted reports whether v is one to four whole numbers joined by dots.
func wholeDotted(v string) bool {
	parts := strings.Split(v, ".")
	if len(parts) > 4 {
		return false
	}
	for _, p := range parts {
		if _, n := digits(p); n == 0 || n != len(p) {
			return false
		}
	}
	return true
}

// admits reports whether ver, written after the subject's name, reads as
// its version; explicit says the statement leaves no doubt (a dotted
// version, an operator, a "v", "or newer"). A subject that is also a word
// needs that ("go 2 levels up"); Go's versions are 1.x ("go 1" is a count);
// "node 2" is a node of a graph.
func (sub subject) admits(ver string, explicit bool) bool {
	major, _ := digits(ver)
	switch {
	case !sub.integer && !explicit:
		return false
	case sub.name == "go" && !strings.HasPrefix(ver, "1."):
		return false
	case sub.name == "node" && !explicit && (major < 4 || major > 40):
		return false
	case !strings.Contains(ver, ".") && major >= 1000:
		// "Vite `5173`", "Postgres 5432": a port; "Visual Studio 2022":
		// a year, which no pin compares with
		return false
	}
	return true
}

// languageWords, right after a version, make it the language's features an
// entry speaks of ("Python 3.10 syntax", "modern Python >3.12 typing style",
// "C++20 features") rather than the version the project runs on.
// widthWords follow a number joined by a hyphen to say a width: "2-space
// indent", "80-column lines".
var widthWords = set("space", "spaces", "tab", "tabs", "column", "columns", "char", "chars", "character", "characters")

var languageWords = set("syntax", "typing", "style", "features", "feature", "idioms", "semantics", "grammar")

// nextWord is the word that starts at s[i], past spaces, up to b.
// featureVerbs after a version say what that release does ("Laravel 11
// allows …"); sinceWords before one, or "in" after a participle of change
// ("available in", "new in", "deprecated in"), say a feature came or went
// with it. "Written in Go 1.22" is a claim about the project, and stays one.
var (
	featureVerbs = set("allows", "brought", "brings", "introduced", "introduces", "added", "adds", "removed",
		"removes", "deprecated", "deprecates", "dropped", "drops", "changed", "changes", "ships", "shipped",
		"supports", "lets", "enables")
	sinceWords   = set("since", "until", "till")
	changedWords = set("available", "new", "introduced", "added", "removed", "deprecated", "changed", "fixed", "dropped")
)

// releasedIn reports whether the words before s[i] say a release brought
// or took away what the sentence speaks of.
func releasedIn(s string, i int) bool {
	w, at := wordBefore(s, i)
	w = strings.ToLower(w)
	if sinceWords[w] {
		return true
	}
	prev, pat := wordBefore(s, at)
	switch w {
	case "in":
		return changedWords[strings.ToLower(prev)]
	case "from":
		// "upgraded from Laravel 10": what it ran before; "never upgraded
		// from Node 16" says it still does (a red team's)
		before, _ := wordBefore(s, pat)
		return leftWords[strings.ToLower(prev)] && !negationWords[strings.ToLower(before)] && !strings.EqualFold(before, "yet")
	}
	return false
}

// leftWords before "from" say the project left the release that follows.
var leftWords = set("upgraded", "upgrading", "upgrade", "migrated", "migrating", "migrate", "moved", "ported", "switched")

// inCondition reports whether the clause before s[i] supposes the
// reader's setup ("Skip this if you're on React 18 or earlier", "If you
// used PPR in Next.js 15, …", "wenn du Node 18 nutzt"): a release the
// sentence supposes, not one it says the project runs (issue 27's files
// v1–v18). Only "if" and its kin with the reader as subject, no negation
// between (a red team's: "Everything breaks if you are not on Node 16",
// "Builds fail unless you use Node 16" and "When deploying we use Node
// 16" are claims). The clause runs from the last stop, colon, comma or
// parenthesis: in "If it fails, use Node 20" the version is the order's.
func inCondition(s string, i int) bool {
	clause := strings.ToLower(s[strings.LastIndexAny(s[:i], ".;:!?,(\n")+1 : i])
	words := strings.FieldsFunc(clause, func(r rune) bool { return !isWordRune(r) && r != '\'' && r != '’' })
	for k, w := range words {
		if !conditionWords[w] || k+1 == len(words) || !readerWords[words[k+1]] {
			continue
		}
		for _, rest := range words[k+1:] {
			if negationWords[rest] {
				return false
			}
		}
		return true
	}
	return false
}

// conditionWords open a condition; readerWords, after one, make it the
// reader's ("if you're on …", "wenn du …", "si vous …").
var (
	conditionWords = set("if", "wenn", "falls", "si", "если")
	readerWords    = set("you", "you're", "you’re", "your", "du", "ihr", "sie", "vous", "tu", "usted", "ustedes", "вы", "ты")
	negationWords  = set("not", "no", "never", "don't", "aren't", "isn't", "haven't", "nicht", "kein", "keine", "pas", "не", "нет")
)

// releaseClause reports whether the release s[start:end] is the whole of a
// clause's opening "In <name> <version>," ("In Laravel 12, middleware is
// registered in bootstrap/app.php"): what that release does, which a newer
// one may do too, not what the project runs (issue 27's files v18).
func releaseClause(s string, start, end int) bool {
	if end >= len(s) || s[end] != ',' {
		return false
	}
	w, at := wordBefore(s, start)
	if !strings.EqualFold(w, "in") {
		return false
	}
	lead := strings.TrimRight(s[:at], " \t*_")
	if lead == "" {
		return true
	}
	r, _ := utf8.DecodeLastRuneInString(lead)
	return strings.ContainsRune(".:;!?(", r) || lead[len(lead)-1] == '\n'
}

// wordBefore is the ASCII word that ends right before s[i], past blanks,
// and where it starts.
func wordBefore(s string, i int) (string, int) {
	for i > 0 && (s[i-1] == ' ' || s[i-1] == '\t') {
		i--
	}
	j := i
	for j > 0 && ('a' <= s[j-1] && s[j-1] <= 'z' || 'A' <= s[j-1] && s[j-1] <= 'Z') {
		j--
	}
	return s[j:i], j
}

func nextWord(s string, i, b int) string {
	for i < b && (s[i] == ' ' || s[i] == '\t') {
		i++
	}
	j := i
	for j < b && ('a' <= s[j] && s[j] <= 'z' || 'A' <= s[j] && s[j] <= 'Z') {
		j++
	}
	return s[i:j]
}

// atVersion reads name@18 (k at the "@") or an image's name:16 (k at the ":").
func atVersion(s string, a, k, b int, code bool) (Ref, bool) {
	if k+1 >= b {
		return Ref{}, false
	}
	i := k // back over the name: letters, digits, "._-+", folders, a scope's "@"
	for i > a && (isNameByte(s[i-1]) || s[i-1] == '/') {
		i--
	}
	if s[k] == '@' && i > a && s[i-1] == '@' {
		i--
	}
	if i == k || !boundaryBefore(s, i) {
		return Ref{}, false
	}
	if s[k] == ':' {
		m := reTagTail().FindStringSubmatchIndex(s[k+1 : b])
		if m == nil {
			return Ref{}, false
		}
		return imageRef(s, i, k, k+1+m[1], k+1+m[2], k+1+m[3], code)
	}
	m := reAtTail().FindStringSubmatchIndex(s[k+1 : b])
	if m == nil || !afterOK(s, k+1+m[1]) {
		return Ref{}, false
	}
	name := strings.ToLower(s[i:k])
	if sub, ok := subjects[name]; ok {
		name = sub.name
	}
	op := Exact
	if m[2] >= 0 {
		op = parseOp(s[k+1+m[2] : k+1+m[3]])
	}
	return Ref{Kind: Version, Start: i, End: k + 1 + m[1], ValueStart: k + 1 + m[4], ValueEnd: k + 1 + m[5],
		Subject: name, Version: s[k+1+m[4] : k+1+m[5]], Op: op}, true
}

// imageRef builds the Ref of the image s[i:k] whose tag's version is
// s[vs:ve] and whose match ends at e, or refuses it.
func imageRef(s string, i, k, e, vs, ve int, code bool) (Ref, bool) {
	name := strings.TrimPrefix(strings.TrimPrefix(s[i:k], "docker.io/"), "library/")
	if name == "" || name != strings.ToLower(name) || name[0] == '/' || name[len(name)-1] == '/' {
		return Ref{}, false
	}
	// The tag may go on ("16-alpine", "3.12-slim"), but not into a word or a path.
	if e < len(s) {
		r, _ := utf8.DecodeRuneInString(s[e:])
		if isWordRune(r) || r == '/' || r == ':' || r == '.' && e+1 < len(s) && isDigit(s[e+1]) {
			return Ref{}, false
		}
	}
	if hasExtension(name[strings.LastIndexByte(name, '/')+1:]) {
		return Ref{}, false // a file and its line: main.go:42
	}
	if !images[name] && !(code && strings.Contains(name, "/")) {
		return Ref{}, false
	}
	ver := s[vs:ve]
	if major, n := digits(ver); n > 3 || major >= 1000 {
		return Ref{}, false // a port: redis:6379
	}
	return Ref{Kind: Version, Start: i, End: e, ValueStart: vs, ValueEnd: ve, Subject: name, Version: ver}, true
}
