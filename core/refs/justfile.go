package refs

import "strings"

// parseJustfile reads a justfile's recipes (`name param="x" +rest: deps`
// at the start of a line, `@name:` quiet) and aliases (`alias b := build`).
// An import, a module or `set fallback` lets just run recipes the file does
// not list: the manifest is then Open.
func parseJustfile(src []byte) Manifest {
	var n names
	for num, line := range lines(src) {
		if line == "" || line[0] == ' ' || line[0] == '\t' || line[0] == '#' || line[0] == '[' {
			continue // a recipe's body, a comment, an attribute
		}
		word, rest := cutWord(line)
		switch word {
		case "import", "import?", "mod", "mod?":
			n.m.Open = true
			continue
		case "alias":
			name, rest := cutWord(rest)
			if strings.HasPrefix(rest, ":=") && justName(name) {
				n.add(name, num, false)
			}
			continue
		case "set":
			if name, value := cutWord(rest); name == "fallback" && (value == "" || strings.Contains(value, "true")) {
				n.m.Open = true // an unknown recipe is looked up in the justfile above
			}
			continue
		case "export", "unexport":
			continue
		}
		if name, ok := justRecipe(line); ok {
			n.add(name, num, false)
		}
	}
	return n.m
}

// justRecipe reads a recipe's header: an optional "@", the name, parameters,
// then a ":" that is not the ":=" of an assignment.
func justRecipe(line string) (string, bool) {
	s := strings.TrimPrefix(line, "@")
	i := 0
	for i < len(s) && isJustNameByte(s[i]) {
		i++
	}
	name := s[:i]
	if !justName(name) {
		return "", false
	}
	quote := byte(0)
	for j := i; j < len(s); j++ {
		c := s[j]
		switch {
		case quote != 0:
			if c == quote {
				quote = 0
			}
		case c == '"' || c == '\'':
			quote = c
		case c == '#':
			return "", false // a comment before any colon
		case c == ':':
			if strings.HasPrefix(s[j:], ":=") {
				return "", false
			}
			return name, true
		case c == '=' && j == i || c == '=' && strings.TrimSpace(s[i:j]) == "":
			return "", false // `name = value`, an older assignment
		}
	}
	return "", false
}

func justName(s string) bool {
	if s == "" || s[0] == '-' || '0' <= s[0] && s[0] <= '9' {
		return false
	}
	for i := 0; i < len(s); i++ {
		if !isJustNameByte(s[i]) {
			return false
		}
	}
	return true
}

func isJustNameByte(c byte) bool {
	return 'a' <= c && c <= 'z' || 'A' <= c && c <= 'Z' || '0' <= c && c <= '9' || c == '_' || c == '-'
}
