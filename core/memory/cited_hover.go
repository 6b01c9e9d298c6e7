package memory

import (
	"fmt"
	"strings"
	"time"

	"github.com/memory-lsp/memory-lsp/core/refs"
	"github.com/memory-lsp/memory-lsp/core/rules"
)

// maxPins is how many pins a version's hover names.
const maxPins = 3

// DescribeCitation says what citation c of file resolves to, in Markdown:
// a path that exists and its last change, or where a missing one went; the
// manifest line of a command's target, or the closest names; the pins a
// version agrees with or contradicts. root is the workspace root, now the
// time ages are counted to. It is "" where Judge finds no evidence either
// way (no repository, an ignored path, no manifest, no pin): the entry's
// own description is what to show there.
func DescribeCitation(repo rules.Repo, root string, file *rules.File, c Citation, now time.Time) string {
	if repo == nil {
		return ""
	}
	verdict := rules.JudgeEntry(repo, file.Path, file.Doc.Entries[c.Entry].Line, c.Cited, c.Nth)
	if verdict.Status == refs.Silent {
		return ""
	}
	cited := "`" + string(file.Doc.Src[c.Span.Start:c.Span.End]) + "`"
	switch c.Ref.Kind {
	case refs.Path:
		return pathHover(repo, root, cited, c.Ref, verdict, now)
	case refs.Command:
		return commandHover(repo, cited, c.Ref, verdict)
	case refs.Version:
		return versionHover(repo, cited, c.Ref, verdict)
	}
	return ""
}

// pathHover: "`src/a.ts` exists, last changed 3 days ago in abc1234";
// "`src/a.ts` is missing; renamed to `lib/a.ts` in abc1234 (3 days ago)".
func pathHover(repo rules.Repo, root, cited string, ref refs.Ref, v refs.Verdict, now time.Time) string {
	switch v.Status {
	case refs.Holds:
		b := cited + " exists"
		name := ref.Path
		if abs, ok := repo.Locate(ref.Path); ok {
			if rel, ok := RootRelative(root, abs); ok {
				if rel != ref.Path {
					b += " as `" + rel + "`"
				}
				name = rel
			}
		}
		if commit, when, ok := repo.LastChange(name); ok {
			b += ", last changed " + ago(when, now) + " in " + shortCommit(commit)
		}
		return b
	case refs.Stale:
		m := v.Moved
		switch {
		case m == nil:
			return cited + " is missing"
		case m.To != "":
			return cited + " is missing; renamed to `" + m.To + "` in " + shortCommit(m.Commit) + when(m.When, now, "")
		default:
			return cited + " is missing since " + shortCommit(m.Commit) + when(m.When, now, "deleted ")
		}
	}
	return ""
}

// commandHover: "`make e2e`: target `e2e` in `Makefile` line 12"; "`make
// e2e`: no target `e2e` in `Makefile`; closest: `test`".
func commandHover(repo rules.Repo, cited string, ref refs.Ref, v refs.Verdict) string {
	noun := ref.Tool.NameKind()
	switch {
	case v.Status == refs.Holds:
		b := fmt.Sprintf("%s: %s `%s` in `%s`", cited, noun, ref.Target, v.File)
		if m, ok := repo.Manifest(ref.Tool, ref.In); ok {
			if line := targetLine(m, ref.Target); line > 0 {
				b += fmt.Sprintf(" line %d", line)
			}
		}
		return b
	case v.Status != refs.Stale:
		return ""
	case v.NoDir && v.Moved != nil && v.Moved.To != "":
		return fmt.Sprintf("%s: the folder `%s` does not exist; it moved to `%s` in %s", cited, ref.In, v.Moved.To, shortCommit(v.Moved.Commit))
	case v.NoDir:
		return fmt.Sprintf("%s: the folder `%s` does not exist", cited, ref.In)
	}
	b := fmt.Sprintf("%s: no %s `%s` in `%s`", cited, noun, ref.Target, v.File)
	switch {
	case v.Lost != nil && v.Lost.Commit != "":
		b += " any more (removed in " + shortCommit(v.Lost.Commit) + ")"
	case v.Lost != nil:
		b += " any more (removed since the last commit)"
	}
	if len(v.Near) > 0 {
		b += "; closest: `" + strings.Join(v.Near, "`, `") + "`"
	}
	return b
}

// versionHover: "`Node 18+` agrees with `.nvmrc` (22)"; "`Node 18`
// contradicts `.nvmrc` (22)".
func versionHover(repo rules.Repo, cited string, ref refs.Ref, v refs.Verdict) string {
	switch v.Status {
	case refs.Holds:
		pins := repo.Pins(ref.Subject)
		named := make([]string, 0, maxPins)
		for _, p := range pins[:min(len(pins), maxPins)] {
			named = append(named, pinName(p))
		}
		b := cited + " agrees with " + strings.Join(named, ", ")
		if len(pins) > maxPins {
			b += fmt.Sprintf(" and %d more", len(pins)-maxPins)
		}
		return b
	case refs.Drift:
		return cited + " contradicts " + pinName(v.Pin)
	}
	return ""
}

// pinName: "`.nvmrc` (22)".
func pinName(p refs.Pin) string { return fmt.Sprintf("`%s` (%s)", p.File, p.Value) }

// shortCommit is a commit as git abbreviates it.
func shortCommit(c string) string {
	if len(c) > 7 {
		return c[:7]
	}
	return c
}

// when is " (3 days ago)" with an optional word before the age, or ""
// when the time is unknown.
func when(t, now time.Time, word string) string {
	if t.IsZero() {
		return ""
	}
	return " (" + word + ago(t, now) + ")"
}

// ago is how long before now t was, in the largest whole unit.
func ago(t, now time.Time) string {
	d := now.Sub(t)
	day := 24 * time.Hour
	switch {
	case d < time.Minute:
		return "just now"
	case d < time.Hour:
		return Plural(int(d/time.Minute), "minute", "minutes") + " ago"
	case d < day:
		return Plural(int(d/time.Hour), "hour", "hours") + " ago"
	case d < 60*day:
		return Plural(int(d/day), "day", "days") + " ago"
	case d < 730*day:
		return Plural(int(d/(30*day)), "month", "months") + " ago"
	}
	return Plural(int(d/(365*day)), "year", "years") + " ago"
}
