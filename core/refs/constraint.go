package refs

import "strings"

// semver is a version cut to three parts; n says how many were written
// ("18" has n 1, "1.22" n 2), which decides what "every 18.*" covers.
type semver struct {
	v [3]int
	n int
}

// less compares as versions.
func (a semver) less(b semver) bool {
	for i := range a.v {
		if a.v[i] != b.v[i] {
			return a.v[i] < b.v[i]
		}
	}
	return false
}

// next is the first version after every version a's written parts cover:
// next(18) = 19.0.0, next(1.22) = 1.23.0, next(1.22.3) = 1.22.4.
func (a semver) next() semver { return a.bump(a.n - 1) }

// bump increments part i and zeroes the parts after it.
func (a semver) bump(i int) semver {
	if i < 0 {
		i = 0
	}
	b := semver{n: 3}
	copy(b.v[:i], a.v[:i])
	b.v[i] = a.v[i] + 1
	return b
}

// String writes the first n parts.
func (a semver) String() string {
	var b strings.Builder
	for i := 0; i < max(a.n, 1); i++ {
		if i > 0 {
			b.WriteByte('.')
		}
		b.WriteString(itoa(a.v[i]))
	}
	return b.String()
}

func itoa(n int) string {
	if n == 0 {
		return "0"
	}
	var buf [20]byte
	i := len(buf)
	for n > 0 {
		i--
		buf[i] = byte('0' + n%10)
		n /= 10
	}
	return string(buf[i:])
}

// parseSemver reads "18", "v1.22.3", "go1.22", "3.11.*", "20-alpine",
// "1.2.3-rc.1": up to three dot-separated numbers; a wildcard part or any
// suffix ends it. ok is false when it does not start with a number.
func parseSemver(s string) (semver, bool) {
	s = strings.TrimPrefix(strings.TrimPrefix(s, "go"), "v")
	s = strings.TrimPrefix(s, "V")
	var out semver
	for out.n < 3 {
		n, k := digits(s)
		if k == 0 || k > 9 {
			break
		}
		out.v[out.n] = n
		out.n++
		s = s[k:]
		if len(s) < 2 || s[0] != '.' || !isDigit(s[1]) {
			break
		}
		s = s[1:]
	}
	return out, out.n > 0
}

// interval is the versions [lo, hi). hasLo false means lo is 0 only because
// nothing bounds it below; hasHi false means no upper bound.
type interval struct {
	lo, hi       semver
	hasLo, hasHi bool
}

var everything = interval{lo: semver{n: 3}}

func (a interval) intersect(b interval) (interval, bool) {
	out := a
	if out.lo.less(b.lo) {
		out.lo = b.lo
	}
	out.hasLo = a.hasLo || b.hasLo
	if b.hasHi && (!out.hasHi || b.hi.less(out.hi)) {
		out.hi, out.hasHi = b.hi, true
	}
	return out, !out.hasHi || out.lo.less(out.hi)
}

// bounded returns the interval op admits around v.
func bounded(op Op, v semver) interval {
	switch op {
	case AtLeast:
		return interval{lo: v, hasLo: true}
	case Above:
		return interval{lo: v.next(), hasLo: true}
	case AtMost:
		return interval{lo: semver{n: 3}, hi: v.next(), hasHi: true}
	case Below:
		return interval{lo: semver{n: 3}, hi: v, hasHi: true}
	case Caret:
		i := 0
		for i < v.n-1 && v.v[i] == 0 {
			i++
		}
		return interval{lo: v, hi: v.bump(i), hasLo: true, hasHi: true}
	case Tilde:
		return interval{lo: v, hi: v.bump(min(1, v.n-1)), hasLo: true, hasHi: true}
	case Compatible:
		return interval{lo: v, hi: v.bump(max(v.n-2, 0)), hasLo: true, hasHi: true}
	}
	return interval{lo: v, hi: v.next(), hasLo: true, hasHi: true}
}

// constraint is a union of intervals.
type constraint []interval

// parseConstraint reads a pin or a stated range: npm ("^18.2.0",
// ">=18 <21", "18.x", "16 || 18", "1.2 - 1.4"), PEP 440 (">=3.10,<4",
// "~=3.10", "==3.11.*"), Cargo ("1.0", "^1"), Go ("1.22"), version files
// ("22", "v20.11.0") and image tags ("16-alpine"). bare is how a version
// without an operator reads. ok is false for anything it cannot read
// ("lts/iron", "stable", "latest", "workspace:*"): such a pin is no
// evidence either way.
func parseConstraint(s string, bare Op) (constraint, bool) {
	var out constraint
	for _, alt := range strings.Split(s, "||") {
		iv, ok := parseRange(strings.TrimSpace(alt), bare)
		if !ok {
			return nil, false
		}
		if iv != nil {
			out = append(out, *iv)
		}
	}
	return out, len(out) > 0
}

// parseRange reads one alternative: comparators joined by spaces or commas,
// or a hyphen range. A nil interval with ok means it admits nothing.
func parseRange(s string, bare Op) (*interval, bool) {
	if s == "" || s == "*" || s == "x" {
		return &everything, true
	}
	if lo, hi, ok := strings.Cut(s, " - "); ok {
		a, okA := parseSemver(strings.TrimSpace(lo))
		b, okB := parseSemver(strings.TrimSpace(hi))
		if !okA || !okB {
			return nil, false
		}
		return &interval{lo: a, hi: b.next(), hasLo: true, hasHi: true}, true
	}
	iv := everything
	fields := strings.FieldsFunc(s, func(r rune) bool { return r == ' ' || r == ',' || r == '\t' })
	for k := 0; k < len(fields); k++ {
		f := fields[k]
		op, rest := splitOp(f)
		if rest == "" && k+1 < len(fields) { // ">= 18"
			k++
			rest = fields[k]
		}
		if op == notEqual {
			continue // "!=3.9.1" removes one version, which decides nothing here
		}
		v, ok := parseSemver(rest)
		if !ok {
			return nil, false
		}
		if op == none {
			op = int(bare)
		}
		var hit bool
		if iv, hit = iv.intersect(bounded(Op(op), v)); !hit {
			return nil, true
		}
	}
	return &iv, true
}

// Comparator prefixes beyond Op.
const (
	none     = 0xFE
	notEqual = 0xFF
)

func splitOp(f string) (int, string) {
	for _, p := range []struct {
		text string
		op   int
	}{
		{"===", int(Exact)}, {"==", int(Exact)}, {">=", int(AtLeast)}, {"=>", int(AtLeast)},
		{"<=", int(AtMost)}, {"=<", int(AtMost)}, {"~=", int(Compatible)}, {"!=", notEqual},
		{">", int(Above)}, {"<", int(Below)}, {"^", int(Caret)}, {"~", int(Tilde)}, {"=", int(Exact)},
	} {
		if strings.HasPrefix(f, p.text) {
			return p.op, strings.TrimSpace(f[len(p.text):])
		}
	}
	return none, f
}

// concrete reports whether a pin names versions rather than a range:
// "22", "v20.11.0", "16-alpine", go.mod's require lines.
func concrete(p Pin) bool {
	if p.Bare != Exact {
		return false
	}
	v := strings.TrimSpace(p.Value)
	return v != "" && !strings.ContainsAny(v, "<>=^~|*, ") && !strings.Contains(v, ".x")
}

// Overlap reports whether two stated versions (Kind Version) admit a common
// version: "Node 18" and "Node 18 or newer" do, "Node 18" and "Node 20" do
// not. A version either cannot read ("lts", "latest") is no evidence: true.
// The subjects are the caller's to compare.
func Overlap(a, b Ref) bool {
	va, oka := parseSemver(a.Version)
	vb, okb := parseSemver(b.Version)
	if !oka || !okb {
		return true
	}
	_, ok := bounded(a.Op, va).intersect(bounded(b.Op, vb))
	return ok
}
