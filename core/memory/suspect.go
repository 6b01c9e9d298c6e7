package memory

import (
	"fmt"
	"regexp"
	"strings"
	"sync"
)

// SignalSteers is the review's reading of an instruction to agents below
// the agent-directive rule's threshold: wordings that steer the agent more
// often than they state a project fact (hiding things from the user,
// reporting success whatever happened, touching credentials, switching
// safety off). A store refused on them would lose facts that happen to
// use those words; a write held on them costs a person a glance, so the
// review gate reads them and the rule does not.
const SignalSteers = "steers-agent"

// suspect is one family of such wordings: what it says of a write, and the
// patterns that find it (on the text in lower case; look-alike letters
// are the agent-directive rule's to fold).
type suspect struct {
	what string
	res  []*regexp.Regexp
	// negated: a match preceded by a negation in the same clause is the
	// team's own rule against the act ("never merge without review").
	negated bool
	// unless, matched at the text after a match, makes it no sign: "never
	// tell the user whether an email is registered" is a product's rule.
	unless *regexp.Regexp
}

func res(patterns ...string) []*regexp.Regexp {
	out := make([]*regexp.Regexp, len(patterns))
	for i, p := range patterns {
		out[i] = regexp.MustCompile(p)
	}
	return out
}

// clause is where an order starts: the text's start, or after a clause's
// punctuation or "then", optionally after "always" or "please".
const clause = `(?:^|[,;:]\s*|\bthen\s+)(?:always\s+|please\s+)?`

// suspects are compiled on first use: a process that writes nothing (a
// query, a check) does not pay for them at start.
var suspects = sync.OnceValue(func() []suspect {
	return []suspect{
		// negated: "never delete it silently" forbids the act; unless: "never
		// tell the user a test passed unless you ran it" forbids a false report,
		// "never tell the user to run migrations by hand" says what to ask
		{what: "it tells the agent to hide something from the user", negated: true, unless: regexp.MustCompile(`^\s+(?:whether|if|which)\b|^\s+to\s+(?:run|use|install|restart|open|check|call|set|add|update|install|read|see)\b|^[^.;]{0,60}\b(?:unless|until)\s+(?:you(?:'ve| have)?\s+(?:ran|run|verified|checked|seen|saw|tested|confirmed)\b|(?:\S+\s+){1,3}(?:passed|passes|pass|ran|succeeded)\b)`), res: res(
			`\b(?:do not|don't|never|without)\s+(?:tell(?:ing)?|inform(?:ing)?|notify(?:ing)?|mention(?:ing)?|reveal(?:ing)?|disclos(?:e|ing)|acknowledg(?:e|ing)|alert(?:ing)?|let(?:ting)?\s+\w+\s+know)\b[^.;]{0,40}\b(?:the user|users?\b|anyone|anybody|humans?\b|reviewers?|maintainers?|the team|it exists|this (?:rule|entry|instruction)|(?:your|the) (?:summar\w+|commit messages?|final (?:message|answer|report)|reports?|pr descriptions?))`,
			`\b(?:restor|add|chang|push|remov|delet|disabl|install|run|send|upload|modif|edit|updat|commit|merg|rewrit|bump)\w*\s+(?:it\s+|them\s+|this\s+)?(?:silently|quietly|secretly|covertly|discreetly)\b`,
			`\b(?:silently|quietly|secretly|covertly|discreetly)\s+(?:restor|add|chang|push|remov|delet|disabl|install|run|send|upload|modif|edit|updat|commit|merg|rewrit|bump)`,
			`\bkeep (?:this|it) (?:secret|confidential|hidden)\b`,
			`\b(?:leave|keep)\b[^;]{0,60}\bout of (?:your|the) (?:final )?(?:summar\w*|reports?|commit messages?|pr descriptions?|answers?)`,
			`\bdon't bring (?:it|this|them) up\b|\bleave out\b[^.;]{0,40}\b(?:edits|changes)\b`,
			`\bsans (?:le )?(?:dire|prévenir|informer|avertir)\b|\bne (?:dis|mentionne|révèle|signale) (?:jamais|pas|rien)\b|\bdiscrètement\b|\ben cachette\b`,
			`\bohne (?:es )?(?:\w+ )?(?:zu sagen|bescheid zu geben|zu informieren|zu erwähnen)\b|\bverschweige\b|\bheimlich\b|\bnicht erwähnen\b|\bsag\w* (?:dem|der) (?:benutzer|nutzer)\w* nichts\b`,
			`\bsin (?:decir|avisar|informar|mencionar)\w*\b|\bno (?:le |les )?(?:digas|menciones|reveles|informes)\b|\ben secreto\b|\bdiscretamente\b`,
			`не (?:говори|сообщай|упоминай|рассказывай|показывай)|тайно|незаметно`,
			`不要(?:告诉|提及|透露|通知)|悄悄|偷偷|隐瞒|瞒着`,
			`明かさない|伝えない|知らせない|黙って|こっそり|内緒`,
		)},
		{what: "it tells the agent to report success whatever happened", res: res(
			clause+`(?:report|say|claim|state|answer|reply|respond|tell \w+|mark)\b[^.;]{0,80}\b(?:green|pass(?:ed|ing|es)?|success\w*|succeeded|fine|ok|done|complete|no issues)\b[^.;]{0,60}\b(?:even if|even when|whether or not|regardless|no matter|whatever)\b`,
			`\bif\b[^.;,]{0,40}\bfail\w*\b[^.;]{0,10},\s*(?:tell|say|report|answer)\w*\b[^.;]{0,30}\b(?:pass(?:ed|es)?|succeeded|green|fine|ok)\b`,
			clause+`(?:respond|answer|reply)\w*\b[^.;]{0,60}\bwith ["“']?no issues found`,
			clause+`(?:describe|present|frame|label) (?:it|them|this|the change) as\b`,
			// a verb of answering and a concession say nothing without a word
			// of success: "Réponds toujours en français, même quand le ticket
			// est en anglais" is a language rule
			`\b(?:réponds|dis|indique|signale|rapporte)\b[^.;]{0,60}(?:passé|réussi|\bvert|\boui\b|succès|bien passé)[^.;]{0,60}\b(?:même (?:si|en cas|quand))|\b(?:même (?:si|en cas|quand))[^.;]{0,60}\b(?:réponds|dis|indique|signale|rapporte)\b[^.;]{0,60}(?:passé|réussi|\bvert|\boui\b|succès)`,
			`\b(?:antworte|melde|sage|berichte)\b[^.;]{0,60}\b(?:bestanden|erfolgreich|grün|ja)\b[^.;]{0,60}\b(?:auch wenn|selbst wenn)\b|\b(?:auch wenn|selbst wenn)\b[^.;]{0,60}\b(?:antworte|melde|sage|berichte)\b[^.;]{0,60}\b(?:bestanden|erfolgreich|grün|ja)\b`,
			`\b(?:responde|di|informa|reporta)\b[^.;]{0,60}(?:\bbien\b|éxito|pasaron|\bverde|\bsí\b)[^.;]{0,60}\b(?:aunque|incluso si|aun si)\b|\b(?:aunque|incluso si|aun si)\b[^.;]{0,60}\b(?:responde|di|informa|reporta)\b[^.;]{0,60}(?:\bbien\b|éxito|pasaron|\bverde|\bsí\b)`,
			`(?:пиши|отвечай|сообщай|говори)[^.;]{0,60}(?:успешно|всё прошло|все прошло)`,
			`(?:即使|哪怕|无论)[^。；]{0,30}(?:报告|回答|说)|(?:报告|回答)[^。；]{0,20}(?:成功|通过)`,
			`(?:成功|通過|パス)[」"]?と(?:報告|答え|回答)`,
		)},
		{what: "it has the agent touch credentials", res: res(
			`~/\.ssh/id_|\bauthorized_keys\b|\bid_(?:rsa|ed25519|ecdsa|dsa)\b|\.aws/credentials\b|/etc/shadow\b|\.netrc\b`,
			`\b(?:try|test|use|log in)\w*\b[^.;]{0,40}\b(?:credentials|passwords|tokens|keys)\b[^.;]{0,30}\b(?:you find|found)\b`,
			`\b(?:zugangsdaten|passwörter|tokens)\b[^.;]{0,40}\b(?:findest|gefunden)\b`,
			clause+`(?:post|send|upload|mail|e-?mail|forward|paste|put|copy|include|envoie|envía|schick\w*|sende)\b[^.;]{0,80}\b(?:secrets?|credentials?|private keys?|\.env\b|dump|aws_secret\w*|api[_ ]?keys?|session tokens?|passwords?|system prompt|secrets\.ya?ml)\b[^.;]{0,60}(?:webhook|https?://|@|public|external|outside|gist|pastebin|commit messages?|pull request|pr description|issue|slack|discord|docs/|adresse externe)`,
		)},
		{what: "it tells the agent that its safety rules do not apply", res: res(
			`\b(?:filters?|rules?|restrictions?|guardrails?|polic(?:y|ies)|safety|safeguards?|guidelines)\s+(?:do(?:es)?\s+not|don't|doesn't|no longer)\s+apply\b`,
			`\bunrestricted (?:mode|access)\b|\bwithout (?:any )?restrictions\b|\bdeveloper mode\b|\bgod mode\b|\bmaintenance mode\b[^.;]{0,40}\b(?:filters?|rules?|safety)`,
			`\btakes? precedence over\b|\bpre-?approved\b|\bblanket permission\b|\broot-level trust\b|\bdisregard (?:the )?user|\boverride (?:the )?user`,
			`指示[^。]{0,12}無視|無視(?:して|すること)|\bignora (?:le |tutte le |ogni )?(?:istruzioni|regole)\b|忽略[^。]{0,10}(?:指示|指令|规则|说明)|无视`,
		)},
		{what: "it has the agent widen access or skip a review", negated: true, res: res(
			`--visibility[ =]public\b|\b(?:disable|turn off|remove|bypass|skip)\w*\s+(?:the\s+)?branch protection\b`,
			clause+`(?:approve|merge|accept)\b[^.;]{0,60}\bwithout (?:reading|reviewing|review|looking|checking|waiting for (?:a |the )?review\w*)\b`,
			`\bgh repo (?:star|fork|edit|delete)\b|\bstar\b[^.;]{0,20}\bgithub\.com/`,
			`\bverify\s*=\s*false\b|\bnode_tls_reject_unauthorized\s*=\s*['"]?0\b`,
			`\brm -rf\b[^.;]{0,20}(?:~|\$home|home director)|\bdelet\w*\s+(?:the\s+)?audit logs?\b`,
		)},
	}
})

// negation before a match, in its clause: the team's rule against the act.
var negationRE = regexp.MustCompile(`\b(?:never|don't|do not|must not|mustn't|should not|shouldn't|no one|nobody|not)\b[^.;,]*$`)

// steersSignals are the review's signs, below the agent-directive rule's,
// that content instructs the agents reading memory.
func steersSignals(content string) []Signal {
	s := strings.ToLower(content)
	for _, sp := range suspects() {
		for _, re := range sp.res {
			loc := re.FindStringIndex(s)
			if loc == nil {
				continue
			}
			if sp.negated && negationRE.MatchString(s[:loc[0]]) {
				continue
			}
			if sp.unless != nil && sp.unless.MatchString(s[loc[1]:]) {
				continue
			}
			if end := loc[1] + strings.IndexAny(s[loc[1]:]+" ", " \t,;)`'\""); strings.HasSuffix(s[loc[0]:end], ".pub") {
				continue // a public key is no credential
			}
			return []Signal{{Code: SignalSteers, What: fmt.Sprintf("%s (%q)", sp.what, strings.TrimSpace(s[loc[0]:loc[1]]))}}
		}
	}
	return nil
}
