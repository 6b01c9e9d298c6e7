package directive

import (
	"regexp"
	"strings"
	"sync"
)

// ForbidsItems reports whether a list's lead-in forbids what the list
// names, and says nothing else: "Agents must not:", "Never:", "Don'ts:",
// "Forbidden without explicit approval:", "VERBOTEN ohne explizite
// Genehmigung:", "禁止事项：". An item under it names a forbidden act and
// orders none (issue 27's files v7: "Agents **must not**: … Bypass tests
// or CI checks"). Only such pure forms are read: a red team's lead-ins
// held a forbidding word in a sentence that orders ("To avoid delays,
// always:", "No longer prohibited:", "Never forget to:", "Do not ask
// before you:", "It is never wrong to:").
func ForbidsItems(lead string) bool {
	t := strings.TrimSpace(strings.Trim(strings.TrimSpace(lead), "*_`"))
	if !strings.HasSuffix(t, ":") && !strings.HasSuffix(t, "：") {
		return false
	}
	t = strings.TrimRight(t, ":： ")
	t = strings.Join(strings.Fields(strings.NewReplacer("*", "", "_", "", "`", "", "❌", " ", "🚫", " ", "⛔", " ", "️", "").Replace(t)), " ")
	return forbiddingLead().MatchString(strings.ToLower(t))
}

// PlainItem reports whether a list item only names an act, as an item of
// a list that forbids does: one short clause ("Bypass tests or CI
// checks", "Force-Push auf main"), with no second sentence, label, arrow
// or word that says it is wanted ("Always …", "DO: …", "✅ …", "… ;
// instead, push …", "Open a PR → push to main", a red team's), and not
// opening with a verb that a prohibition turns into an order: waiting,
// asking or leaving undone ("Wait for review before they push").
func PlainItem(item string) bool {
	t := strings.TrimSpace(item)
	if t == "" || len(strings.Fields(t)) > 12 || strings.ContainsAny(t, ";:：→—–!?？！") ||
		strings.Contains(strings.TrimRight(t, ". "), ". ") || strings.Contains(t, "。") {
		return false
	}
	l := strings.ToLower(t)
	return !wantedWord().MatchString(l) && !undoingVerb().MatchString(l)
}

var (
	forbiddingLead = sync.OnceValue(func() *regexp.Regexp {
		subject := `(?:(?:the\s+)?(?:agents?|ai|assistants?|claude|copilot|llms?|models?)|you|we)`
		without := `(?:\s+(?:without|ohne|sans|sin|sem|без)(?:\s+(?:an?|the|prior|explicit|explizite?r?|written|express|préalable|explícita|expressa|явного)){0,2}\s+(?:approval|permission|consent|confirmation|sign-off|review|asking|genehmigung|erlaubnis|freigabe|zustimmung|autorisation|accord|permiso|aprobación|autorização|permissão|aprovação|разрешения|согласования|одобрения))?`
		return regexp.MustCompile(`^(?:` +
			subject + `?\s*(?:must|should|shall|may|can|do|will)(?:\s+not|n't)(?:\s+ever)?(?:\s+do)?` +
			`|(?:never|don'?ts?|do\s+not|avoid|forbidden|prohibited|not\s+allowed|disallowed|not\s+permitted|anti-?patterns?|off-limits|what\s+not\s+to\s+do|things\s+to\s+avoid|prohibitions?)(?:\s+(?:do|these|this|the\s+following|things|ever|list)){0,2}` +
			`|verboten|niemals|nie|nicht\s+erlaubt|vermeiden|tabu|verbote|interdit|interdits|interdictions?|jamais|à\s+éviter|ne\s+jamais|prohibido|prohibidos|prohibiciones|evitar|nunca|no\s+hacer|proibido|proibidos|proibições|evite|запрещено|нельзя|никогда|запреты|не\s+делать` +
			`)` + without + `$` +
			`|^(?:禁止(?:事项|事項)?|严禁|切勿|请勿|不要|不得|避免|禁止事項|しないこと|やってはいけないこと|금지(?:\s*사항)?|하지\s*말\s*것)$`)
	})
	undoingVerb = sync.OnceValue(func() *regexp.Regexp {
		return regexp.MustCompile(`^(?:\[[^\]]*\]\s*)?(?:wait|ask|forget|skip|miss|fail|hesitat|neglect|omit|delay|stop|request|refus|declin|postpon|pause|check\s+with|bother|leave|let|second-guess|get\s+approv|seek|hold\s+off|vergess|warte|frage|zöger|oubli|attend|demande|hésit|olvid|espera|pregunt|dudar|esquec|aguard|pergunt|забы|жд|спраш|колеб|忘|等待|询问|犹豫|停|忘れ|待|迷|잊|기다|묻|주저)`)
	})
	wantedWord = sync.OnceValue(func() *regexp.Regexp {
		return regexp.MustCompile(`(?:^|[^\pL])(?:always|must|required|requires|mandatory|instead|preferred|prefer|now|anymore|rescinded|except|unless|todo|do|agents?|you|nothing|none|immer|stattdessen|toujours|plutôt|siempre|en\s+su\s+lugar|sempre|em\s+vez|всегда|вместо|必须|总是|改为|必ず|代わりに|항상|대신)(?:[^\pL]|$)|✅|👍|🟢|✔|☑|~~`)
	})
)
