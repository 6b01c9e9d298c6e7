// Package secret finds likely credentials in text, so that memory-lsp can
// refuse to store them and flag the ones already in memory files (which are
// committed and read by every agent).
//
// The detectors aim at few false positives: each known token format is
// matched by its fixed prefix and length, and the generic "password: value"
// form only fires when the value is long enough, is not a placeholder and
// mixes character classes.
//
// Cost: one pass over the lower-cased text finds every anchor (a literal that
// starts a match); each detector's expression then runs only on a short
// window at its anchors, so ordinary prose costs about a nanosecond a byte.
package secret

import (
	"encoding/base64"
	"encoding/json"
	"regexp"
	"slices"
	"sort"
	"strings"
	"sync"
	"unicode"
	"unicode/utf8"

	"github.com/memory-lsp/memory-lsp/core/text"
)

// Match is one likely credential: the byte range of the secret itself (for a
// URL, the password; for an assignment, the value) and what it looks like.
type Match struct {
	Start, End int
	Kind       string
	// Throwaway marks a password its line gives for automated tests or a
	// setup on the developer's own machine (throwaway): shown and held
	// for a person's look, not counted as a leak.
	Throwaway bool
}

type detector struct {
	kind string
	// anchors, in lower case, start every match.
	anchors []string
	// re is anchored (^) and runs on the window starting at an anchor.
	re func() *regexp.Regexp
	// group is the submatch that holds the secret (0: the whole match).
	group int
	// ok, if set, must accept the secret.
	ok func(string) bool
	// public, if set, reports from the line's text before the value that
	// this one is meant to be public (a Firebase web config's apiKey).
	public func(before string) bool
}

// lazy compiles src on first use: most processes (a query, a list) never
// look for secrets, and compiling every detector cost a millisecond of each
// process's start.
func lazy(src string) func() *regexp.Regexp {
	return sync.OnceValue(func() *regexp.Regexp { return regexp.MustCompile(src) })
}

// window is how far past an anchor a match may reach.
const window = 512

var detectors = []detector{
	{kind: "private key", anchors: []string{"-----begin "},
		re: lazy(`^-----BEGIN (?:[A-Z0-9]+ )*PRIVATE KEY-----`)},
	{kind: "AWS access key id", anchors: []string{"akia", "asia"},
		re: lazy(`^((?:AKIA|ASIA)[A-Z0-9]{16})\b`), group: 1, ok: notPlaceholder},
	{kind: "AWS secret access key", anchors: []string{"aws"},
		re:    lazy(`^(?i:aws_?(?:secret|sk)[a-z_]*)["']?[ \t]*[:=][ \t]*["']?([A-Za-z0-9/+]{40})(?:[^A-Za-z0-9/+=]|$)`),
		group: 1, ok: func(v string) bool { return notPlaceholder(v) && classes(v) >= 3 }},
	{kind: "GitHub token", anchors: []string{"ghp_", "gho_", "ghu_", "ghs_", "ghr_"},
		re: lazy(`^(gh[pousr]_[A-Za-z0-9]{36,251})\b`), group: 1, ok: notPlaceholder},
	{kind: "GitHub token", anchors: []string{"github_pat_"},
		re: lazy(`^(github_pat_[A-Za-z0-9_]{22,244})\b`), group: 1, ok: notPlaceholder},
	{kind: "GitLab token", anchors: []string{"glpat-"},
		re: lazy(`^(glpat-[A-Za-z0-9_-]{20,})`), group: 1, ok: notPlaceholder},
	{kind: "Slack token", anchors: []string{"xox"},
		re: lazy(`^(xox[abprs]-[A-Za-z0-9-]{10,})`), group: 1,
		ok: func(v string) bool { return notPlaceholder(v) && strings.ContainsAny(v, "0123456789") }},
	{kind: "Slack webhook", anchors: []string{"https://hooks.slack.com/"},
		re: lazy(`^https://hooks\.slack\.com/(?:services|workflows|triggers)/[A-Za-z0-9]+/[A-Za-z0-9]+/[A-Za-z0-9]{16,}`), ok: notPlaceholder},
	{kind: "Stripe key", anchors: []string{"sk_live_", "rk_live_"},
		re: lazy(`^((?:sk|rk)_live_[A-Za-z0-9]{16,})`), group: 1, ok: notPlaceholder},
	{kind: "Google API key", anchors: []string{"aiza"},
		re: lazy(`^(AIza[0-9A-Za-z_-]{35})(?:[^0-9A-Za-z_-]|$)`), group: 1, ok: notPlaceholder,
		// Firebase ships the key of a web app in its client bundle, by
		// design; rules, not the key, guard the data (both blind sets
		// that held one labelled it no secret)
		public: func(before string) bool { return strings.Contains(text.LowerASCII(before), "firebase") }},
	{kind: "API key (sk-…)", anchors: []string{"sk-"},
		re:    lazy(`^(sk-(?:ant-(?:api\d+-|admin\d+-)?|proj-|svcacct-|admin-)?[A-Za-z0-9_-]{32,})`),
		group: 1, ok: func(v string) bool { return notPlaceholder(v) && classes(v) >= 2 && hasDigit(v) }},
	{kind: "npm token", anchors: []string{"npm_"},
		re: lazy(`^(npm_[A-Za-z0-9]{36})\b`), group: 1, ok: notPlaceholder},
	{kind: jwtKind, anchors: []string{"eyj"},
		re: lazy(`^(eyJ[A-Za-z0-9_-]{10,}\.eyJ[A-Za-z0-9_-]{10,}\.[A-Za-z0-9_-]{16,})`), group: 1,
		ok: func(v string) bool { return !strings.Contains(v, jwtSamplePayload) && !supabaseAnonKey(v) }},
	{kind: "Stripe key", anchors: []string{"sk_test_", "rk_test_"},
		re: lazy(`^((?:sk|rk)_test_[A-Za-z0-9]{24,})`), group: 1,
		// Stripe's documentation prints one test key for every reader
		ok: func(v string) bool { return notPlaceholder(v) && v != "sk_test_4eC39HqLyjWDarjtT1zdp7dc" }},
	{kind: "Hugging Face token", anchors: []string{"hf_"},
		// Hugging Face writes its tokens in letters alone, of both cases at
		// random: an identifier in camel case (hf_AutoModelLoader) has
		// runs of lower-case letters no random token has
		re: lazy(`^(hf_[A-Za-z0-9]{34,})\b`), group: 1,
		ok: func(v string) bool { return notPlaceholder(v) && randomLetters(v[3:]) }},
	{kind: "Heroku API key", anchors: []string{"hrku-"},
		re: lazy(`^(HRKU-[A-Za-z0-9_-]{40,})`), group: 1, ok: notPlaceholder},
	{kind: "age secret key", anchors: []string{"age-secret-key-1"},
		re: lazy(`^(AGE-SECRET-KEY-1[0-9A-Z]{58})\b`), group: 1, ok: varied},
	{kind: "Vault token", anchors: []string{"hvs.", "hvb.", "hvr."},
		re: lazy(`^(hv[sbr]\.[A-Za-z0-9_-]{24,})`), group: 1,
		ok: func(v string) bool { return notPlaceholder(v) && hasDigit(v) && classes(v[4:]) >= 3 }},
	{kind: "SendGrid API key", anchors: []string{"sg."},
		re: lazy(`^(SG\.[A-Za-z0-9_-]{22}\.[A-Za-z0-9_-]{43})(?:[^A-Za-z0-9_-]|$)`), group: 1, ok: notPlaceholder},
	{kind: "Databricks token", anchors: []string{"dapi"},
		re: lazy(`^(dapi[a-f0-9]{32})(?:-\d)?\b`), group: 1,
		ok: func(v string) bool { return notPlaceholder(v) && hasLetter(v[4:]) && hasDigit(v) && varied(v) }},
	{kind: "PyPI token", anchors: []string{"pypi-age"},
		re: lazy(`^(pypi-AgE[A-Za-z0-9_-]{50,})`), group: 1, ok: notPlaceholder},
	{kind: "DigitalOcean token", anchors: []string{"dop_v1_", "doo_v1_", "dor_v1_"},
		re: lazy(`^(do[por]_v1_[a-f0-9]{64})\b`), group: 1},
	{kind: "Azure storage account key", anchors: []string{"accountkey="},
		re: lazy(`^(?i:accountkey=)([A-Za-z0-9+/]{40,}={0,2})`), group: 1, ok: notPlaceholder},
	{kind: "Alibaba Cloud AccessKey ID", anchors: []string{"ltai"},
		re: lazy(`^(LTAI[A-Za-z0-9]{12,30})\b`), group: 1,
		ok: func(v string) bool { return notPlaceholder(v) && hasDigit(v) && classes(v) >= 3 }},
	{kind: "token", anchors: []string{"auth token ", "access token ", "api token ", "bot token ", "secret key ", "secret access key ", "totp seed", "2fa secret", "otp secret"},
		// a token named in prose, then given: "auth token f188ebf7…",
		// "TOTP seed for the admin account: IGRMYERX…" (a base32 seed),
		// "the secret access key for the backup user is 5avjJ…"
		re:    lazy(`^(?i:auth|access|api|bot|secret|totp|2fa|otp)[ _-](?:(?i:access)[ _-])?(?i:token|key|seed|secret)\b[^\n.;:]{0,40}?[ \t:=]+["'\x60]?([A-Za-z0-9_+/-]{24,}={0,2})(?:[^A-Za-z0-9_+/=-]|$)`),
		group: 1, ok: longTokenValue},
	// Vendors' documented token formats, as the public rule sets
	// (gitleaks, noseyparker) read them.
	{kind: "Stripe webhook secret", anchors: []string{"whsec_"},
		re: lazy(`^(whsec_[A-Za-z0-9+/]{24,})`), group: 1,
		ok: func(v string) bool { return notPlaceholder(v) && hasDigit(v) && classes(v) >= 3 }},
	{kind: "Sentry token", anchors: []string{"sntryu_", "sntrys_"},
		re: lazy(`^(sntryu_[a-f0-9]{64}|sntrys_[A-Za-z0-9+/=_]{40,})`), group: 1, ok: func(v string) bool { return notPlaceholder(v) && varied(v) }},
	{kind: "Doppler token", anchors: []string{"dp.pt.", "dp.st.", "dp.ct.", "dp.sa.", "dp.scim.", "dp.audit."},
		re: lazy(`^(dp\.(?:pt|st|ct|sa|scim|audit)\.(?:[a-z0-9_-]{2,35}\.)?[A-Za-z0-9]{40,44})\b`), group: 1,
		ok: func(v string) bool { return notPlaceholder(v) && hasDigit(v) && classes(v) >= 3 }},
	{kind: "Atlassian API token", anchors: []string{"atatt3"},
		re: lazy(`^(ATATT3[A-Za-z0-9_=-]{150,})`), group: 1, ok: notPlaceholder},
	{kind: "chat webhook", anchors: []string{"https://qyapi.weixin.qq.com/", "https://oapi.dingtalk.com/", "https://open.feishu.cn/", "https://open.larksuite.com/",
		"http://qyapi.weixin.qq.com/", "http://oapi.dingtalk.com/", "http://open.feishu.cn/", "http://open.larksuite.com/"},
		// WeCom, DingTalk and Feishu/Lark bots: whoever has the URL posts
		// as the bot, as with a Slack webhook
		re: lazy(`^https?://(?:qyapi\.weixin\.qq\.com/cgi-bin/webhook/send\?key=[0-9a-f-]{36}|oapi\.dingtalk\.com/robot/send\?access_token=[0-9a-f]{64}|open\.(?:feishu\.cn|larksuite\.com)/open-apis/bot/v2/hook/[0-9a-f-]{36})`),
		ok: func(v string) bool { return notPlaceholder(v) && varied(v[strings.LastIndexAny(v, "=/")+1:]) }},
	// Credentials people paste in prose with no format of their own: a
	// passphrase of dictionary words, a list of recovery codes, a session
	// cookie (issue 27's blind sets). Each needs its name and a value of
	// its shape: words joined or quoted, codes with digits, a cookie's
	// long random value.
	{kind: "passphrase", anchors: passphraseKeys,
		re: lazy(`^` + passphraseKey + `(?:["'“«„\x60][ \t]*((?:\pL{3,}[ -]){3,}\pL{3,})[ \t]*["'”»“\x60])`), group: 1, ok: passphraseWords},
	{kind: "passphrase", anchors: passphraseKeys,
		re: lazy(`^` + passphraseKey + `((?:\pL{3,}[-._]){3,}\pL{3,})(?:[^\pL\pN_-]|$)`), group: 1, ok: passphraseWords},
	{kind: "recovery codes", anchors: []string{"recovery code", "backup code", "codes de récupération", "code de récupération", "codes de secours",
		"wiederherstellungscode", "backup-code", "códigos de recuperación", "código de recuperación", "códigos de respaldo",
		"коды восстановления", "Коды восстановления", "резервные коды", "Резервные коды", "恢复码", "备用码", "リカバリーコード", "バックアップコード"},
		re:    lazy(`^[^\n.;:：]{0,80}?[:：=][ \t]*((?:[A-Za-z0-9]{4,10}[- ]?){1,2}(?:[ \t]*[,;、][ \t]*(?:[A-Za-z0-9]{4,10}[- ]?){1,2})+)`),
		group: 1, ok: recoveryCodes},
	{kind: "session cookie", anchors: []string{"sessionid=", "session_id=", "phpsessid=", "jsessionid=", "connect.sid=", "laravel_session=", "_session_id=", "session="},
		re:    lazy(`^(?i:sessionid|session_id|phpsessid|jsessionid|connect\.sid|laravel_session|_session_id|session)=([A-Za-z0-9%_-][A-Za-z0-9%._-]{18,}[A-Za-z0-9%_-])`),
		group: 1, ok: func(v string) bool { return notPlaceholder(v) && hasDigit(v) && hasLetter(v) && varied(v) }},
	{kind: "API key", anchors: []string{"api key", "api-key", "x-api-key", "pre-shared key", "preshared key", "api-schlüssel", "api-schluessel"},
		// an API key or a VPN's pre-shared key named in prose, then given
		// ("X-Api-Key 4ffde47e…", "the pre-shared key is U21GIP…"): the
		// value must read as a generated token (longTokenValue)
		re:    lazy(`^(?i:x-)?(?i:api[ -]key|pre-?shared key|api-schl(?:ü|ue)ssel)\b[^\n.;:]{0,60}?(?:[ \t](?:is|ist|est|es)[ \t]+|[ \t]*[:=][ \t]*|[ \t]+)["'\x60]?([A-Za-z0-9+/]{24,}={0,2})(?:[^A-Za-z0-9_+/=-]|$)`),
		group: 1, ok: longTokenValue},
	{kind: "Tailscale key", anchors: []string{"tskey-"},
		re: lazy(`^(tskey-(?:auth|api|client|webhook|scim)-[A-Za-z0-9]{8,}-[A-Za-z0-9]{20,})`), group: 1,
		ok: func(v string) bool { return notPlaceholder(v) && hasDigit(v) && classes(v) >= 3 }},
	{kind: "Discord webhook", anchors: []string{"https://discord.com/api/webhooks/", "https://discordapp.com/api/webhooks/"},
		re: lazy(`^https://discord(?:app)?\.com/api/webhooks/\d{17,20}/[A-Za-z0-9_-]{60,100}`),
		ok: func(v string) bool { return notPlaceholder(v) && varied(v[strings.LastIndexByte(v, '/')+1:]) }},
	{kind: "Mapbox secret token", anchors: []string{"sk.eyj"},
		re: lazy(`^(sk\.eyJ[A-Za-z0-9_-]{20,}\.[A-Za-z0-9_-]{20,})`), group: 1, ok: notPlaceholder},
	{kind: "X bearer token", anchors: []string{"aaaaaaaaaaaaaaaaaaaaa"},
		// app-only bearer tokens open with a run of A's, then URL-encoded
		// base64
		re: lazy(`^(A{20,}[A-Za-z0-9%]{60,})`), group: 1,
		ok: func(v string) bool { return notPlaceholder(v) && hasDigit(v) && strings.Contains(v, "%") }},
	{kind: "Google OAuth access token", anchors: []string{"ya29."},
		re: lazy(`^(ya29\.[0-9A-Za-z_-]{30,})`), group: 1,
		ok: func(v string) bool { return notPlaceholder(v) && hasDigit(v) && classes(v[5:]) >= 3 }},
	{kind: "Airtable token", anchors: []string{"pat"},
		re: lazy(`^(pat[A-Za-z0-9]{14}\.[a-f0-9]{64})\b`), group: 1,
		ok: func(v string) bool { return notPlaceholder(v) && varied(v) }},
	{kind: "Yandex Cloud key", anchors: []string{"yc", "aqvn"},
		// a static access key's id (YCAJ…) and secret (YC… of 40), an
		// API key (AQVN…)
		re: lazy(`^((?:YC[A-Za-z0-9_-]{38}|AQVN[A-Za-z0-9_-]{35,38}))(?:[^A-Za-z0-9_-]|$)`), group: 1,
		// a key mixes cases; an env var's name holds none in lower case
		// (YC_SERVICE_ACCOUNT_KEY_FILE_FOR_STAGING2, a red team's)
		ok: func(v string) bool {
			return notPlaceholder(v) && hasDigit(v) && strings.ToUpper(v) != v && classes(v) >= 3
		}},
	{kind: "token", anchors: []string{"token de", "Token de", "jeton", "токен", "Токен", "令牌", "トークン", "zugriffstoken", "zugangstoken", "api-token"},
		// a token named in prose in the other languages, then given after
		// a colon or "=": "Token de API de Cloudflare para editar DNS:
		// OvmA…" (issue 27's eighth set)
		re:    lazy(`^(?i:token de|jeton|токен|令牌|トークン|zugriffstoken|zugangstoken|api-token)[^\n.;:：=]{0,60}?[ \t]*[:：=][ \t]*["'\x60]?([A-Za-z0-9_+/-]{24,}={0,2})(?:[^A-Za-z0-9_+/=-]|$)`),
		group: 1, ok: func(v string) bool { return longTokenValue(v) || randomDashed(v) }, public: namesAHash},
	{kind: "HTTP Basic credentials", anchors: []string{"basic "},
		re: lazy(`^(?i:basic) ([A-Za-z0-9+/]{12,}={0,2})(?:[^A-Za-z0-9+/=]|$)`), group: 1, ok: basicCredentials},
}

// passphraseKeys name a passphrase; passphraseKey reads one and what
// introduces its value ("… for the device lab: ", " est ", "是").
var passphraseKeys = []string{"passphrase", "pass phrase", "phrase de passe", "phrase secrète", "frase de contraseña", "frase secreta", "парольная фраза", "Парольная фраза",
	"кодовая фраза", "Кодовая фраза", "口令短语", "密码短语", "パスフレーズ"}

const passphraseKey = `(?i:passphrase|pass phrase|phrase de passe|phrase secrète|frase de contraseña|frase secreta|парольная фраза|кодовая фраза|口令短语|密码短语|パスフレーズ)` +
	`[^\n.;:：=]{0,60}?(?:[ \t](?:is|est|ist|lautet|es|—|-)[ \t]+|[ \t]*[:：=][ \t]*|[ \t]*(?:是|为|は)[ \t]*)`

// passphraseWords reports whether v reads as a passphrase of dictionary
// words: four or more, at least three of them different, none a
// placeholder's, and not the one every tutorial prints.
func passphraseWords(v string) bool {
	words := strings.FieldsFunc(strings.ToLower(v), func(r rune) bool { return r == ' ' || r == '-' || r == '.' || r == '_' })
	distinct := map[string]bool{}
	for _, w := range words {
		if resourceWords[w] {
			return false // the name of where it is kept: "release-signing-passphrase-store"
		}
		distinct[w] = true
	}
	return len(words) >= 4 && len(distinct) >= 3 && notPlaceholder(v) &&
		strings.Join(words, " ") != "correct horse battery staple"
}

// resourceWords name where a secret is kept, which a passphrase of
// dictionary words does not spell.
var resourceWords = map[string]bool{"passphrase": true, "password": true, "secret": true, "secrets": true, "key": true,
	"keys": true, "token": true, "vault": true, "store": true, "signing": true, "release": true, "prod": true,
	"production": true, "staging": true, "dev": true, "config": true, "env": true, "ssh": true, "gpg": true, "pgp": true,
	"name": true, "file": true, "bucket": true, "service": true, "account": true, "cluster": true, "kube": true}

// recoveryCodes reports whether v is two or more codes, each with a digit.
func recoveryCodes(v string) bool {
	codes := strings.FieldsFunc(v, func(r rune) bool { return r == ',' || r == ';' || r == '、' })
	if len(codes) < 2 || !notPlaceholder(v) {
		return false
	}
	for _, c := range codes {
		if !hasDigit(c) {
			return false
		}
	}
	return true
}

// randomLetters reports whether s reads as letters drawn at random: both
// cases, and no run of eight lower-case letters, which words have (one
// random token in twenty has such a run: missed, where a word would not be).
func randomLetters(s string) bool {
	if classes(s) < 2 || hasDigit(s) {
		return classes(s) >= 2
	}
	run := 0
	for _, r := range s {
		if 'a' <= r && r <= 'z' {
			run++
			if run >= 8 {
				return false
			}
		} else {
			run = 0
		}
	}
	return true
}

// varied reports whether a key's characters vary as a random key's do: a
// placeholder repeats one ("AGE-SECRET-KEY-1QQQQ…") or counts up
// ("dapi0123456789abcdef…").
func varied(v string) bool {
	seen := map[rune]bool{}
	for _, r := range v {
		seen[r] = true
	}
	return len(seen) >= 10 && !strings.Contains(v, "0123456789") && !strings.Contains(v, "abcdef0123")
}

// namesAHash reports whether the words right before a value say it is a
// commit, a hash or a public id, not the token named earlier in the
// sentence: "Le jeton fuité a été retiré de l'historique, commit :
// 9fceb02d…", "Token de cliente de Sentry (DSN, público): …" (a red
// team's).
func namesAHash(before string) bool {
	// the words of a bracket that ends at the colon ("(DSN, público):"),
	// or else the last phrase before it ("…, commit : 9fce…"); a phrase
	// that names a token names its use, not a hash ("Token de acceso del
	// bot de commit:", "Токен для коммитов в main:": red teams')
	b := strings.TrimRight(strings.ToLower(before), " \t:：=")
	if i := strings.LastIndexAny(b, "(（"); strings.HasSuffix(b, ")") || strings.HasSuffix(b, "）") {
		if i >= 0 {
			b = b[i:]
		}
	}
	if !strings.HasSuffix(b, ")") && !strings.HasSuffix(b, "）") {
		// the last phrase, after a comma or the like: three words at most,
		// none naming a token ("commit de nettoyage", "hash du commit",
		// "fix commit"; not "Token de acceso del bot de commit")
		if i := strings.LastIndexAny(b, ",;，、；"); i >= 0 {
			b = b[i:]
		}
		f := strings.FieldsFunc(b, func(r rune) bool { return unicode.IsSpace(r) || strings.ContainsRune(",;，、；", r) })
		if len(f) > 3 {
			return false
		}
		for _, w := range f {
			if strings.Contains(w, "token") || strings.Contains(w, "jeton") || strings.Contains(w, "токен") || strings.Contains(w, "令牌") ||
				w == "key" || w == "bot" || w == "clave" || w == "clé" {
				return false
			}
		}
	}
	f := strings.FieldsFunc(b, func(r rune) bool {
		return unicode.IsSpace(r) || strings.ContainsRune(",:：=()（）[]，、；。", r)
	})
	for _, w := range f {
		switch w {
		case "commit", "sha", "sha1", "sha256", "sha512", "sha-1", "sha-256", "sha-512", "md5", "hash", "digest", "checksum", "fingerprint", "dsn",
			"коммит", "хеш", "хэш", "提交", "哈希", "コミット", "ハッシュ":
			return true
		}
	}
	return false
}

// randomDashed accepts a generated token that holds "-" or "_", as
// Cloudflare's do ("OvmAvrE7otLAHDojM85mxc8Tty_hs0lSw-6jegmT"): 32
// characters at least, every part between the dashes of four letters or
// more mixing cases or holding a digit, so that no name made of words
// ("release_signing_key_2024") reads as one.
func randomDashed(v string) bool {
	if len(v) < 32 || !strings.ContainsAny(v, "-_") || !notPlaceholder(v) || !varied(v) || !hasDigit(v) {
		return false
	}
	// A path is read by its last part: "kv/ci/GitHub-Release-1a2b3c4d-5e6f"
	// is a name, "kv/OvmAvrE7otLAHDojM85mxc8Tty_hs0lSw-6jegmT" a token. Most
	// of its longer parts written as words make a name:
	// "Cloudflare_DNS_Edit_Prod_2024_Token", "ReleaseBot_GitHubApp"; a
	// random token's short parts ("L", "Bk") read as anything (red teams').
	v = v[strings.LastIndexByte(v, '/')+1:]
	parts := strings.FieldsFunc(v, func(r rune) bool { return r == '-' || r == '_' })
	random := false
	for _, part := range parts {
		random = random || len(part) >= 4 && classes(part) >= 2 && hasDigit(part) && strings.ToLower(part) != part &&
			!wordsJoined().MatchString(part)
	}
	long, words := 0, 0
	for _, part := range parts {
		if len(part) < 4 {
			continue
		}
		long++
		// a word, words run together, or a lower-case hex id beside no
		// random part
		if len(part) >= 6 && !hasDigit(part) && classes(part) < 2 || wordsJoined().MatchString(part) ||
			!random && strings.Trim(part, "0123456789abcdef") == "" {
			words++
		}
	}
	if words*2 > long {
		return false
	}
	return classes(strings.NewReplacer("-", "", "_", "").Replace(v)) >= 3
}

// wordsJoined is a part written as words: capitalised words run together,
// with a year or a number after them ("GitHubApp", "Prod2024").
var wordsJoined = sync.OnceValue(func() *regexp.Regexp {
	return regexp.MustCompile(`^(?:[A-Z]{1,3}|[A-Z]?[a-z]{2,})(?:[A-Z][a-z]+|[A-Z]{2,4})*\d{0,4}$`)
})

// longTokenValue accepts the value given after a token's name in prose: 24
// characters at least, letters with digits (a hex or base32 token), no
// placeholder, no name (an env var or a file name holds "_" or "-"): "the
// auth token is documented in docs/" gives none.
func longTokenValue(v string) bool {
	if strings.ContainsAny(v, "/+=") {
		// base64's "/" alone is a path as often ("src/lib/AuthStore2"):
		// only a key of AWS's 40 characters is read so
		slashOnly := !strings.ContainsAny(v, "+=")
		if classes(v) < 3 || slashOnly && len(v) != 40 {
			return false
		}
	}
	if camelName().MatchString(v) {
		return false // a name: "the secret key used by BackupUploaderLambda2024Handler"
	}
	return notPlaceholder(v) && hasDigit(v) && hasLetter(v) && !strings.Contains(v, "_") && !strings.Contains(v, "-")
}

// camelName is an identifier of capitalised words and numbers, which a
// generated token does not spell.
var camelName = lazy(`^(?:[A-Z][a-z]{2,}|[0-9]+)*[A-Z][a-z]{2,}(?:[A-Z][a-z]{2,}|[0-9]+)*$`)

// jwtSamplePayload is the payload of jwt.io's sample token ("John Doe"),
// which documentation and tests quote: like AWS's EXAMPLE keys, no secret.
const jwtSamplePayload = "eyJzdWIiOiIxMjM0NTY3ODkwIiwibmFtZSI6IkpvaG4gRG9lIiwiaWF0IjoxNTE2MjM5MDIyfQ"

// supabaseAnonKey reports whether a JSON Web Token is a Supabase project's
// anon key, which its client ships by design (row-level security guards
// the data; issue 27's eighth set): its payload names the issuer and the
// anon role. The service_role key is a secret.
func supabaseAnonKey(v string) bool {
	parts := strings.Split(v, ".")
	if len(parts) != 3 {
		return false
	}
	b, err := base64.RawURLEncoding.DecodeString(strings.TrimRight(parts[1], "="))
	if err != nil {
		return false
	}
	// keys read exactly: encoding/json would take "ROLE" for "role"
	var claims map[string]any
	if json.Unmarshal(b, &claims) != nil {
		return false
	}
	return claims["iss"] == "supabase" && claims["role"] == "anon"
}

// supabaseDemoKeys are the anon and service_role keys of the Supabase
// CLI's local stack: `supabase start` prints these same two for every
// install, signed with its published default JWT secret, so neither opens
// anything but a developer's own machine. A key that only names the demo
// issuer, signed with another secret, is not one of them; nor is one on a
// line about a system others reach (reachedLine): a stack there on the
// demo key is open to everyone.
var supabaseDemoKeys = []string{
	"eyJhbGciOiJIUzI1NiIsInR5cCI6IkpXVCJ9.eyJpc3MiOiJzdXBhYmFzZS1kZW1vIiwicm9sZSI6ImFub24iLCJleHAiOjE5ODM4MTI5OTZ9.CRXP1A7WOeoJeXxjNni43kdQwgnWNReilDMblYTn_I0",
	"eyJhbGciOiJIUzI1NiIsInR5cCI6IkpXVCJ9.eyJpc3MiOiJzdXBhYmFzZS1kZW1vIiwicm9sZSI6InNlcnZpY2Vfcm9sZSIsImV4cCI6MTk4MzgxMjk5Nn0.EGIM96RAZx35lJzdJsyH-qQwv8Hdp7fsn3W0YpN81IU",
}

// basicCredentials accepts the value of an HTTP Basic Authorization header
// when it decodes to user:password with a password that is no placeholder.
func basicCredentials(v string) bool {
	b, err := base64.StdEncoding.DecodeString(v)
	if err != nil {
		return false
	}
	user, pass, ok := strings.Cut(string(b), ":")
	return ok && user != "" && utf8.ValidString(pass) && urlPassword(pass) && pass != user
}

// anchorURL starts the hand-written scan for passwords in URLs, and
// anchorTelegram the one for Telegram bot tokens (digits, ":AA", 33 more).
const (
	anchorURL      = "://"
	anchorTelegram = ":aa"
)

// proseKeys name a password, passphrase or PIN in the languages memory is
// written in, as prose says it ("the prod password is …", "mot de passe :
// …", "пароль: …", "密码是 …"), and the words that introduce a login as
// user / password. Lower case; a keyword whose capital differs outside
// ASCII is listed twice.
var proseKeys = []string{
	"password", "passphrase", "passcode", "pass", "pwd", "pin", "mot de passe", "mdp", "passwort", "kennwort",
	"contraseña", "clave", "senha", "parola", "hasło", "haslo", "wachtwoord", "şifre", "sifre", "lösenord",
	"пароль", "Пароль", "密码", "口令", "パスワード", "暗証番号", "비밀번호", "пин-код", "Пин-код", "ПИН-код", "пин код", "Пин код", "ПИН",
	"login", "logs in with", "log in with", "credentials", "creds", "identifiants", "логин", "Логин",
	"--password", "-p ", "-u ", "client secret", "密钥", "秘钥", "密鑰",
}

// bareValueKeys may be followed by the value with no "is" or colon between
// ("Логин admin, пароль km%Aw^#5E…", "user acme, pass 7uHq!2mWz9"): the
// value must then be a strong password.
var bareValueKeys = map[string]bool{
	"pass": true, "mdp": true, "pwd": true, "client secret": true, "password": true, "passwort": true,
	"kennwort": true, "mot de passe": true, "contraseña": true, "senha": true, "пароль": true, "Пароль": true,
	"密码": true, "口令": true,
}

// quotedAlone reports whether s[start:end] is quoted on its own ("the hook
// blocks files containing \"-----BEGIN OPENSSH PRIVATE KEY-----\""): a
// header named, no key after it.
func quotedAlone(s string, start, end int) bool {
	before, _ := utf8.DecodeLastRuneInString(s[:start])
	after, _ := utf8.DecodeRuneInString(s[end:])
	closing := map[rune]rune{'"': '"', '\'': '\'', '`': '`', '“': '”', '«': '»', '„': '“', '「': '」'}
	c, ok := closing[before]
	return ok && after == c
}

// assignment is a value that is itself a lower-case name given a name or a
// number (`backup_dir=False`): code, not a password ("sNMJd=QSm4!Y" is one).
var assignment = lazy(`^[a-z_][a-z0-9_.]*=(?:[A-Za-z_][A-Za-z0-9_.]*|\d+)$`)

// namespacedID reports whether v is a key of a store or a resource name,
// not a password: a word of letters in one case, then ":" or "#" and more
// (user:42:profile:v3, arn:aws:kms:…, TENANT#a1b2c3, ORDER#2024-06-11).
func namespacedID(v string) bool {
	k := strings.IndexAny(v, ":#")
	if k < 3 || k == len(v)-1 {
		return false
	}
	head := v[:k]
	for _, c := range []byte(head) {
		if !isLetter(c) {
			return false
		}
	}
	// what follows names things too ("42:profile", "main"): a symbol no
	// key is spelled with makes it a password ("XHIC#Vg%9IIL")
	if strings.IndexFunc(v[k+1:], func(r rune) bool {
		return !strings.ContainsRune(":#_.-/", r) && !unicode.IsLetter(r) && !unicode.IsDigit(r)
	}) >= 0 {
		return false
	}
	return head == strings.ToLower(head) || head == strings.ToUpper(head)
}

// vaults are the password managers and secret stores prose names where a
// password is kept ("パスワードは 1Password の「本番DB」項目を参照"): a
// reference, not a value.
var vaults = []string{"1password", "bitwarden", "lastpass", "keepass", "keychain", "dashlane", "doppler",
	"vaultwarden", "infisical", "secretsmanager", "secrets-manager", "keyvault", "key-vault"}

// assignmentRoots find the names of `password: value` assignments; see
// assignmentKey for the full names.
var assignmentRoots = []string{"pass", "pwd", "secret", "token", "key"}

type anchor struct {
	text string
	det  int // index into detectors, or -1 for "://", -2 for an assignment root
}

var (
	anchors []anchor
	// isPair[c0<<8|c1] says some anchor starts with bytes c0 c1 (every anchor
	// has at least two); byPair lists them. The small table keeps the scan
	// in cache; the map is consulted only on a hit.
	isPair [1 << 16]bool
	byPair = map[uint16][]uint8{}
)

func init() {
	for i, d := range detectors {
		for _, a := range d.anchors {
			anchors = append(anchors, anchor{a, i})
		}
	}
	anchors = append(anchors, anchor{anchorURL, -1})
	for _, r := range assignmentRoots {
		anchors = append(anchors, anchor{r, -2})
	}
	anchors = append(anchors, anchor{anchorTelegram, -3})
	for _, k := range proseKeys {
		anchors = append(anchors, anchor{k, -4})
	}
	for i, a := range anchors {
		k := uint16(a.text[0])<<8 | uint16(a.text[1])
		isPair[k] = true
		byPair[k] = append(byPair[k], uint8(i))
	}
}

// Find returns the likely credentials in s, sorted by position, without
// overlaps (the more specific detector wins).
func Find(s string) []Match {
	// The anchors are matched against s lowered a byte at a time: a
	// lowered copy of s would be a second copy of a whole file at every
	// check (8 MB at the size limit, issue 26).
	var hits [][2]int // (anchor index, offset)
	for i := 0; i+1 < len(s); i++ {
		k := uint16(lowerByte(s[i]))<<8 | uint16(lowerByte(s[i+1]))
		if !isPair[k] {
			continue
		}
		for _, ai := range byPair[k] {
			if hasLowerPrefix(s, i, anchors[ai].text) {
				hits = append(hits, [2]int{int(ai), i})
			}
		}
	}
	if len(hits) == 0 {
		return nil
	}
	var out []Match
	// Specific formats first, in detector order, then URLs, then assignments.
	for di := range detectors {
		d := &detectors[di]
		for _, h := range hits {
			if anchors[h[0]].det != di {
				continue
			}
			p := h[1]
			if p > 0 && isWordByte(s[p-1]) && d.group != 0 {
				continue // the token must start a word
			}
			m := d.re().FindStringSubmatchIndex(s[p:min(len(s), p+window)])
			if m == nil {
				continue
			}
			start, end := p+m[2*d.group], p+m[2*d.group+1]
			if d.ok != nil && !d.ok(s[start:end]) || d.kind == "private key" && quotedAlone(s, start, end) {
				continue
			}
			if d.public != nil && d.public(s[strings.LastIndexByte(s[:start], '\n')+1:start]) {
				continue
			}
			if !overlapsAny(out, start, end) {
				out = append(out, Match{Start: start, End: end, Kind: d.kind})
			}
		}
	}
	for _, h := range hits {
		if anchors[h[0]].det == -1 {
			out = findURLPassword(s, h[1], out)
		}
	}
	for _, h := range hits {
		if anchors[h[0]].det == -2 {
			out = findAssignment(s, h[1], anchors[h[0]].text, out)
		}
	}
	for _, h := range hits {
		switch anchors[h[0]].det {
		case -3:
			out = findTelegramToken(s, h[1], out)
		case -4:
			out = findProsePassword(s, h[1], anchors[h[0]].text, out)
		}
	}
	out = slices.DeleteFunc(out, func(m Match) bool {
		return guessable[m.Kind] && defaultValue(s, m.Start, m.End) || m.Kind == jwtKind && publicDemoKey(s, m.Start, m.End)
	})
	for i := range out {
		out[i].Throwaway = throwaway(s, out[i])
	}
	sort.Slice(out, func(i, j int) bool { return out[i].Start < out[j].Start })
	return out
}

const jwtKind = "JSON Web Token"

// publicDemoKey reports whether s[start:end] is one of supabaseDemoKeys,
// whole (not the start of a longer value: "<key>;STRIPE=…", "<key>/…"),
// on a line that speaks of no system others reach (reachedLine).
func publicDemoKey(s string, start, end int) bool {
	if !slices.Contains(supabaseDemoKeys, s[start:end]) {
		return false
	}
	if end < len(s) && !strings.ContainsRune(" \t\r\n\"'`,)]}", rune(s[end])) &&
		!(s[end] == '.' && (end+1 == len(s) || s[end+1] == ' ' || s[end+1] == '\n')) {
		return false
	}
	line, _ := lineOf(s, start, end)
	return !reachedLine(line)
}

// reachedLine reports whether a line speaks of a system others reach,
// where a stack on a public demo key is open to everyone: production or
// staging (liveLine), "live" or "stage" in a name (`LIVE_SUPABASE_KEY`),
// a shared system (sharedSystem) or a host on the network (networkHost).
// The demo keys alone take this wider guard: on a default password it
// warned of `admin123` beside a documentation link or a `tenant_id`
// column (a red team's).
func reachedLine(line string) bool { return reachedWords(line, identifierWords(line)) }

// reachedWords is reachedLine given the line's identifierWords.
func reachedWords(line, words string) bool {
	return liveSystem().MatchString(line) || prodName().MatchString(words) || liveName().MatchString(words) ||
		sharedSystem().MatchString(words) || networkHost(line)
}

// lineOf is the line of s that holds s[start:end], and where it starts.
func lineOf(s string, start, end int) (string, int) {
	from, to := strings.LastIndexByte(s[:start], '\n')+1, len(s)
	if k := strings.IndexByte(s[end:], '\n'); k >= 0 {
		to = end + k
	}
	return s[from:to], from
}

// throwaway reports whether m is a password that its line gives for
// automated tests or for a setup on the developer's own machine: a
// factory's or a fixture's value, a seeded user, a compose default on
// localhost. On real teams' instruction files such values were labelled no
// secret (issue 27's files v15: 29 of 67 secret errors were test
// factories, mocks, seeded users and local defaults such as
// `LocalDev123!`). Only a value read from a name (guessable) or a URL's
// password for a host on this machine (localURL) qualifies, never a
// vendor's format: a live key in a fixture is a leak all the same. The
// line must say where the value works (localOrTest, with the value itself
// left out: `LocalDev123!` says nothing) and name no system others reach
// (reachedLine, remoteSystem). Whether it opens nothing else the words
// cannot prove, so it is shown and held, not passed (rules, memory).
func throwaway(s string, m Match) bool {
	if !guessable[m.Kind] && !(m.Kind == urlKind && localURL(s, m.End)) || strings.Trim(s[m.Start:m.End], "0123456789") == "" {
		// a PIN opens a device or a card, wherever the line places it
		return false
	}
	line, from := lineOf(s, m.Start, m.End)
	rest := line[:m.Start-from] + " " + line[m.End-from:]
	words := identifierWords(rest)
	if reachedWords(rest, words) || remoteSystem().MatchString(words) || namesAnotherSystem(rest) {
		return false
	}
	return localOrTest().MatchString(words) || m.Kind == urlKind
}

// namesAnotherSystem reports whether line names something by a name of
// its own that localStack does not know: a word in capitals or with a
// capital inside past the start of a sentence ("the Slack workspace",
// "SAP", "Active Directory", "Auth0"), part by part in camel case
// (`UserFactory` is a user and a factory). A test or a local word beside
// such a name says nothing of where the password works, and no list of
// the systems others reach can be whole (a red team's: 337 such lines in
// eight languages), so only a line whose every name is a local tool's
// reads as throwaway. German, which writes every noun in capitals, mostly
// stays a leak.
func namesAnotherSystem(line string) bool {
	sentenceStart := true
	for i := 0; i < len(line); {
		c := line[i]
		if isDigit(c) && (i == 0 || !isLetter(line[i-1]) && !isDigit(line[i-1])) {
			// a name that opens with digits ("1Password", "3CX") is read
			// whole; digits alone are a value
			j := i
			for j < len(line) && isDigit(line[j]) {
				j++
			}
			if j < len(line) && 'A' <= line[j] && line[j] <= 'Z' {
				return true
			}
		}
		if !isLetter(c) {
			switch {
			case c == '.' || c == '!' || c == '?' || c == '-' && i+1 < len(line) && line[i+1] == ' ':
				// after a colon a name is as likely as a sentence ("Lokal:
				// Jira-Passwort …": a red team's)
				sentenceStart = true
			case c >= 0x80:
				// a word of another script: "… Slack，" opens no sentence
				sentenceStart = false
			}
			i++
			continue
		}
		j := i
		for j < len(line) && (isLetter(line[j]) || isDigit(line[j])) {
			j++
		}
		word, first := line[i:j], sentenceStart
		sentenceStart = false
		if i > 0 && (isDigit(line[i-1]) || line[i-1] == '@' || line[i-1] == '.' && i > 1 && isLetter(line[i-2])) {
			i = j // a value's or an address's part
			continue
		}
		if k := strings.LastIndexFunc(line[:i], func(r rune) bool { return r != '-' }); k < i-1 && (k < 0 || line[k] == ' ') {
			i = j // a command's flag: `curl -X POST -H …`
			continue
		}
		i = j
		if lw := strings.ToLower(word); localStack[lw] || localOrTest().MatchString(word) {
			continue
		} else if lw != word && strings.ContainsAny(word, "0123456789") {
			return true // "Auth0", "S3", "K8s": a name, not its parts
		}
		for _, part := range strings.Fields(identifierWords(word)) {
			if strings.ToLower(part) == part || first && part == word || localStack[strings.ToLower(part)] || localOrTest().MatchString(part) {
				continue
			}
			if strings.Trim(part, "0123456789") == "" {
				continue
			}
			return true
		}
	}
	return false
}

// localStack are the names of what runs on a developer's machine or in
// its tests, and the words such a line writes in capitals.
var localStack = text.WordSet(`password passwort kennwort pass pwd pw user users username login admin administrator root email mail ` +
	`db database app api auth jwt session secret key token env dev development local localhost test tests testing e2e unit integration ` +
	`seed seeded seeds seeder fixture fixtures factory factories mock mocks stub stubs fake default docker compose container dockerfile ` +
	`postgres postgresql psql pg mysql mariadb redis mongo mongodb sqlite rabbitmq minio keycloak elasticsearch memcached ` +
	`laravel artisan php django python rails ruby rake symfony spring boot node npm pnpm yarn npx bun deno next nuxt vite react vue ` +
	`typescript javascript go java kotlin playwright cypress jest vitest pytest phpunit pest rspec minitest selenium storybook ` +
	`testcontainers conftest url uri http https host port id sql json yaml ui cli i note only ` +
	// a request written as curl writes it: "-H \"Content-Type: application/json\""
	`curl content type accept authorization bearer application get post put patch delete`)

const urlKind = "password in a URL"

// localURL reports whether the URL whose password ends at end names a
// host on this machine: localhost, a loopback address, Docker's name for
// the host.
func localURL(s string, end int) bool {
	host := text.LowerASCII(urlHost(s, end))
	return host == "localhost" || host == "host.docker.internal" || host == "0.0.0.0" || host == "[::1]" || strings.HasPrefix(host, "127.")
}

// urlHost is the host of the URL whose password ends at end, "" if no
// "@" follows it.
func urlHost(s string, end int) string {
	if end >= len(s) || s[end] != '@' {
		return ""
	}
	host := s[end+1:]
	if k := strings.IndexAny(host, ":/?# \t\r\n`'\")"); k >= 0 {
		host = host[:k]
	}
	return host
}

// composeHost reports whether the URL whose password ends at end names a
// host of one label (`@db:5432`, `@mysql/`): a service of a compose file
// or of the developer's network, never a host of the internet.
func composeHost(s string, end int) bool {
	host := urlHost(s, end)
	return host != "" && !strings.Contains(host, ".") && strings.Trim(host, "abcdefghijklmnopqrstuvwxyz0123456789-_") == ""
}

// localOrTest is a word that places a value in automated tests or on the
// developer's own machine: a test's fixture, factory, mock or stub, a seed,
// a test runner, the machine itself (localhost, "local", "locally"), in the
// languages memory is written in. "Test" alone is not among them, nor the
// words other languages make an adjective of ("de pruebas", "тестовый"):
// a test account, a test phone or a test environment is a system others
// reach.
var localOrTest = lazy(`(?i)\b(?:fixtures?|factory|factories|mocks?|mocked|mocking|stubs?|stubbed|fakes?|seeds?|seeded|seeder|seeders|seeding|` +
	`conftest|tests|testing|unit|e2e|specs?|jest|vitest|pytest|rspec|phpunit|minitest|playwright|cypress|testcontainers|` +
	`localhost|local|locally|devcontainer|laptop|(?:your|my|own|this) machine|dummy|suite|` +
	`lokal|lokale[nrms]?|localement|locale|locales|locaux|locais|localmente|lokaln\pL*)\b|` +
	// Go's \b is ASCII's: the words of other scripts stand alone
	`локальн|фикстур|для тестов|в тестах|本地|本机|测试数据|单元测试|ローカル|シード|テストデータ|単体テスト|ダミー|로컬|시드|테스트 데이터`)

// remoteSystem is a word for a machine other than the developer's own: a
// server, a host, a VM or instance, a cloud or hosting provider, a site or
// an environment others open ("the local admin of the office server",
// "seeded users on the demo instance"), a port forwarded or tunnelled to
// localhost, "local" meaning on the premises.
var remoteSystem = lazy(`(?i)\b(?:servers?|hosts?|hosted|hosting|vms?|vps|instances?|environments?|remote|cloud|aws|azure|gcp|heroku|vercel|netlify|render|railway|fly|` +
	`port-?forward\pL*|kubectl|tunnel\pL*|on-?prem\pL*|premises|on-?site|` +
	`registry|registrar|mainframe|firewall|gateway|replicas?|canary|extranet|back-?office|erp|crm|payroll|kiosk|` +
	`lake|lakehouse|warehouse|edge|box|broker|printer|camera|scanner|plc|scada|` +
	`digitalocean|hetzner|supabase|firebase|neon|planetscale|atlas|demo|sandbox|qa|uat|beta|office|nas|router|portal|panel|dashboard|console|account|accounts|team|company|` +
	`serveur|entorno|servidor|ambiente|umgebung|сервер|服务器|環境|サーバー|서버)\b`)

// guessable are the kinds read from a name and a value, not from a
// format of their own: there the value may be a default anyone could
// guess. A URL's password is not among them: the URL names the host.
var guessable = map[string]bool{"credential in an assignment": true, "credential named in prose": true, "password": true}

// defaultValue reports whether s[start:end] is a default or a fixture
// password rather than a secret: one or two words of defaultWords, spelt
// with digits for letters or not ("Passw0rd"), each with up to three
// digits after it, joined by "-" or "_" ("postgres123", "admin123",
// "my-secret-123"); or the login's own user name with up to three digits
// ("`shop@example.com` / `shop123`"). Real teams' files give these for
// local databases and seeded test users (issue 27's files v1–v12: every
// one of the 19 secret warnings was such a value or code). A line about
// production or staging (liveLine) keeps every value a secret, and so do
// other characters ("hunter2Secret!42"), a year ("Admin2024") and other
// words ("postgres-payments-42"): a red team's. Words run together
// ("devsecret123") and counting runs ("abc123def456") were read as
// defaults too, and withdrawn: whether such a value opens anything
// depends on a system the line names in words no list holds (an S3
// bucket, an office network, a Slack bot: a second red team's 500 cases).
func defaultValue(s string, start, end int) bool {
	// Find may read a whole file: only the value's line speaks of it
	line, from := lineOf(s, start, end)
	start, end = start-from, end-from
	v := strings.Trim(line[start:end], "`'\"")
	if k := strings.LastIndexByte(v, '='); k >= 0 {
		v = v[k+1:] // the value of `DB_PASSWORD=postgres`
	}
	if v == "" || len(v) > 24 || strings.Trim(v, "abcdefghijklmnopqrstuvwxyzABCDEFGHIJKLMNOPQRSTUVWXYZ0123456789-_") != "" ||
		liveLine(line) {
		return false
	}
	if ownName(v, loginUser(line[:start])) || ownName(v, namedUser(line[:start])) && !reachedLine(line) {
		return true
	}
	words, tool := 0, false
	for _, part := range strings.FieldsFunc(v, func(r rune) bool { return r == '-' || r == '_' }) {
		w := strings.TrimRight(part, "0123456789")
		if len(part)-len(w) > 3 {
			return false // a year or a longer number: chosen, not a default
		}
		if w == "" {
			continue
		}
		folded := leetFolded.Replace(text.LowerASCII(w))
		switch {
		case toolDefaults[folded]:
			tool = true
		case !defaultWords[folded]:
			return false
		}
		words++
	}
	// a tool's first login is a default where the tool runs for one
	// developer; as the password of a Wi-Fi or a VPN it is a weak one
	// ("Office Wi-Fi password: grafana747": a red team's)
	return words > 0 && words <= 2 && !(tool && (reachedLine(line) || namesAnotherSystem(line[:start]+" "+line[end:])))
}

// ownName reports whether password v is the user name with up to three
// digits after it ("shop123" for shop, "postgres" for postgres).
func ownName(v, user string) bool {
	w := strings.TrimRight(v, "0123456789")
	return user != "" && (strings.EqualFold(v, user) || len(v)-len(w) <= 3 && strings.EqualFold(w, user))
}

// namedUser is the user name the line gives before the value after a
// label ("User: bagisto / Password: …", "username=shop, …"), the last
// one; "" for none.
func namedUser(before string) string {
	ms := userLabel().FindAllStringSubmatch(before, -1)
	if len(ms) == 0 {
		return ""
	}
	return ms[len(ms)-1][1]
}

var userLabel = lazy(`(?i)\b(?:user(?:name)?|login|benutzer(?:name)?|usuario|utilisateur|usu[aá]rio)[ \t]*[:=][ \t]*["'\x60]?([A-Za-z0-9._-]{3,})`)

func isLower(c byte) bool { return 'a' <= c && c <= 'z' }

func isDigit(c byte) bool { return '0' <= c && c <= '9' }

// leetFolded spells digits that stand for letters as the letters.
var leetFolded = strings.NewReplacer("0", "o", "1", "i", "3", "e", "4", "a", "5", "s")

// defaultWords make up the passwords every tutorial, seed file and
// compose file prints: the names of the thing, the account and the word
// itself. Weak passwords people choose ("Welcome2024", "Qwerty123") are
// not defaults: a staging login with one is a leak.
var defaultWords = text.WordSet("password passwd pass pwd secret supersecret topsecret admin administrator root " +
	"postgres postgresql mysql mariadb redis mongo mongodb test tester testing demo guest user dev local " +
	"default changeit my your the super example sample foo bar")

// toolDefaults are the documented first logins of tools a compose file
// starts (MinIO's minioadmin, Neo4j's, Airflow's, Keycloak's …), read as
// defaults where the line names no system others reach.
var toolDefaults = text.WordSet("minioadmin minio rabbitmq grafana sonar neo4j airflow keycloak elastic")

// liveLine reports whether a line speaks of production or staging, where
// a default password is a leak all the same (liveSystem), also inside a
// name (prodName: `PROD_DB_PASSWORD`, `prodPassword`, `PROD01`). Only the
// line is read: a line is scanned alone when the rest did not change
// (rules.Checker), so a heading above it cannot count.
func liveLine(line string) bool {
	return liveSystem().MatchString(line) || prodName().MatchString(identifierWords(line))
}

// identifierWords is line with the words of its names apart: "_" a blank,
// and a blank where lower case meets upper case or letters meet digits
// ("DB_PROD_PASSWORD", "prodPassword", "PROD01" → "prod Password",
// "PROD 01").
func identifierWords(line string) string {
	var b strings.Builder
	b.Grow(len(line) + 8)
	for i := 0; i < len(line); i++ {
		c := line[i]
		if c == '_' {
			b.WriteByte(' ')
			continue
		}
		if i > 0 {
			p := line[i-1]
			if isLower(p) && 'A' <= c && c <= 'Z' || isLetter(p) && isDigit(c) || isDigit(p) && isLetter(c) {
				b.WriteByte(' ')
			}
		}
		b.WriteByte(c)
	}
	return b.String()
}

// liveSystem is a word for production or staging in the six languages
// and Portuguese, Italian, Dutch, Polish, Korean and Japanese, with the
// compounds German makes of them ("Produktivsystem",
// "Produktionsdatenbank").
var liveSystem = lazy(`(?i)\b(?:prods?|prod(?:eu|us|uk|de|db)|golive|livedb|production|prd|staging|stage|live|preprod|pr[eé]-?prod|pr[eé]-?production|` +
	`produktion|produktions\pL*|produktiv\pL*|live-?system|live-?umgebung|live-?betrieb|echtsystem|echtbetrieb|vorproduktion|abnahmeumgebung|` +
	`producci[oó]n|productiv[oa]|preproducci[oó]n|produ[cç][aã]o|produtiv[oa]|homologa[cç][aã]o|recette|produzione|collaudo|productie|produkcj\pL*|produkcyjn\pL*)\b|` +
	`прод|боев|стейдж|промышленн|生产|生產|线上|線上|现网|上线|预发|灰度|正式|本番|ステージング|운영|실서버|프로덕션|스테이징|상용`)

// prodName is production or staging as a part of a name, once its words
// are apart (identifierWords). "stage" and "live" are code's words too
// (`stageName`, `LiveReload`): liveName counts them for the Supabase demo
// keys alone (reachedLine).
var (
	prodName = lazy(`(?i)\b(?:prods?|production|prd|staging|stg|preprod)\b`)
	liveName = lazy(`(?i)\b(?:stage|live)\b`)
)

// sharedSystem is a word for a system more people than its developer
// reach, or a key others' messages are checked with: a VPN, Wi-Fi, SSH or
// SFTP, a customer's or partner's tenant, a shared, internal or preview
// deployment, a deploy, an app store's review account, a webhook's
// signing key, a value reused everywhere.
var sharedSystem = lazy(`(?i)\b(?:vpn|wi[- ]?fi|wlan|wpa|sftp|ssh|customers?|tenants?|partners?|shared|sharing|internal|intranet|wiki|preview|deploy|deployed|deployment|jenkins|` +
	`cluster|k8s|kube|smtp|ldap|bastion|app ?store|play store|kunden?|cliente|webhooks?|hmac|signing|signed|reused?|everywhere)\b`)

// networkHost reports whether line names a host on a network: an IPv4
// address other than loopback's and 0.0.0.0, or a name under a public
// top-level domain other than a reserved example's (example.com), a
// source host's (github.com) or a documentation site's (docs.…). An
// e-mail address's domain names an account, not a host.
func networkHost(line string) bool {
	for _, m := range hostName().FindAllStringSubmatchIndex(line, -1) {
		h := text.LowerASCII(line[m[2]:m[3]])
		if m[2] > 0 && line[m[2]-1] == '@' {
			continue
		}
		if ip := ipv4().FindStringSubmatch(h); ip != nil {
			// "1.2.3.4" is a version more often than an address
			if ip[1] != "127" && h != "0.0.0.0" && len(h) > len("1.2.3.4") {
				return true
			}
			continue
		}
		if name := line[m[2]:m[3]]; strings.Count(h, ".") == 1 && strings.ToUpper(name[strings.IndexByte(name, '.')+1:]) == name[strings.IndexByte(name, '.')+1:] || h == "socket.io" {
			continue // a product's name: "ASP.NET", "Socket.IO"
		}
		if strings.HasPrefix(h, "docs.") || reservedExample().MatchString(h) || h == "github.com" || h == "gitlab.com" || h == "bitbucket.org" ||
			strings.HasSuffix(h, ".github.com") {
			continue
		}
		if k := strings.LastIndexByte(h, '.'); k >= 0 && publicTLDs[h[k+1:]] {
			return true
		}
	}
	return false
}

// hostName is a dotted name or address, not part of a longer word or a
// path's file name.
var hostName = lazy(`(?:^|[^\w.@/-]|//)((?:[A-Za-z0-9](?:[A-Za-z0-9-]*[A-Za-z0-9])?\.)+[A-Za-z0-9]+)(?:[^\w.-]|\.(?:\s|$)|$)`)

var ipv4 = lazy(`^(\d{1,3})\.\d{1,3}\.\d{1,3}\.\d{1,3}$`)

// publicTLDs are top-level domains a host of a team's is under; none of
// them is a file's extension in code (.md, .py, .sh, .rs, .ts and .app
// are also domains, and are left out).
var publicTLDs = text.WordSet("com net org io dev cloud co ai tech site online xyz biz info de fr uk ru cn jp br es it nl eu us ca au ch at se no pl me kr tr in be gg tv")

// reservedExample is a domain reserved for documentation (RFC 2606).
var reservedExample = lazy(`(?:^|\.)example\.(?:com|net|org)$`)

// loginUser is the user name of a login given as "user / password" or
// "user: password" right before the value: the local part of an address,
// or a name; "" for none.
func loginUser(before string) string {
	b := strings.TrimRight(before, " `'\"")
	if !strings.HasSuffix(b, "/") && !strings.HasSuffix(b, ":") {
		return ""
	}
	b = strings.TrimRight(b[:len(b)-1], " `'\"")
	k := strings.LastIndexAny(b, " `'\"(")
	user := b[k+1:]
	if at := strings.IndexByte(user, '@'); at > 0 {
		user = user[:at]
	}
	if len(user) < 3 || strings.Trim(user, "abcdefghijklmnopqrstuvwxyzABCDEFGHIJKLMNOPQRSTUVWXYZ0123456789-_.") != "" {
		return ""
	}
	return user
}

func isWordByte(c byte) bool {
	return isLetter(c) || ('0' <= c && c <= '9') || c == '_'
}

// findURLPassword looks at one "://" at i for scheme://user:password@host.
// It is written by hand because an expression starting with the scheme would
// have to run over all the text.
func findURLPassword(s string, i int, out []Match) []Match {
	j := i
	for j > 0 && isSchemeChar(s[j-1]) {
		j--
	}
	if j == i || !isLetter(s[j]) {
		return out
	}
	off := i + 3
	auth := s[off:min(len(s), off+window)]
	if k := strings.IndexAny(auth, " \t\r\n/"); k >= 0 {
		auth = auth[:k]
	}
	// "?" starts the query and "#" the fragment, unless an "@" follows: a
	// password written into the URL unencoded (redis://:Yt6#pQ1@host,
	// postgres://app:75RF9ib?av!!oGPs@db)
	if k := strings.IndexAny(auth, "?#"); k >= 0 && strings.IndexByte(auth[k:], '@') < 0 {
		auth = auth[:k]
	}
	at := strings.LastIndexByte(auth, '@')
	if at <= 0 || at == len(auth)-1 {
		return out
	}
	colon := strings.IndexByte(auth[:at], ':')
	if colon < 0 || colon == 0 && !strongPassword(auth[1:at]) {
		return out // no password; or none but a password (redis://:pw@), and a weak one
	}
	start, end := off+colon+1, off+at
	// user:user@ is a tool's default for a throwaway database
	// (postgres:postgres@localhost), not a secret, and so is the user's
	// name with up to three digits on this machine or a compose service
	// (loginapp:loginapp123@db), as a login's is (defaultValue); on a host
	// of the network it is a weak password (billing:billing754@db.acme.io:
	// a red team's)
	own := strings.EqualFold(s[start:end], auth[:colon]) || ownName(s[start:end], auth[:colon]) && (localURL(s, end) || composeHost(s, end))
	if urlPassword(s[start:end]) && !own && !overlapsAny(out, start, end) {
		out = append(out, Match{Start: start, End: end, Kind: "password in a URL"})
	}
	return out
}

func isLetter(c byte) bool { return ('a' <= c && c <= 'z') || ('A' <= c && c <= 'Z') }

func isSchemeChar(c byte) bool {
	return isLetter(c) || ('0' <= c && c <= '9') || c == '+' || c == '.' || c == '-'
}

// assignmentKey finds the full secret name around a root at i in lower
// ("password", "passwd", "passphrase", "pwd", "secret", "token", and
// "api_key", "access-key", "secretkey", "private_key"…) and returns where
// it ends. The name must end the identifier it is part of: "DB_PASSWORD"
// counts, "tokenizer", "max_tokens" and "keyboard" do not.
func assignmentKey(lower string, i int, root string) (int, bool) {
	end := i + len(root)
	switch root {
	case "pass":
		for _, suf := range [...]string{"word", "wd", "phrase"} {
			if strings.HasPrefix(lower[end:], suf) {
				end += len(suf)
				break
			}
		}
		if end == i+len(root) {
			return 0, false
		}
	case "key":
		before := strings.TrimRight(lower[max(0, i-8):i], "_-")
		ok := false
		for _, pre := range [...]string{"api", "access", "private", "secret"} {
			if strings.HasSuffix(before, pre) {
				ok = true
				break
			}
		}
		if !ok {
			return 0, false
		}
	}
	if end < len(lower) && isIdentChar(lower[end]) {
		return 0, false
	}
	return end, true
}

var assignmentValue = lazy(`^["']?[ \t]*(?::=|[:=])[ \t]*["']?([^\s"'` + "`" + `,;)]+)`)

// findAssignment checks one assignment root at i for `password: value`
// whose value looks like a real secret (see genericValue).
func findAssignment(s string, i int, root string, out []Match) []Match {
	// assignmentKey reads at most 8 bytes before the root and a suffix and
	// a byte after it: lowered, that window is all it needs
	from, to := max(0, i-8), min(len(s), i+len(root)+len("phrase")+1)
	end, ok := assignmentKey(text.LowerASCII(s[from:to]), i-from, root)
	end += from
	if !ok {
		return out
	}
	if codePathAfter().MatchString(s[end:min(len(s), end+window)]) {
		return out // a path in code (`token::{PyToken}`), not an assignment
	}
	// assignsNext reads quotes, blanks, ':' and '=', which no lowering changes
	if !assignsNext(s, end) {
		return findNamedInProse(s, i, end, out)
	}
	m := assignmentValue().FindStringSubmatchIndex(s[end:min(len(s), end+window)])
	if m == nil {
		return out
	}
	start, stop := end+m[2], end+m[3]
	if codeExpression(s[start:stop], s[stop:min(len(s), stop+window)]) {
		return out
	}
	if genericValue(s[start:stop]) && !overlapsAny(out, start, stop) {
		out = append(out, Match{Start: start, End: stop, Kind: "credential in an assignment"})
	}
	return out
}

// findNamedInProse looks for the value of an environment variable named in
// prose, then given: "JWT_SECRET for the API in staging is H1tF…". The
// name must be written in capitals and joined with "_", as a variable is
// ("the secret is out", "The TOKEN rotation" are no name), and the value
// must read as generated (randomValue).
func findNamedInProse(s string, i, end int, out []Match) []Match {
	for _, c := range []byte(s[i:end]) {
		if 'a' <= c && c <= 'z' {
			return out
		}
	}
	if i == 0 || s[i-1] != '_' {
		return out // a variable's name joins words with "_": "JWT_SECRET", not "The TOKEN rotation"
	}
	rest := s[end:min(len(s), end+window)]
	sep := proseSeparator().FindStringIndex(rest)
	if sep == nil {
		return out
	}
	m := proseValue().FindStringSubmatchIndex(rest[sep[1]:])
	if m == nil {
		return out
	}
	start := end + sep[1] + m[2]
	v := strings.TrimRight(s[start:end+sep[1]+m[3]], ".,:;")
	if randomValue(v) && !overlapsAny(out, start, start+len(v)) {
		out = append(out, Match{Start: start, End: start + len(v), Kind: "credential named in prose"})
	}
	return out
}

// randomValue reports whether a value given in prose reads as generated
// rather than written: 20 characters or more of the base64 or hex
// alphabets, with no word structure ("RS256/ES256-compatible",
// "Contents:Write", "Base64URL-encoded(32B)" describe a secret, they do
// not give it), of three character classes, or 32 hex digits or more
// (`openssl rand -hex 32`).
func randomValue(v string) bool {
	if len(v) < 20 || !notPlaceholder(v) || strings.ContainsFunc(v, func(r rune) bool {
		return !('a' <= r && r <= 'z' || 'A' <= r && r <= 'Z' || '0' <= r && r <= '9' || r == '+' || r == '/' || r == '=')
	}) {
		return false
	}
	if hexValue().MatchString(v) {
		return hasDigit(v) && hasLetter(v) && varied(v)
	}
	// "=" only as base64's padding, at the end
	return classes(v) >= 3 && hasDigit(v) && varied(v) && !strings.Contains(strings.TrimRight(v, "="), "=")
}

var hexValue = lazy(`^[0-9a-fA-F]{32,}$`)

// assignsNext is a quick test for `["']?[ \t]*[:=]` at i.
func assignsNext(s string, i int) bool {
	if i < len(s) && (s[i] == '"' || s[i] == '\'') {
		i++
	}
	for i < len(s) && (s[i] == ' ' || s[i] == '\t') {
		i++
	}
	return i < len(s) && (s[i] == ':' || s[i] == '=')
}

func isIdentChar(c byte) bool {
	return ('a' <= c && c <= 'z') || ('0' <= c && c <= '9') || c == '_' || c == '-'
}

// lowerByte is c lowered if it is an ASCII letter.
func lowerByte(c byte) byte {
	if 'A' <= c && c <= 'Z' {
		return c + 'a' - 'A'
	}
	return c
}

// hasLowerPrefix reports whether s[i:], ASCII letters lowered, starts with
// p (lower-case).
func hasLowerPrefix(s string, i int, p string) bool {
	if len(s)-i < len(p) {
		return false
	}
	for k := 0; k < len(p); k++ {
		if lowerByte(s[i+k]) != p[k] {
			return false
		}
	}
	return true
}

func overlapsAny(ms []Match, start, end int) bool {
	for _, m := range ms {
		if start < m.End && m.Start < end {
			return true
		}
	}
	return false
}

var placeholderWords = []string{"xxx", "***", "...", "changeme", "change-me", "change_me", "example",
	"placeholder", "redacted", "dummy", "sample", "your-", "your_", "yourpass", "<", ">", "${", "{{", "}}"}

// notPlaceholder rejects documentation values: <your-token>, ${VAR}, $VAR,
// xxx…, ***, "changeme", "example", "your-…", and a name in braces or
// brackets ({pageId}, [PASTE_TOKEN_FROM_STEP_1]): a template's field.
func notPlaceholder(v string) bool {
	if v == "" || v[0] == '$' || v[0] == '%' || bracketedName().MatchString(v) || orderForValue().MatchString(v) {
		return false
	}
	l := text.LowerASCII(v)
	for _, w := range placeholderWords {
		if strings.Contains(l, w) {
			return false
		}
	}
	return true
}

// orderForValue is an order in place of the value, in words
// ("generate-with-openssl-rand-base64-32"); a random tail after it is a
// value ("generate-with-rTxE3qq6iTqP5": a red team's).
var orderForValue = lazy(`^(?:generate|replace)[-_]with(?:[-_][a-z0-9]+)+$`)

// bracketedName is a name in braces or brackets, as templates and
// instructions mark a field to fill in: letters in braces (`{pageId}`),
// words in capitals joined in brackets (`[PASTE_TOKEN_HERE]`). A random
// value in braces keeps its digits (`{Xk9mQ2vpLz}`: a red team's).
var bracketedName = lazy(`^(?:\{[A-Za-z_][A-Za-z_.-]*\}|\[[A-Z]{2,}(?:[_-][A-Z0-9]+)+\])$`)

// classes counts the character classes in v: lower, upper, digit, other.
func classes(v string) int {
	var lo, up, di, ot bool
	for _, r := range v {
		switch {
		case 'a' <= r && r <= 'z':
			lo = true
		case 'A' <= r && r <= 'Z':
			up = true
		case '0' <= r && r <= '9':
			di = true
		default:
			ot = true
		}
	}
	n := 0
	for _, b := range [...]bool{lo, up, di, ot} {
		if b {
			n++
		}
	}
	return n
}

func hasDigit(v string) bool { return strings.ContainsAny(v, "0123456789") }

func hasLetter(v string) bool {
	for _, r := range v {
		if ('a' <= r && r <= 'z') || ('A' <= r && r <= 'Z') {
			return true
		}
	}
	return false
}

// dottedIdent is a code reference such as process.env.TOKEN or config.apiKey.
var dottedIdent = lazy(`^[A-Za-z_$][A-Za-z0-9_$]*(?:\.[A-Za-z_$][A-Za-z0-9_$]*|\[[^\]]*\]|\(\))+$`)

// methodCall is a value that calls a method in code, whatever its
// arguments: `formData.get('password')`, `passwordEncoder.encode(dto…`,
// `JWT.encode({ user_id: …` (issue 27's files v9). The method's name
// starts in lower case and its first argument is no digit, which a
// password such as "Acme.Prod(2024)!" or "Acme.prod(2024)!" keeps.
var methodCall = lazy(`^[A-Za-z_$][A-Za-z0-9_$]*(?:\.[A-Za-z_$][A-Za-z0-9_$]*)*\.[a-z_$][A-Za-z0-9_$]*\((?:[^0-9)]|$)`)

// countsDigits reports whether v holds all ten digits in order
// ("sk-1234567890abcdef"): an illustration, not a value anyone was given.
// Only values read from a name take it: a vendor's format is matched with
// its own rules.
func countsDigits(v string) bool {
	return strings.Contains(v, "1234567890") || strings.Contains(v, "0123456789")
}

// codeValue reports whether v is code that yields a value rather than the
// value: a reference (dottedIdent, an environment variable read in
// TypeScript with its non-null mark: `process.env.JWT_SECRET!`) or a call
// (methodCall, qualifiedCall, lowerCall). Real teams' files show the code
// that handles a token (`Secret::from_env("JWT_SECRET")?`,
// `getCookie('csrf_token')`: issue 27's files v15 and the files sets
// before it).
func codeValue(v string) bool {
	return dottedIdent().MatchString(v) || envRead().MatchString(v) || methodCall().MatchString(v) ||
		qualifiedCall().MatchString(v) || lowerCall().MatchString(v)
}

// codeExpression reports whether an assigned value, with the text after
// it (rest), is an expression of code cut at its first closing bracket:
// the receiver of a chained call (`randomBytes(32).toString('hex')`,
// `(New-Guid).ToString()`), a method of a name in lower case called with a
// number and closed where the code ends (`authHeader.substring(7)`), a
// call with a name in camel case as its argument
// (`generateAuthToken(testUser)`) or a small number
// (`createSecureToken(32)`), or a wrapper around a method call
// (`Some(password.into())`). Real teams' files show such lines (issue 27's
// tuning pool); a password keeps what follows its bracket
// ("Acme.prod(2024)!") or digits in its argument ("unlock(LU2NEzjBe3N45").
func codeExpression(v, rest string) bool {
	if !strings.HasPrefix(rest, ")") {
		return false
	}
	if strings.Contains(v, "(") && chainedCall().MatchString(rest) {
		// the value is itself a call cut at its bracket: a literal inside
		// a call whose result is chained (`client(s3, key=wJalrXUt…).list()`:
		// a red team's) is still read
		return true
	}
	closed := len(rest) == 1 || strings.ContainsRune(" \t\r\n;`'\",", rune(rest[1]))
	if m := lowerMethodNumber().FindStringSubmatch(v); closed && m != nil && standardMethods[m[1]] {
		// a standard library's method: "myapp.jwt(2024)" is a secret (a
		// red team's)
		return true
	}
	return closed && (camelArgCall().MatchString(v) || camelNumberCall().MatchString(v)) || wrappedCall().MatchString(v)
}

// standardMethods are the string and array methods called with a number.
var standardMethods = map[string]bool{
	"substring": true, "substr": true, "slice": true, "split": true, "charAt": true, "toString": true,
	"toFixed": true, "padStart": true, "padEnd": true, "repeat": true, "at": true, "splice": true,
}

// chainedCall: a closing bracket, then a method called on what it closed.
var chainedCall = lazy(`^\)\.[A-Za-z_$][A-Za-z0-9_$]*\(`)

// lowerMethodNumber: a name in lower case (camel case allowed, fields
// after it) calls a method with a number: `authHeader.substring(7`; the
// method's name is the submatch.
var lowerMethodNumber = lazy(`^[a-z_$][A-Za-z0-9_$.]*\.([a-z_$][A-Za-z0-9_$]*)\([0-9]+$`)

// camelArgCall: a function in lower case called with a name in camel case
// and no digit: `generateAuthToken(testUser`.
var camelArgCall = lazy(`^[a-z_$][A-Za-z_$]*\([a-z_$][a-z_$]*[A-Z][A-Za-z_$]*$`)

// camelNumberCall: a function named in camel case, no field before it,
// called with a number of three digits at most: `createSecureToken(32`
// (issue 27's files v17). A name with a field or a year
// ("myapp.jwt(2024)": a red team's) is not one.
var camelNumberCall = lazy(`^[a-z_$][a-z0-9_$]*[A-Z][A-Za-z0-9_$]*\([0-9]{1,3}$`)

// wrappedCall: a name called with a method call of a name in lower case:
// `Some(password.into(`.
var wrappedCall = lazy(`^[A-Za-z_$][A-Za-z_$]*\([a-z_$][A-Za-z_$]*\.[a-z_$][A-Za-z_$]*\($`)

// envRead is an environment variable read in JavaScript, TypeScript's
// non-null mark after it.
var envRead = lazy(`^(?:process\.env|import\.meta\.env)\.[A-Za-z_$][A-Za-z0-9_$]*!?$`)

// qualifiedCall is a call of a name of letters qualified by a type or a
// module (`SessionToken::new(`, `Secret::from_env(`, `os.Getenv(`), its
// arguments opened as code opens them (codeArgument): "Acme.Prod(2024)!"
// and "Tk9.Wq2(tpb22)" are passwords.
var qualifiedCall = lazy(`^[&*]?[A-Za-z_$][A-Za-z_$]*(?:(?:::|\.)[A-Za-z_$][A-Za-z_$]*)+\(` + codeArgument)

// lowerCall is a call of one name of letters that starts in lower case,
// its arguments opened as code opens them (`getCookie(`,
// `extractAPIKey(request`, `encode(&Header…`, `generateTrackingToken({`);
// "secret(2024)!" keeps its digit, "tR7vQ2nLp(x9" its digits before the
// bracket, and a name in capitals ("Winter(Sun)!") may be a password.
var lowerCall = lazy(`^[a-z_$][A-Za-z_$]*\(` + codeArgument)

// codeArgument is how a call's arguments open in code: with none, a
// string, a reference, a literal of braces or brackets, or a name in
// lower case with no digit (`request`, `password.into(`). A random value
// after the bracket ("Vault.Read(dZEsTyFpHbai8", "unlock(LU2NEzjBe3N45":
// a red team's) is a password that looks like a call.
const codeArgument = `(?:$|[)"'\x60&*{\[]|[a-z_$][a-z_$.]*(?:$|[(),.\[]))`

// envName is an environment variable name such as NPM_TOKEN.
var envName = lazy(`^[A-Z][A-Z0-9_]*$`)

// genericValue decides whether the value of `password: value` looks like a
// real secret: at least 8 characters, not a placeholder or a reference, and
// mixing letters with digits or both letter cases.
func genericValue(v string) bool {
	if len(v) < 8 || !notPlaceholder(v) || codeValue(v) || envName().MatchString(v) || countsDigits(v) {
		return false
	}
	if strings.HasPrefix(v, "http://") || strings.HasPrefix(v, "https://") || strings.HasPrefix(v, "/") || strings.HasPrefix(v, "~") {
		return false
	}
	if !hasLetter(v) || describesValue(v) {
		return false
	}
	var lo, up bool
	for _, r := range v {
		lo = lo || ('a' <= r && r <= 'z')
		up = up || ('A' <= r && r <= 'Z')
	}
	return hasDigit(v) || (lo && up && classes(v) >= 3)
}

// codeCall is a function called in code: "renderWithMantine(ui", a name
// in camel case with its first argument a name, or none.
var codeCall = lazy(`^[a-z]{3,}(?:[A-Z][a-z]+)+\((?:[A-Za-z_$][A-Za-z0-9_$]*)?$`)

// asideWord is a word in brackets: "(Copilot)".
var asideWord = lazy(`^\(\p{Lu}\p{Ll}+\)?$`)

// describesValue reports whether v says what a value is rather than
// giving it: three or more lower-case words joined by hyphens or
// underscores, whose only digits name an encoding or a hash, and which
// name a kind of secret and how it is made ("base64-encoded-refresh-token",
// an API document's example body). A generated token is not written in
// words; words with a number of their own ("prod-db-2024"), or without
// both names ("sk_live_base64_zxcvbnmasdf", a red team's), stay a secret.
func describesValue(v string) bool {
	parts := strings.FieldsFunc(v, func(r rune) bool { return r == '-' || r == '_' })
	if len(parts) < 3 {
		return false
	}
	var kind, made bool
	for _, p := range parts {
		switch {
		case secretKinds[p]:
			kind = true
		case madeWords[p] || formatName().MatchString(p):
			made = true
		case !describingWords[p]:
			return false // a word of no description: a random tail ("…-qmzvtkxwplrb", a red team's)
		}
	}
	return kind && made
}

// secretKinds name what a value is; madeWords how it is made;
// describingWords the rest of a description, a closed list.
var (
	secretKinds     = text.WordSet("token key secret password digest hash signature")
	madeWords       = text.WordSet("encoded hashed signed encrypted generated hex")
	describingWords = text.WordSet("refresh access session api client user request body jwt string value of the for id auth bearer private public signing webhook payload your my")
)

var formatName = lazy(`^(?:base|sha|md|utf|crc|aes|rsa|hmac|ed)\d+$`)

// urlPassword accepts the password part of scheme://user:pass@host unless it
// is a placeholder ("pass", "password", "<pw>", "${PW}", "****").
func urlPassword(v string) bool {
	if !notPlaceholder(v) || len(v) < 3 {
		return false
	}
	switch strings.ToLower(v) {
	case "pass", "password", "passwd", "pwd", "secret", "pw", "token", "user", "username",
		// the word "password" in the languages of proseKeys, as examples
		// write it (postgres://utilisateur:motdepasse@localhost)
		"motdepasse", "mot_de_passe", "mot-de-passe", "contrasena", "contraseña", "passwort", "kennwort",
		"senha", "wachtwoord", "haslo", "hasło", "parola", "sifre", "şifre", "losenord", "lösenord",
		"пароль", "parol", "パスワード", "密码", "비밀번호":
		return false
	}
	return !envName().MatchString(v)
}

// findTelegramToken looks at one ":AA" at i for a Telegram bot token: 8 to
// 10 digits starting a word, then ":AA" and 33 more of the token alphabet.
func findTelegramToken(s string, i int, out []Match) []Match {
	j := i
	for j > 0 && '0' <= s[j-1] && s[j-1] <= '9' {
		j--
	}
	if n := i - j; n < 8 || n > 10 || j > 0 && isWordByte(s[j-1]) || s[i+1] != 'A' || s[i+2] != 'A' {
		return out
	}
	end := i + 3
	for end < len(s) && (isWordByte(s[end]) || s[end] == '-') {
		end++
	}
	if n := end - (i + 1); n < 34 || n > 37 || overlapsAny(out, j, end) {
		return out
	}
	return append(out, Match{Start: j, End: end, Kind: "Telegram bot token"})
}

// proseSeparator is what sits between a password's name and its value in
// prose: a verb "is" in the languages of proseKeys, or a colon or equals
// sign, after at most a few words ("the password for the admin panel is"),
// on the same line: a line is scanned alone when the rest did not change
// (rules.Checker), and must find what the whole text finds.
var proseSeparator = lazy(`^[^\n.;!?]{0,48}?(?:[ \t](?:is|are|was|est|ist|lautet|es|é|è|är|er|je|jest|это|—|-)[ \t]+|[ \t]*[:：=][ \t]*|[ \t]*(?:是|为|は|：)[ \t]*)`)

// proseValue is the value after the separator: up to a blank, or a closing
// quote or bracket; a sentence's last period or comma is not part of it.
var proseValue = lazy(`^["'“«\x60]?([^\s"'”»\x60，。、」）)]+)`)

// findProsePassword looks at one proseKeys word at i for a password given
// in prose, or a login given as user / password, whose value looks like a
// real password (strongPassword) or, after a PIN, is 4 to 8 digits.
func findProsePassword(s string, i int, key string, out []Match) []Match {
	ascii := key[0] < 0x80
	if ascii && i > 0 && (isLetter(s[i-1]) || s[i-1] >= 0x80) {
		return out // "bypass", "compass", "spin"
	}
	if i > 0 && (s[i-1] == ':' || s[i-1] == '/' || s[i-1] == '@' || s[i-1] == '=' || s[i-1] == '.') {
		// a part of a URL or a path (postgres://USER:PASSWORD@HOST), a
		// value (DB_PASSWORD=password), a field (`{{ .Data.password }}`)
		return out
	}
	if i > 0 && (s[i-1] == '-' || s[i-1] == '_') && inPath(s, i) {
		return out // a route's last part: "`/identity/users/{id}/reset-password` | …" (issue 27's files v6)
	}
	end := i + len(key)
	if i > 0 && end < len(s) && (s[i-1] == '"' || s[i-1] == '\'') && s[end] == s[i-1] &&
		!strings.HasPrefix(strings.TrimLeft(s[end+1:], " \t"), ":") {
		return out // a quoted word, no name: `"status": "pass"`, not `{"pass": "…"}`
	}
	if ascii && key[len(key)-1] != ' ' && end < len(s) && isLetter(s[end]) {
		return out // "passwords", "login_url", "pinned": another word
	}
	rest := s[end:min(len(s), end+window)]
	var start, stop int
	switch key {
	case "login", "logs in with", "log in with", "credentials", "creds", "identifiants", "логин", "Логин":
		// a login as "user / password"
		m := loginPair().FindStringSubmatchIndex(rest)
		if m == nil {
			return out
		}
		start, stop = end+m[2], end+m[3]
	case "--password", "-p ", "-u ":
		if key == "-p " && !passwordFlagCommand(s[max(0, i-80):i]) {
			return out // "mkdir -p test-{a,b}/…", "git add -p": not a password's flag
		}
		m := proseValue().FindStringSubmatchIndex(strings.TrimLeft(strings.TrimPrefix(rest, "="), " "))
		if m == nil {
			return out
		}
		skip := len(rest) - len(strings.TrimLeft(strings.TrimPrefix(rest, "="), " "))
		start, stop = end+skip+m[2], end+skip+m[3]
		if key == "-u " {
			// curl -u user:password
			c := strings.IndexByte(s[start:stop], ':')
			if c <= 0 {
				return out
			}
			start += c + 1
		}
	default:
		// "the prod password is …", "mot de passe : …"; or, for a few
		// names, the value right after the name ("user acme, pass
		// 7uHq!2mWz9"), which must then be a strong password
		var seps []int
		if sep := proseSeparator().FindStringIndex(rest); sep != nil {
			seps = append(seps, sep[1])
		}
		bare := -1
		if blank := len(rest) - len(strings.TrimLeft(rest, " ")); bareValueKeys[key] && blank > 0 {
			seps = append(seps, blank)
			bare = blank
		}
		for _, at := range seps {
			m := proseValue().FindStringSubmatchIndex(rest[at:])
			if m == nil {
				continue
			}
			if at == bare && key[0] >= 0x80 && classes(rest[at+m[2]:at+m[3]]) < 4 {
				// "密码 PBKDF2-SHA256" names the hash: a bare value after a
				// CJK name must mix every class to read as a password
				continue
			}
			if mt, ok := proseMatch(s, key, end, end+at+m[2], end+at+m[3], out); ok {
				return append(out, mt)
			}
		}
		return out
	}
	if mt, ok := proseMatch(s, key, end, start, stop, out); ok {
		out = append(out, mt)
	}
	return out
}

// passwordFlagCommand reports whether before ends in a command whose -p
// gives a password (mysql -p…, sshpass -p …), not a path or a mode.
func passwordFlagCommand(before string) bool {
	l := text.LowerASCII(before)
	for _, c := range []string{"mysql", "mysqldump", "mysqladmin", "mariadb", "sshpass", "mongo", "mongosh", "mongodump", "-u "} {
		if strings.Contains(l, c) {
			return true
		}
	}
	return false
}

// proseMatch is the password s[start:stop] given after the name key,
// which ends at keyEnd, when it looks like one.
func proseMatch(s, key string, keyEnd, start, stop int, out []Match) (Match, bool) {
	v := strings.TrimRight(s[start:stop], ".,:;") // a sentence's end, not a password's "!"
	stop = start + len(v)
	// A PIN is digits: after "pin" anything else is the verb's object
	// ("Pin the base image by digest: node@sha256:…", issue 27).
	if strings.EqualFold(key, "pass") && (codeCall().MatchString(v) || asideWord().MatchString(v) ||
		start > 0 && s[start-1] == '`' && (pointerType().MatchString(v) || codePath().MatchString(v) && strings.Trim(s[keyEnd:start], " `") == "" ||
			!hasDigit(v) && codeShape().MatchString(v) && !namesSecret(codeSpanFrom(s, start)))) {
		// the verb "pass" before a call, an aside or a pointer to a
		// package's type in code: "pass the option —
		// `renderWithMantine(ui, …)`", "let a real pair pass (Copilot)",
		// "Pass `*common.Common` to components" (issue 27's files v6),
		// "pass `Options::ALLOW_PENDING` to …", "Pass `&StrictPath`", or
		// code with no digit in a code span: "pass a `DockerImage(…)`",
		// "pass `selector=Callable[[Ctx]]`", "pass: `Pricing::Context.from_order`".
		// Only after that verb: a password may hold brackets
		// ("Secret(2024)!", "(Letmein)": red teams')
		return Match{}, false
	}
	if strings.EqualFold(key, "pass") && wordPath().MatchString(v) {
		// the verb "pass" before files or words joined by slashes: "pass
		// files explicitly (`assets/debt_2024-01-15.json`)", "pass
		// IDs/filters, not processed data"
		return Match{}, false
	}
	pin := pinKeys[key]
	ok := pin && pinValue().MatchString(v) && !trivialPIN(v) && !digitsOwned(s[keyEnd:start]) ||
		!pin && strongPassword(v)
	if !ok || overlapsAny(out, start, stop) {
		return Match{}, false
	}
	return Match{Start: start, End: stop, Kind: "password"}, true
}

// wordPath is a path of two parts or more, each a word of letters or a
// file's name with its extension.
var wordPath = lazy(`^(?:` + pathWord + `|` + pathFile + `)(?:/(?:` + pathWord + `|` + pathFile + `))+/?$|^[a-z0-9_.-]+(?:/[a-z0-9_.-]+)*/` + pathFile + `$`)

// pathWord is a word as prose writes it (`filters`, `IDs`, `Docs`), and
// pathFile a file's name in lower case with its extension: a random
// value's parts mix their cases ("npQDE/JZ4zS.json": a red team's).
const (
	pathWord = `(?:[A-Z]?[a-z]+|[A-Z]+s?)`
	pathFile = `[a-z0-9_-]+(?:\.[a-z0-9_-]+)*\.[a-z]{2,4}`
)

// codeShape is a name of code that calls, assigns, indexes or follows a
// path: `DockerImage(`, `key_selector=Callable[[…`, `Pricing::Context.from_order`.
var codeShape = lazy(`^[*&]?[A-Za-z_][A-Za-z0-9_]*(?:\(|=|\[|::[A-Za-z_]|\.[a-z_])`)

// codeSpanFrom is the rest of the code span that s[start] is in.
func codeSpanFrom(s string, start int) string {
	if k := strings.IndexByte(s[start:], '`'); k >= 0 {
		return s[start : start+k]
	}
	return s[start:]
}

// namesSecret reports whether code assigns a secret a plain value:
// `PGPASSWORD=CorrectHorseBatteryStaple` (a red team's), not
// `key_selector=Callable[[Ctx]]`.
func namesSecret(v string) bool {
	for rest := v; ; {
		eq := strings.IndexByte(rest, '=')
		if eq < 0 {
			return false
		}
		name := rest[strings.LastIndexAny(rest[:eq], ";& ")+1 : eq]
		val := rest[eq+1:]
		if k := strings.IndexAny(val, ";& "); k >= 0 {
			val = val[:k]
		}
		if val != "" && !strings.ContainsAny(name, "([") && !strings.ContainsAny(val, "([{.") {
			l := text.LowerASCII(name)
			for _, r := range assignmentRoots {
				if strings.Contains(l, r) {
					return true // `…;Password=CorrectHorseBattery;`
				}
			}
		}
		rest = rest[eq+1:]
	}
}

// pointerType is Go's pointer or address of a package's type, as code
// names it: `*common.Common`, `&cfg.Options`. A password does not start
// with a lower-case package name followed by a capitalised type (a red
// team's: "*Summer2024.Winter" stays one).
var pointerType = lazy(`^[*&][a-z][a-z0-9_]*\.[A-Z][A-Za-z0-9_]*$`)

// codePath is a name as code writes it and a password is not: a path of
// names of letters joined by "::" (`InstantiateModuleOptions::ALLOW_PENDING`;
// not `Sup3r::S3cret`, a red team's),
// or a reference to a type named in two words or more (`&StrictPath`).
var codePath = lazy(`^[*&]?[A-Za-z_]+(?:::[A-Za-z_]+)+$|^[*&][A-Z][a-z]+(?:[A-Z][a-z]+)+$`)

// codePathAfter matches what follows a name's "::" in a path of code: a
// list of names in braces or a name of letters that another "::", a brace,
// a call, a ";" or the span's end follows (`token::{PyToken}`,
// `token::Kind::Ident`), never a value ("api_key::9f8e…", a red team's).
var codePathAfter = lazy(`^::(?:\{[A-Za-z_]+(?:\s*,\s*[A-Za-z_]+)*\}|[A-Za-z_]+(?:::|[{(;,` + "`" + `\s]|$))`)

// inPath reports whether the word at s[i], joined to the word before it
// ("reset-password"), stands in a token that holds a slash before it: a
// route ("/users/{id}/reset-password") names an endpoint, not a password.
func inPath(s string, i int) bool {
	for j := i - 1; j >= 0; j-- {
		switch s[j] {
		case ' ', '\t', '`', '|', '(', '"', '\'':
			return false
		case '/':
			return true
		}
	}
	return false
}

// loginPair is "user / password" after a login's keyword, within a few
// words ("is admin / …", "with billing@acme.io / …").
var loginPair = lazy(`^[^\n.;]{0,40}?\S+ / (\S+)`)

var pinValue = lazy(`^\d{4,8}$`)

// pinKeys name a PIN: its value is digits, and after the English "pin"
// anything else is the verb's object ("Pin the base image by digest").
var pinKeys = map[string]bool{"pin": true, "暗証番号": true, "пин-код": true, "Пин-код": true, "ПИН-код": true,
	"пин код": true, "Пин код": true, "ПИН": true}

// digitsOwned reports whether the words between a PIN's name and its
// digits end in another noun the digits belong to: "ПИН-код проверяет
// сервис на порту: 8443" gives a port, "PIN validation returns error code:
// 4031" an error code, not the PIN.
func digitsOwned(between string) bool {
	words := strings.FieldsFunc(strings.ToLower(between), func(r rune) bool { return !unicode.IsLetter(r) })
	return len(words) > 0 && numberOwners()[words[len(words)-1]]
}

// numberOwners are the nouns that own the number after them, in the
// languages of proseKeys; built on first use, as the expressions are, so
// that a process that never looks for secrets does not pay for it.
var numberOwners = sync.OnceValue(func() map[string]bool {
	m := map[string]bool{}
	for _, w := range strings.Fields(`code codes port error errors number id version line status length attempts tries retries timeout
		код кода коду порт порта порту ошибка ошибки номер версия строка статус попыток попытки
		erreur numéro ligne tentatives fehler fehlercode nummer zeile versuche número línea intentos
		错误 端口 代码 エラー ポート コード`) {
		m[w] = true
	}
	return m
})

// trivialPIN reports whether a PIN is a default or an example: one digit
// repeated (0000) or counting up (1234).
func trivialPIN(v string) bool {
	same, up := true, true
	for i := 1; i < len(v); i++ {
		same = same && v[i] == v[0]
		up = up && v[i] == v[i-1]+1
	}
	return same || up
}

// strongPassword decides whether a value given in prose is a real
// password: at least 8 characters, three character classes (lower, upper,
// digit, other), no placeholder, reference, path or URL. Prose names
// passwords more often than it gives them ("the password is stored in
// Vault"), so the bar is higher than genericValue's.
func strongPassword(v string) bool {
	if utf8.RuneCountInString(v) < 8 || classes(v) < 3 || !hasLetter(v) || !notPlaceholder(v) || codeValue(v) || envName().MatchString(v) {
		return false
	}
	if strings.Trim(v, "abcdefghijklmnopqrstuvwxyzABCDEFGHIJKLMNOPQRSTUVWXYZ-_") == "" || strings.Contains(v, "**") || strings.HasSuffix(v, ":") {
		// words joined ("Pass 3 — Cross-Requirement …", "Pass 1 - Code-delta")
		// or Markdown's emphasis ("**Password Encoding:**"): prose, not a
		// password
		return false
	}
	if strings.Contains(v, "://") || strings.HasPrefix(v, "/") || strings.HasPrefix(v, "~") || strings.HasPrefix(v, "-") {
		return false
	}
	if namespacedID(v) || assignment().MatchString(v) {
		return false // a store key, or `backup_dir=False` after the verb "pass"
	}
	l := text.LowerASCII(v)
	for _, name := range vaults {
		if strings.Contains(l, name) {
			return false
		}
	}
	return true
}
