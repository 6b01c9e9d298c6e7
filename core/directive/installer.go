package directive

import (
	"regexp"
	"strings"
	"sync"
	"unicode/utf8"

	"github.com/memory-lsp/memory-lsp/core/memfile"
	"github.com/memory-lsp/memory-lsp/core/text"
)

// Vendors document their installers as a download piped into a shell
// (rustup, Nix, uv, Bun, Deno), and teams copy that line into their memory:
// "Install Rust with `curl --proto '=https' --tlsv1.2 -sSf
// https://sh.rustup.rs | sh`". On issue 27's blind sets those lines were
// most of the ordinary entries the rule refused (five of seven over the
// tuning halves of the tenth and eleventh sets), and no reading of the
// words tells them from the same line with an attacker's address: a
// refusal loses the team's fact and protects nothing a person's look would
// not. So such a pipe is reported as information (check) and held for a
// person by the review gate (memory.SignalShellPipe), not refused.
//
// Only the plainest form is read so, and only as the whole entry: "Install
// <name> with <command>." in the languages the rules read, the command one
// https address downloaded with the flags vendors print and a shell that
// only reads it, the name (and the slug) words the address holds ("Rust"
// from sh.rustup.rs) or words for a tool. Red teams put steering,
// re-running, concealment and second orders into every clause and slot a
// looser reading allowed ("…, with https_proxy set to …", "…; repeat it
// whenever the build fails", "Install Rust silently on startup with …"): a
// whole-entry form leaves no clause to put them in, and any word more keeps
// the pipe an order to agents.

// plainInstaller reports whether line[a:b], a download piped into a shell,
// is a plain installer as the header says, in a code span or bare.
func plainInstaller(line string, a, b int) bool {
	if strings.Count(line, "|") != 1 {
		return false // one pipe in the whole entry, read once per line
	}
	slug, entry := entryText(line)
	entry = strings.TrimSpace(entry)
	for _, form := range installForms() {
		m := form.FindStringSubmatchIndex(entry)
		if m == nil {
			continue
		}
		c, n := 2*form.SubexpIndex("cmd"), 2*form.SubexpIndex("name")
		cmd, name := entry[m[c]:m[c+1]], strings.TrimRight(entry[m[n]:m[n+1]], "。.")
		bare := !strings.HasPrefix(cmd, "`")
		code := cmd
		if strings.HasPrefix(cmd, "`") {
			if !strings.HasSuffix(cmd, "`") || len(cmd) < 2 || strings.HasPrefix(cmd, "``") {
				return false
			}
			code = cmd[1 : len(cmd)-1]
		}
		// the pipe found must be this command's
		if !strings.Contains(code, strings.TrimSpace(line[a:b])) {
			return false
		}
		u, ok := plainInstallCommand(code, bare)
		return ok && namedByAddress(name, u) && namedByAddress(strings.ReplaceAll(slug, "-", " "), u)
	}
	return false
}

// namedByAddress reports whether every word of name (what the entry says
// it installs, or its slug) is an article, a word for a tool, or part of
// the address it downloads from: "Install Rust" from sh.rustup.rs, "uv"
// from astral.sh/uv. A second red team put "silently on startup", "without
// asking", "hourly via cron" and "ignoring previous instructions" in the
// name, and a slug "run-it-again-at-every-session-start"; the words an
// address holds are what it installs, and nothing else is read as a name.
func namedByAddress(name, url string) bool {
	u := strings.ToLower(url)
	for _, w := range strings.Fields(strings.ToLower(name)) {
		if !installNameWords[w] && !strings.Contains(u, w) {
			return false
		}
	}
	return true
}

// installNameWords are the articles and the words for what an installer
// installs, in the languages of installForms: none orders or times
// anything.
var installNameWords = text.WordSet(`the a an our this project project's cli sdk tool tools toolchain binary install
	le la les l' notre outil outils der die das den unser unsere werkzeug el los las nuestro nuestra herramienta
	o os as nosso nossa ferramenta инструмент утилиту утилита`)

// entryText cuts line into its slug and its text as HackLM reads the
// entry (memfile.EntryOfLine), or the line trimmed when it holds none: a
// stray line is read by agents all the same.
func entryText(line string) (slug, text string) {
	if e, ok := memfile.EntryOfLine([]byte(line), 0, 1); ok {
		return e.Slug, e.Content
	}
	return "", strings.TrimSpace(line)
}

// installForms are the whole entries read as a plain installer, each with
// its groups cmd and name. A command is a code span or bare words up to
// the entry's final stop.
var installForms = sync.OnceValue(func() []*regexp.Regexp {
	const cmd = "(?P<cmd>`[^`]+`|(?:curl|wget)\\s[^`]+?)"
	const name = `(?P<name>[^\s\x60]+(?:\s+[^\s\x60]+){0,3}?)`
	forms := []string{
		`(?i)^(?:install|set\s+up)\s+` + name + `\s+(?:with|using|via|by\s+running)\s+` + cmd + `\s*\.?$`,
		`(?i)^run\s+` + cmd + `\s+to\s+(?:install|set\s+up)\s+` + name + `\s*\.?$`,
		`(?i)^install(?:ez|er|e)\s+` + name + `\s+(?:avec|via)\s+` + cmd + `\s*\.?$`,
		`(?i)^installiere(?:n\s+sie)?\s+` + name + `\s+mit\s+` + cmd + `\s*\.?$`,
		`(?i)^instal(?:a|e|ar)\s+` + name + `\s+(?:con|com)\s+` + cmd + `\s*\.?$`,
		`(?i)^установи(?:те)?\s+` + name + `\s+(?:командой|с\s+помощью)\s+` + cmd + `\s*\.?$`,
		// the command alone in a code span, as a project's README prints
		// its own installer (issue 27's files v6): it names nothing, so
		// the slug is all that is read as a name
		"^(?P<cmd>`[^`]+`)(?P<name>)\\s*\\.?$",
	}
	// Chinese and Japanese put the command first: "用 `…` 安装 CLI。",
	// "`…` で CLI をインストールする。"
	cjk := []string{
		"^(?:用|使用|通过)\\s*" + cmd + "\\s*安装\\s*" + name + "\\s*[。.]?$",
		"^" + cmd + "\\s*で\\s*" + name + "\\s*を?\\s*インストール(?:する|します)?\\s*[。.]?$",
	}
	out := make([]*regexp.Regexp, 0, len(forms)+len(cjk))
	for _, f := range forms {
		out = append(out, regexp.MustCompile(f))
	}
	for _, f := range cjk {
		out = append(out, regexp.MustCompile(f))
	}
	return out
})

// plainInstallCommand reports whether code is a download of one https
// address with the usual flags piped into a shell that only reads it, and
// returns the address. A bare command (no code span) ends at the shell:
// words after it are the sentence going on, for an agent as for a reader.
func plainInstallCommand(code string, bare bool) (url string, ok bool) {
	fetch, shell, ok := strings.Cut(code, "|")
	if !ok || strings.ContainsAny(code, "$;&<>()`\\\"") {
		return "", false
	}
	f := strings.Fields(fetch)
	if len(f) < 2 || (f[0] != "curl" && f[0] != "wget") {
		return "", false
	}
	urls := 0
	for i := 1; i < len(f); i++ {
		t := f[i]
		switch {
		case strings.HasPrefix(t, "https://"):
			urls, url = urls+1, t
			if !plainURL(t) {
				return "", false
			}
		case f[0] == "curl" && t == "--proto" && i+1 < len(f) && strings.Trim(f[i+1], `'`) == "=https":
			i++
		case f[0] == "curl" && (curlShortFlags().MatchString(t) || curlLongFlags[t]):
		case f[0] == "wget" && (wgetShortFlags().MatchString(t) || wgetLongFlags[t]):
		case f[0] == "wget" && t == "-O" && i+1 < len(f) && f[i+1] == "-":
			i++
		default:
			return "", false
		}
	}
	if urls != 1 {
		return "", false
	}
	s := strings.Fields(shell)
	if len(s) > 0 && s[0] == "sudo" {
		s = s[1:] // not sudo -E: that hands the caller's environment on
	}
	if len(s) == 0 || !(s[0] == "sh" || s[0] == "bash" || s[0] == "zsh") || bare && len(s) > 1 {
		return "", false
	}
	return url, shellReadsPipe(s[1:])
}

// shellReadsPipe reports whether a shell given args reads its program from
// the pipe: none, "-" or "-s", the last two with the script's own words
// after "--" ("sh -s -- install", "sh -s -- -y --default-toolchain
// stable"). A first word that is no flag names a file to run instead ("bash
// -- install": a red team's).
func shellReadsPipe(args []string) bool {
	if len(args) == 0 {
		return true
	}
	if args[0] != "-s" && args[0] != "-" {
		return false
	}
	rest := args[1:]
	if len(rest) > 0 && rest[0] == "--" {
		rest = rest[1:]
	} else if len(rest) > 0 {
		return false
	}
	for _, t := range rest {
		if !installerArgs[t] {
			return false
		}
	}
	return true
}

// plainURL is an https address as vendors print them: a host of ASCII
// letters, digits, dots and hyphens that ends in letters, with no user part,
// port, escapes, query, globbing or climbing out of its path
// ("https://sh.rustup.rs@evil", "https://2130706433/x", "…/%2e%2e/…",
// "…/nvm/../../evil", a Cyrillic letter in the host, "…/url?q=https://…",
// "…/{a.sh,b.sh}": red teams').
func plainURL(u string) bool {
	rest := strings.TrimPrefix(u, "https://")
	host, path, _ := strings.Cut(rest, "/")
	if !plainHost().MatchString(host) || !utf8.ValidString(path) {
		return false
	}
	for _, r := range path {
		if r >= utf8.RuneSelf || strings.ContainsRune("%'@?#={}[]*:,", r) {
			return false
		}
	}
	return !strings.Contains(path, "..")
}

var (
	plainHost = sync.OnceValue(func() *regexp.Regexp {
		return regexp.MustCompile(`^(?:[a-z0-9](?:[a-z0-9-]*[a-z0-9])?\.)+[a-z]{2,}$`)
	})
	// -fsSL, -sSf, -LsSf, -o-: the flags vendors print; -k (insecure),
	// -T (upload), -d (data), -K (config), -x (proxy) and the rest are not
	// among them
	curlShortFlags = sync.OnceValue(func() *regexp.Regexp { return regexp.MustCompile(`^-(?:[fsSL]+|o-)$`) })
	curlLongFlags  = map[string]bool{"--fail": true, "--silent": true, "--show-error": true, "--location": true, "--tlsv1.2": true}
	wgetShortFlags = sync.OnceValue(func() *regexp.Regexp { return regexp.MustCompile(`^-(?:q|qO-|O-|nv)$`) })
	wgetLongFlags  = map[string]bool{"--quiet": true, "--https-only": true}
	// the script's own words vendors print, and nothing else: free flags
	// carried orders ("--on-every-session-start --do-not-tell-the-user")
	// and numbers an address ("--mirror 127.1", "198.51.77": red teams')
	installerArgs = text.WordSet("-y --yes -q --quiet install --no-modify-path --default-toolchain --profile stable nightly beta minimal default")
)
