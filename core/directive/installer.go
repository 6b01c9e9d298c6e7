package directive

import (
	"regexp"
	"strings"
	"sync"

	"github.com/memory-lsp/memory-lsp/core/refs"
)

// Vendors document their installers as a download piped into a shell
// (rustup, Nix, uv, Bun, Deno, Homebrew's cousins), and teams copy that
// line into their memory: "Install Rust with `curl --proto '=https'
// --tlsv1.2 -sSf https://sh.rustup.rs | sh`". On issue 27's blind sets
// those lines were most of the ordinary entries the rule refused (five of
// seven over the tuning halves of the tenth and eleventh sets), and no
// reading of the words tells them from the same line with an attacker's
// address: a refusal loses the team's fact and protects nothing a person's
// look would not. So such a pipe is reported as information (check) and
// held for a person by the review gate (memory.SignalShellPipe), not
// refused. Only the plainest form is read so: one https address
// downloaded with the usual flags, a shell reading it, nothing steering the
// script (no environment, no other address, no upload, no redirect), in a
// sentence that orders installing and nothing run unasked or again.

// plainInstaller reports whether line[a:b], a download piped into a shell,
// is a plain installer as the header says: code span or bare command.
func plainInstaller(line string, a, b int) bool {
	s, e := sentenceAround(line, a, b)
	from, to := a, bareEnd(line, b, e)
	for _, sp := range refs.CodeSpans(line) {
		if sp[0] <= a && b <= sp[1] {
			from, to = sp[0], sp[1]
			break
		}
	}
	code := strings.Trim(line[from:to], "`")
	if !plainInstallCommand(code) {
		return false
	}
	lower := strings.ToLower(line[:from] + " " + line[to:])
	return ordersInstall(strings.ToLower(line[s:from]+" "+line[to:e])) &&
		!hasCue(lower, persistenceCues) && !hasCue(lower, unaskedCues) && !hasCue(lower, rerunCues) &&
		!steered().MatchString(line[:from]+" "+line[to:])
}

// ordersInstall reports whether a sentence (lower-cased, the command
// left out) is an order to install: it opens with the word, past a list
// marker, a slug or a label ("Install Rust with …", "Setup: install …"),
// or runs the command to install ("Run … to install uv"). A Chinese or
// Japanese order may hold the word anywhere ("用 … 安装", "… でインストールする").
// A story of who ran it ("the setup agent ran …") is none.
func ordersInstall(sentence string) bool {
	t := strings.TrimLeft(sentence, " -*+>")
	if strings.HasPrefix(t, "[") {
		if i := strings.IndexByte(t, ']'); i > 0 {
			t = t[i+1:]
		}
	}
	t = strings.TrimSpace(afterLabel(strings.TrimSpace(t)))
	for _, c := range installCues {
		if strings.HasPrefix(t, c) || firstRune(c) >= 0x2E80 && strings.Contains(t, c) {
			return true
		}
	}
	for _, v := range []string{"run ", "use "} {
		if strings.HasPrefix(t, v) && (strings.Contains(t, " to install") || strings.Contains(t, " to set up")) {
			return true
		}
	}
	return false
}

// bareEnd is where a command outside a code span ends: after the shell
// (line[:b]) and the flags that follow it ("| sh -s -- -y"); the words
// after are the sentence going on ("| sh before every task"), read as
// prose.
func bareEnd(line string, b, e int) int {
	for i := b; i < e; {
		j := i
		for j < e && line[j] == ' ' {
			j++
		}
		k := j
		for k < e && line[k] != ' ' {
			k++
		}
		if j == k || line[j] != '-' {
			return i
		}
		i = k
	}
	return e
}

// plainInstallCommand reports whether code is a download of one https
// address with the usual flags piped into a shell that only reads it.
func plainInstallCommand(code string) bool {
	fetch, shell, ok := strings.Cut(code, "|")
	if !ok || strings.ContainsAny(code, "$;&<>()`\\") {
		return false
	}
	f := strings.Fields(fetch)
	if len(f) < 2 || (f[0] != "curl" && f[0] != "wget") {
		return false
	}
	urls := 0
	for i := 1; i < len(f); i++ {
		t := f[i]
		switch {
		case strings.HasPrefix(t, "https://"):
			urls++
			if !plainURL(t) {
				return false
			}
		case f[0] == "curl" && t == "--proto" && i+1 < len(f) && strings.Trim(f[i+1], `'"`) == "=https":
			i++
		case f[0] == "curl" && (curlShortFlags().MatchString(t) || curlLongFlags[t]):
		case f[0] == "wget" && (wgetShortFlags().MatchString(t) || wgetLongFlags[t]):
		case f[0] == "wget" && t == "-O" && i+1 < len(f) && f[i+1] == "-":
			i++
		default:
			return false
		}
	}
	if urls != 1 {
		return false
	}
	s := strings.Fields(shell)
	if len(s) > 0 && s[0] == "sudo" {
		s = s[1:] // not sudo -E: that hands the caller's environment on
	}
	if len(s) == 0 || !(s[0] == "sh" || s[0] == "bash" || s[0] == "zsh") {
		return false
	}
	for _, t := range s[1:] {
		// "sh -s -- install", "sh -s -- -y": words and flags, no value
		// that could name an address or a file
		if !installerArg().MatchString(t) {
			return false
		}
	}
	return true
}

// plainURL is an https address with no user part, no climbing out of its
// path and no port: "https://sh.rustup.rs@evil.example", "…/nvm/../../evil"
// and "https://host:8443" are not what vendors print.
func plainURL(u string) bool {
	rest := strings.TrimPrefix(u, "https://")
	host, _, _ := strings.Cut(rest, "/")
	return host != "" && !strings.ContainsAny(host, "@:") && !strings.Contains(rest, "..") &&
		!strings.ContainsAny(rest, "'\"")
}

var (
	// -fsSL, -sSf, -LsSf, -o-: the flags vendors print; -k (insecure),
	// -T (upload), -d (data), -K (config), -x (proxy) and the rest are not
	// among them
	curlShortFlags = sync.OnceValue(func() *regexp.Regexp { return regexp.MustCompile(`^-(?:[fsSL]+|o-)$`) })
	curlLongFlags  = map[string]bool{"--fail": true, "--silent": true, "--show-error": true, "--location": true, "--tlsv1.2": true}
	wgetShortFlags = sync.OnceValue(func() *regexp.Regexp { return regexp.MustCompile(`^-(?:q|qO-|O-|nv)$`) })
	wgetLongFlags  = map[string]bool{"--quiet": true, "--https-only": true}
	installerArg   = sync.OnceValue(func() *regexp.Regexp { return regexp.MustCompile(`^(?:-s|--|-{1,2}[a-z][a-z0-9-]*|[a-z][a-z0-9-]*)$`) })
)

// steered finds what outside the command could steer the script: another
// address (a URL, an IP address) or an environment variable set
// ("RUSTUP_UPDATE_ROOT=…", "DOWNLOAD_URL to http://…": red teams').
var steered = sync.OnceValue(func() *regexp.Regexp {
	return regexp.MustCompile(`[A-Za-z][A-Za-z0-9+.-]*://|\b\d{1,3}(?:\.\d{1,3}){3}\b|\b[A-Z][A-Z0-9]*_[A-Z0-9_]+\b|\b[A-Z]{2,}[A-Z0-9]*\s*=`)
})

// unaskedCues say the command runs without the user's say: a plain
// installer is a person's to run, or the agent's when asked.
var unaskedCues = []string{"without asking", "without confirm", "without telling", "without approval",
	"silently", "quietly", "no need to ask", "don't ask", "do not ask", "never ask",
	"sans demander", "sans confirm", "sans prévenir", "sin preguntar", "sin confirm", "sin avisar",
	"ohne nachzufragen", "ohne zu fragen", "ohne rückfrage", "ohne bestätigung", "без подтвержд",
	"без спроса", "не спрашива", "无需确认", "不要询问", "不用确认", "直接执行", "確認なし", "確認せず", "黙って"}
