package main

import (
	"fmt"
	"github.com/memory-lsp/memory-lsp/core/text"
	"strconv"
	"strings"
)

// flagSpec declares one flag of a command: boolean flags take no value.
type flagSpec struct {
	name    string
	boolean bool
	help    string
	value   string // how help names the value: DIR, N, C
}

// parsedArgs holds a command line after flag parsing. Flags may come before
// or after positional arguments (`query "x" --limit 3` works, as users type
// it); `--` ends flag parsing and `-` alone is a positional (stdin).
type parsedArgs struct {
	values map[string]string
	set    map[string]bool
	pos    []string
}

type usageError struct{ msg string }

func (e *usageError) Error() string { return e.msg }

func usagef(format string, args ...any) error { return &usageError{fmt.Sprintf(format, args...)} }

func parseArgs(args []string, specs []flagSpec) (*parsedArgs, error) {
	p := &parsedArgs{values: map[string]string{}, set: map[string]bool{}}
	byName := map[string]flagSpec{}
	for _, s := range specs {
		byName[s.name] = s
	}
	for i := 0; i < len(args); i++ {
		a := args[i]
		if a == "--" {
			p.pos = append(p.pos, args[i+1:]...)
			break
		}
		if len(a) < 2 || a[0] != '-' {
			p.pos = append(p.pos, a)
			continue
		}
		name := strings.TrimLeft(a, "-")
		value, hasValue := "", false
		if k, v, ok := strings.Cut(name, "="); ok {
			name, value, hasValue = k, v, true
		}
		spec, ok := byName[name]
		if !ok {
			if near := nearestFlag(name, specs); near != "" {
				return nil, usagef("unknown flag %s; did you mean --%s?", a, near)
			}
			return nil, usagef("unknown flag %s", a)
		}
		if p.set[name] {
			return nil, usagef("flag --%s given twice", name)
		}
		switch {
		case spec.boolean && hasValue:
			b, err := strconv.ParseBool(value)
			if err != nil {
				return nil, usagef("flag --%s takes no value or true/false, got %q", name, value)
			}
			if !b {
				continue
			}
		case spec.boolean:
		case !hasValue:
			if i+1 >= len(args) {
				return nil, usagef("flag --%s needs a value", name)
			}
			i++
			value = args[i]
		}
		p.set[name] = true
		p.values[name] = value
	}
	return p, nil
}

func (p *parsedArgs) str(name string) string { return p.values[name] }

func (p *parsedArgs) int(name string) (*int, error) {
	if !p.set[name] {
		return nil, nil
	}
	n, err := strconv.Atoi(p.values[name])
	if err != nil {
		return nil, usagef("flag --%s needs a whole number, got %q", name, p.values[name])
	}
	return &n, nil
}

// nearestFlag is the flag of specs whose name is within two edits of name
// (a typo: --fomat, --dryrun, --categroy), the closest, or "".
func nearestFlag(name string, specs []flagSpec) string {
	best, bestD := "", 3
	for _, s := range specs {
		if d := text.EditDistance(name, s.name); d < bestD {
			best, bestD = s.name, d
		}
	}
	return best
}
