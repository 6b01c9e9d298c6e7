package similar

import (
	"strconv"
	"strings"
	"unicode"

	"github.com/memory-lsp/memory-lsp/core/text"
)

// Quantities written in words are values (issue 27): "Session tokens expire
// after thirty minutes" → "… sixty minutes" is the same fact with a changed
// value, not a second fact beside the first. A substituted term that is a
// quantity word on both sides is read as a changed value.

// numberWords are the cardinals, ordinals and multiplicatives the languages
// memory is written in use as values, lower case. Words with another common
// sense as well ("second", "one") count only where both sides of the swap
// are quantities.
var numberWords = text.WordSet(
	// English
	"zero one two three four five six seven eight nine ten eleven twelve thirteen fourteen fifteen sixteen seventeen eighteen nineteen twenty thirty forty fifty sixty seventy eighty ninety hundred thousand million dozen once twice thrice times first second third fourth fifth sixth seventh eighth ninth tenth half quarter",
	// French
	"un une deux trois quatre cinq six sept huit neuf dix onze douze treize quatorze quinze seize vingt trente quarante cinquante soixante cent mille douzaine fois premier première deuxième seconde troisième quatrième cinquième dixième demi demie",
	// German
	"eins ein eine einen zwei drei vier fünf sechs sieben acht neun zehn elf zwölf dreizehn vierzehn fünfzehn sechzehn siebzehn achtzehn neunzehn zwanzig dreißig vierzig fünfzig sechzig hundert tausend dutzend mal erste ersten zweite zweiten dritte dritten vierte vierten einmal zweimal dreimal",
	// Spanish
	"uno dos tres cuatro cinco seis siete ocho nueve diez once doce trece catorce quince dieciséis diecisiete dieciocho diecinueve veinte treinta cuarenta cincuenta sesenta cien ciento mil docena vez veces primero primera primer segundo segunda tercero tercera tercer cuarto cuarta quinto quinta",
	// Russian, with the forms numbers take after prepositions
	"один одна одно два две три четыре пять шесть семь восемь девять десять одиннадцать двенадцать тринадцать четырнадцать пятнадцать шестнадцать семнадцать восемнадцать девятнадцать двадцать тридцать сорок пятьдесят шестьдесят семьдесят восемьдесят девяносто сто двести триста четыреста пятьсот шестьсот семьсот восемьсот девятьсот тысяча одного одной двух трёх трех четырёх четырех пяти шести семи восьми девяти десяти двадцати тридцати первый первая первое второй вторая второе третий третья дважды трижды раз раза",
)

// cjkNumerals are the characters Chinese and Japanese write numbers with.
const cjkNumerals = "〇零一二两三四五六七八九十百千万"

// measureWords are the units a quantity is counted in (time, size), in
// the six languages: "15 minutes" / "half an hour", "one year" / "two
// years" swap a quantity, measure and all.
var measureWords = text.WordSet(`ms msec millisecond milliseconds sec secs second seconds min mins minute minutes
		hour hours day days week weeks month months year years kb mb gb tb kib mib gib tib
		seconde secondes heure heures jour jours semaine semaines mois an ans année années
		sekunde sekunden minute minuten stunde stunden tag tage tagen woche wochen monat monate monaten jahr jahre jahren
		segundo segundos minuto minutos hora horas día días dia dias semana semanas mes meses año años
		секунда секунды секунд минута минуты минут час часа часов день дня дней неделя недели недель месяц месяца месяцев год года лет`)

// cjkMeasures are the characters Chinese and Japanese count time in.
const cjkMeasures = "秒分时時天日周週月年个個次"

// quantityUnits reports whether a substituted term is a quantity: number
// words, CJK numerals, digits and the measures they count, with at least
// one number among them.
func quantityUnits(us []unit) bool {
	number := false
	for _, u := range us {
		s := strings.ToLower(u.s)
		switch {
		case s == "":
			return false
		case numberWords[s] || u.value || strings.Trim(s, cjkNumerals) == "":
			number = true
		case measureWords[s] || strings.Trim(s, cjkMeasures) == "":
		default:
			return false
		}
	}
	return number
}

// numberValues are the values of the cardinals that name one number only
// (not "one", "second", "un": those are also words), for telling "twenty
// builds" from "20 builds" apart from "thirty" / "sixty".
var numberValues = func() map[string]int {
	m := map[string]int{}
	for _, lang := range []string{
		"zero _ two three four five six seven eight nine ten eleven twelve thirteen fourteen fifteen sixteen seventeen eighteen nineteen twenty",
		"_ _ deux trois quatre cinq six sept huit neuf dix onze douze treize quatorze quinze seize _ _ _ vingt",
		"_ eins zwei drei vier fünf sechs sieben acht neun zehn elf zwölf dreizehn vierzehn fünfzehn sechzehn siebzehn achtzehn neunzehn zwanzig",
		"_ _ dos tres cuatro cinco seis siete ocho nueve diez _ doce trece catorce quince dieciséis diecisiete dieciocho diecinueve veinte",
		"_ _ два три четыре пять шесть семь восемь девять десять",
	} {
		for n, w := range strings.Fields(lang) {
			if w != "_" {
				m[w] = n
			}
		}
	}
	for w, n := range map[string]int{"thirty": 30, "forty": 40, "fifty": 50, "sixty": 60, "seventy": 70, "eighty": 80, "ninety": 90,
		"hundred": 100, "thousand": 1000, "dozen": 12, "trente": 30, "quarante": 40, "cinquante": 50, "soixante": 60, "cent": 100,
		"mille": 1000, "douzaine": 12, "dreißig": 30, "vierzig": 40, "fünfzig": 50, "sechzig": 60, "hundert": 100, "tausend": 1000,
		"dutzend": 12, "treinta": 30, "cuarenta": 40, "cincuenta": 50, "sesenta": 60, "cien": 100, "mil": 1000, "docena": 12,
		"двадцать": 20, "тридцать": 30, "сорок": 40, "пятьдесят": 50, "шестьдесят": 60, "сто": 100, "тысяча": 1000} {
		m[w] = n
	}
	return m
}()

// sameQuantity reports whether two substituted terms state one quantity,
// once in words and once in digits: "twenty builds" / "20 builds", "deux
// findings" / "2 findings".
func sameQuantity(x, y []unit) bool {
	nx, mx, okx := quantityOf(x)
	ny, my, oky := quantityOf(y)
	return okx && oky && nx == ny && mx == my
}

// quantityOf reads a term that is one number, in words or digits, and the
// measures after or before it.
func quantityOf(us []unit) (n int, measures string, ok bool) {
	found := false
	for _, u := range us {
		s := strings.ToLower(u.s)
		if v, isWord := numberValues[s]; isWord {
			if found {
				return 0, "", false
			}
			n, found = v, true
			continue
		}
		if d, err := strconv.Atoi(s); err == nil {
			if found {
				return 0, "", false
			}
			n, found = d, true
			continue
		}
		if !measureWords[s] {
			return 0, "", false
		}
		measures += s + " "
	}
	return n, measures, found
}

// namingNouns are the nouns a number after them names a thing with rather
// than measures it ("Tier 2", "Stage 3", "Schritt 4"), in the six
// languages: parts of a system or a procedure that stand side by side, so
// that "Tier 2 …" and "Tier 1 …" are two facts. Nouns of which one is the
// current or the chosen one (sprint, milestone, option, level, team) are
// not among them: "Sprint 15 is the current sprint" updates "Sprint 14 …".
// Nor are runtime and tool names ("Node 18", "Python 3"): their number is
// a version, a value that changes.
var namingNouns = text.WordSet(
	"tier phase step stage part layer chapter section track lane zone case scenario slot severity priority",
	"étape phase partie palier couche chapitre section cas scénario sévérité priorité",
	"stufe phase schritt teil schicht kapitel abschnitt fall szenario schweregrad priorität",
	"fase etapa paso parte capa capítulo sección caso escenario severidad prioridad",
	"этап фаза шаг часть слой глава раздел сценарий приоритет",
)

// namingArticles may open the sentence before the naming noun ("The Tier 2
// fallback …").
var namingArticles = text.WordSet("the le la les der die das el los las")

// oneCurrent are the words that make a numbered thing the one current,
// chosen or default one ("Phase 3 is the current phase", "Tier 2 is the
// default"): texts that differ in its number update each other.
var oneCurrent = text.WordSet(
	"current currently next chosen selected default active latest now today",
	"actuel actuelle actuellement prochain prochaine choisi choisie défaut",
	"aktuell aktuelle aktuellen nächste nächsten gewählt standard",
	"actual actualmente próximo próxima elegido elegida predeterminado",
	"текущий текущая текущее следующий следующая выбран выбрана умолчанию",
)

// namedSubject reads a sentence that opens with a naming noun and a number
// ("Tier 2 falls back to BLE …", "The Tier-2 fallback …", "Step 2.1: …",
// "Phase #2 …"): the noun in lower case and the number.
func namedSubject(raw string) (noun, number string, ok bool) {
	f := strings.Fields(raw)
	if len(f) > 0 && namingArticles[strings.ToLower(f[0])] {
		f = f[1:]
	}
	if len(f) < 2 {
		return "", "", false
	}
	noun, number, joined := strings.Cut(f[0], "-")
	if !joined {
		number = f[1]
		f = f[1:]
	}
	noun = strings.ToLower(noun)
	number = strings.TrimPrefix(strings.TrimRight(number, ":,;."), "#")
	if len(f) < 2 || !namingNouns[noun] || number == "" || strings.Trim(number, "0123456789.") != "" || number[0] == '.' {
		return "", "", false
	}
	if anyWordIn(raw, oneCurrent) {
		return "", "", false
	}
	return noun, number, true
}

// namesAnotherSubject reports whether two texts whose values differ name
// their subjects with different numbers: "Tier 2 falls back to BLE" and
// "Tier 1 falls back to BLE" are two facts about two tiers, whatever other
// values they state, and replacing one with the other would lose one
// (issue 27).
func namesAnotherSubject(old, new *Text) (string, bool) {
	on, onum, ok1 := namedSubject(old.Raw)
	nn, nnum, ok2 := namedSubject(new.Raw)
	if !ok1 || !ok2 || on != nn || onum == nnum {
		return "", false
	}
	return quoteWords([]string{on, onum}) + " vs " + quoteWords([]string{nn, nnum}), true
}

// otherFileValues reports whether each of two sorted value lists holds one
// value the other lacks, and the two are files of a numbered series.
func otherFileValues(a, b []string) (x, y string, ok bool) {
	oa, ob := valuesOnlyIn(a, b), valuesOnlyIn(b, a)
	if len(oa) != 1 || len(ob) != 1 {
		return "", "", false
	}
	return oa[0], ob[0], numberedSeries(oa[0], ob[0])
}

// numberedSeries reports whether a and b are two files of a numbered
// series in one folder: the same folder, each name opening with its own
// number, the words after it differing ("agent-rules/00-core-principles.md"
// / "agent-rules/07-git-branch-strategy.md", "migrations/0041_users.sql" /
// "migrations/0042_orders.sql"). Another folder, host or bucket is a place
// renamed as often as a second one (a red team's), and stays an update.
func numberedSeries(a, b string) bool {
	split := func(p string) (dir, lead, rest string, ok bool) {
		i := strings.LastIndexByte(p, '/')
		if i < 0 || strings.Contains(p, "://") {
			return "", "", "", false
		}
		dir, name := p[:i], p[i+1:]
		n := 0
		for n < len(name) && name[n] >= '0' && name[n] <= '9' {
			n++
		}
		if n == 0 || n == len(name) {
			return "", "", "", false
		}
		return dir, name[:n], strings.ToLower(name[n:]), true
	}
	da, la, ra, ok1 := split(a)
	db, lb, rb, ok2 := split(b)
	return ok1 && ok2 && da == db && la != lb && ra != rb
}

// placesAFile reports whether a text says where one thing is now: a word
// of the present choice ("the latest migration", "current") or a word
// that places the path ("… is migrations/0042_…", "lives in …"). Such a
// text updates the other when the file changes (a red team's).
func placesAFile(raw, path string) bool {
	if anyWordIn(raw, oneCurrent) || anyWordIn(raw, latestWords) {
		return true
	}
	for _, w := range latestCJK {
		if strings.Contains(raw, w) {
			return true
		}
	}
	low := strings.ToLower(raw)
	i := strings.Index(low, strings.ToLower(path))
	if i < 0 {
		return false
	}
	before := strings.Fields(strings.TrimRight(low[:i], " `'\"«»“”:/"))
	return len(before) > 0 && placingWords[strings.Trim(before[len(before)-1], "`'\"«»“”:,")]
}

// anyWordIn reports whether raw holds, in lower case, a word of set.
func anyWordIn(raw string, set map[string]bool) bool {
	for _, w := range strings.FieldsFunc(strings.ToLower(raw), func(r rune) bool { return !unicode.IsLetter(r) }) {
		if set[w] {
			return true
		}
	}
	return false
}

// latestWords name the newest of a series; oneCurrent (which holds
// "latest" too) names the chosen.
var latestWords = text.WordSet("newest last recent neueste letzte dernier dernière último última последний последняя")

// latestCJK are latestWords in the languages written without spaces.
var latestCJK = []string{"最新", "最後", "最近"}

// placingWords place the path that follows them, or name it as the one
// thing of its kind ("loaded by …", "the migration file …").
var placingWords = text.WordSet(`is are was in at under into to from by lives live located stored moved renamed
	file ist liegt unter nach von durch datei est dans sous vers par fichier es está en bajo por archivo
	é fica em sob pelo arquivo это в во файл 在 は に`)
