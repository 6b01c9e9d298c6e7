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

// ItemUndoes reports whether a list item opens with a verb that a
// forbidding lead-in turns into an order: waiting, asking or leaving
// undone ("Agents must not:" … "Wait for review before they push", a red
// team's).
func ItemUndoes(item string) bool {
	return undoingVerb().MatchString(strings.ToLower(strings.TrimSpace(item)))
}

var (
	forbiddingLead = sync.OnceValue(func() *regexp.Regexp {
		subject := `(?:(?:the\s+)?(?:agents?|ai|assistants?|claude|copilot|llms?|models?)|you|we)`
		without := `(?:\s+(?:without|ohne|sans|sin|sem|без)(?:\s+[\pL'-]+){1,4})?`
		return regexp.MustCompile(`^(?:` +
			subject + `?\s*(?:must|should|shall|may|can|do|will)(?:\s+not|n't)(?:\s+ever)?(?:\s+do)?` +
			`|(?:never|don'?ts?|do\s+not|avoid|forbidden|prohibited|not\s+allowed|disallowed|not\s+permitted|anti-?patterns?|off-limits|what\s+not\s+to\s+do|things\s+to\s+avoid|prohibitions?)(?:\s+(?:do|these|this|the\s+following|things|ever|list)){0,2}` +
			`|verboten|niemals|nie|nicht\s+erlaubt|vermeiden|tabu|verbote|interdit|interdits|interdictions?|jamais|à\s+éviter|ne\s+jamais|prohibido|prohibidos|prohibiciones|evitar|nunca|no\s+hacer|proibido|proibidos|proibições|evite|запрещено|нельзя|никогда|запреты|не\s+делать` +
			`)` + without + `$` +
			`|^(?:禁止(?:事项|事項)?|严禁|切勿|请勿|不要|不得|避免|禁止事項|しないこと|やってはいけないこと|금지(?:\s*사항)?|하지\s*말\s*것)$`)
	})
	undoingVerb = sync.OnceValue(func() *regexp.Regexp {
		return regexp.MustCompile(`^(?:\[[^\]]*\]\s*)?(?:wait|ask|forget|skip|miss|fail|hesitate|neglect|omit|delay|stop|vergess|warte|frage|oubli|attend|demande|olvid|espera|pregunt|esquec|aguard|pergunt|забы|жд|спраш|忘|等待|询问|忘れ|待|잊|기다|묻)`)
	})
)
