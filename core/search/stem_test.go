package search

import "testing"

func TestStem(t *testing.T) {
	tests := []struct{ in, want string }{
		// Families that must share a stem.
		{"cache", "cach"}, {"caches", "cach"}, {"cached", "cach"}, {"caching", "cach"},
		{"build", "build"}, {"builds", "build"}, {"building", "build"},
		{"run", "run"}, {"runs", "run"}, {"running", "run"},
		{"use", "us"}, {"uses", "us"}, {"used", "us"}, {"using", "us"},
		{"commit", "commit"}, {"commits", "commit"}, {"committed", "commit"}, {"committing", "commit"},
		{"create", "creat"}, {"created", "creat"}, {"creating", "creat"}, {"creates", "creat"},
		{"enable", "enabl"}, {"enabled", "enabl"}, {"enables", "enabl"},
		{"query", "queri"}, {"queries", "queri"}, {"queried", "queri"}, {"querying", "queri"},
		{"try", "tri"}, {"tries", "tri"}, {"tried", "tri"}, {"trying", "tri"},
		{"fix", "fix"}, {"fixes", "fix"}, {"fixed", "fix"},
		{"match", "match"}, {"matches", "match"}, {"matched", "match"},
		{"class", "class"}, {"classes", "class"},
		{"install", "instal"}, {"installed", "instal"}, {"installs", "instal"},
		{"agree", "agre"}, {"agreed", "agre"},
		{"note", "note"}, {"notes", "note"}, {"noted", "note"}, // never "not"
		{"hope", "hope"}, {"hoped", "hope"}, {"hop", "hop"}, {"hopping", "hop"},
		{"deploy", "deploi"}, {"deployment", "deploi"}, {"deployments", "deploi"}, {"deployed", "deploi"},
		{"develop", "develop"}, {"development", "develop"},
		{"automatic", "automatic"}, {"automatically", "automatic"},
		{"quick", "quick"}, {"quickly", "quick"},
		{"configure", "configur"}, {"configured", "configur"},
		// Left alone.
		{"status", "status"}, {"analysis", "analysis"}, {"focus", "focus"},
		{"need", "need"}, {"speed", "speed"}, {"string", "string"}, {"thing", "thing"},
		{"has", "has"}, {"was", "was"}, {"gas", "gas"}, {"bed", "bed"},
		{"comment", "comment"}, {"document", "document"}, {"argument", "argument"},
		{"apply", "appli"}, {"supply", "suppli"}, {"family", "famili"}, {"only", "onli"},
		{"go", "go"}, {"us", "us"}, {"by", "by"},
		// Not plain ASCII words: unchanged.
		{"1.8", "1.8"}, {"v2s", "v2s"}, {"café", "café"}, {"c++", "c++"},
	}
	for _, tt := range tests {
		if got := string(stem([]byte(tt.in))); got != tt.want {
			t.Errorf("stem(%q) = %q, want %q", tt.in, got, tt.want)
		}
	}
}

// TestStemNeverGrows guards the in-place contract of stem.
func TestStemNeverGrows(t *testing.T) {
	for _, w := range []string{"caching", "hoped", "created", "enabled", "optimized", "agreed", "tied", "ies", "sses"} {
		if got := stem([]byte(w)); len(got) > len(w) {
			t.Errorf("stem(%q) = %q grew", w, got)
		}
	}
}
