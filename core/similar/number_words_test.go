package similar

import "testing"

// TestValuesInWordsAndPunctuation (issue 27): a quantity written in words
// changed is the same fact with a new value, in every language the number
// words cover; a change of punctuation alone is no reversal; a swapped
// thing is still a sibling. Examples of our own (the blind evaluation set
// is testdata/eval/pairs).
func TestValuesInWordsAndPunctuation(t *testing.T) {
	for _, tc := range []struct {
		old, new string
		action   Action
		kind     string
	}{
		{"Keep build artifacts for ten days.", "Keep build artifacts for twenty days.", Update, KindValue},
		{"Rotate the signing key every third month.", "Rotate the signing key every sixth month.", Update, KindValue},
		{"Les jetons expirent après trente minutes.", "Les jetons expirent après soixante minutes.", Update, KindValue},
		{"Die Sitzung läuft nach zwanzig Minuten ab.", "Die Sitzung läuft nach dreißig Minuten ab.", Update, KindValue},
		{"Guardar los registros durante siete días.", "Guardar los registros durante catorce días.", Update, KindValue},
		{"Храним логи семь дней в бакете архива.", "Храним логи десять дней в бакете архива.", Update, KindValue},
		{"Run eslint on frontend changes.", "Run eslint on backend changes.", Store, KindSibling},
		{"Prefer tabs, not spaces, in Makefiles.", "Prefer tabs not spaces in Makefiles.", Skip, KindDuplicate},
		{"Errors follow RFC-7807 problem details.", "Errors follow RFC 7807 problem details.", Skip, KindDuplicate},
		{"Reject payloads > 1000 items.", "Reject payloads < 1000 items.", Conflict, KindReversal},
	} {
		v := Classify(Analyze(tc.old), Analyze(tc.new), defaultTh)
		if v.Action != tc.action || v.Kind != tc.kind {
			t.Errorf("%q → %q: %v %q (%s), want %v %q", tc.old, tc.new, v.Action, v.Kind, v.Reason, tc.action, tc.kind)
		}
	}
}
