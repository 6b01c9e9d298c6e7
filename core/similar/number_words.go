package similar

import "strings"

// Quantities written in words are values (issue 27): "Session tokens expire
// after thirty minutes" → "… sixty minutes" is the same fact with a changed
// value, not a second fact beside the first. A substituted term that is a
// quantity word on both sides is read as a changed value.

// numberWords are the cardinals, ordinals and multiplicatives the languages
// memory is written in use as values, lower case. Words with another common
// sense as well ("second", "one") count only where both sides of the swap
// are quantities.
var numberWords = func() map[string]bool {
	m := map[string]bool{}
	for _, list := range []string{
		// English
		"zero one two three four five six seven eight nine ten eleven twelve thirteen fourteen fifteen sixteen seventeen eighteen nineteen twenty thirty forty fifty sixty seventy eighty ninety hundred thousand million dozen once twice thrice times first second third fourth fifth sixth seventh eighth ninth tenth",
		// French
		"un une deux trois quatre cinq six sept huit neuf dix onze douze treize quatorze quinze seize vingt trente quarante cinquante soixante cent mille douzaine fois premier première deuxième seconde troisième quatrième cinquième dixième",
		// German
		"eins ein eine einen zwei drei vier fünf sechs sieben acht neun zehn elf zwölf dreizehn vierzehn fünfzehn sechzehn siebzehn achtzehn neunzehn zwanzig dreißig vierzig fünfzig sechzig hundert tausend dutzend mal erste ersten zweite zweiten dritte dritten vierte vierten einmal zweimal dreimal",
		// Spanish
		"uno dos tres cuatro cinco seis siete ocho nueve diez once doce trece catorce quince dieciséis diecisiete dieciocho diecinueve veinte treinta cuarenta cincuenta sesenta cien ciento mil docena vez veces primero primera primer segundo segunda tercero tercera tercer cuarto cuarta quinto quinta",
		// Russian, with the forms numbers take after prepositions
		"один одна одно два две три четыре пять шесть семь восемь девять десять двадцать тридцать сорок пятьдесят шестьдесят сто тысяча одного одной двух трёх трех четырёх четырех пяти шести семи восьми девяти десяти двадцати тридцати первый первая первое второй вторая второе третий третья дважды трижды раз раза",
	} {
		for _, w := range strings.Fields(list) {
			m[w] = true
		}
	}
	return m
}()

// cjkNumerals are the characters Chinese and Japanese write numbers with.
const cjkNumerals = "〇零一二两三四五六七八九十百千万"

// quantityUnits reports whether every unit of a substituted term is a
// quantity: a number word, or CJK numerals.
func quantityUnits(us []unit) bool {
	if len(us) == 0 {
		return false
	}
	for _, u := range us {
		s := strings.ToLower(u.s)
		if !numberWords[s] && (s == "" || strings.Trim(s, cjkNumerals) != "") {
			return false
		}
	}
	return true
}
