package similar

import (
	"slices"
	"testing"
)

func TestSameSubject(t *testing.T) {
	tests := []struct {
		a, b string
		want bool
	}{
		// restatements and reversals by meaning the verdict stores as new
		{"Keep secrets out of the Docker image.", "Docker images must not contain secrets.", true},
		{"Mock the NIM client in unit tests.", "Unit tests call the real NIM endpoint.", true},
		{"Commit the lockfile.", "Keep the lockfile out of git.", false}, // one shared word: too little to tell
		{"Ne jamais stocker de secrets dans le dépôt.", "Aucun secret ne doit être stocké dans le dépôt.", true},
		{"不要把 API 密钥写进代码。", "API 密钥不得写入代码。", true},
		// values are not the subject: two texts that share only numbers
		{"Retry 3 times with 500 ms backoff.", "Cache 3 pages for 500 ms.", false},
		// a word in common is no subject
		{"Run unit tests with -race.", "Store uploads in the eu-west-1 bucket.", false},
		{"Use Celery for background jobs.", "Deploy the API with Helm.", false},
		// too short to say anything
		{"Use pnpm.", "Avoid pnpm.", false},
	}
	for _, tt := range tests {
		_, got := SameSubject(Analyze(tt.a), Analyze(tt.b))
		if got != tt.want {
			t.Errorf("SameSubject(%q, %q) = %v, want %v", tt.a, tt.b, got, tt.want)
		}
		if _, back := SameSubject(Analyze(tt.b), Analyze(tt.a)); back != got {
			t.Errorf("SameSubject is not symmetric on %q, %q", tt.a, tt.b)
		}
	}
}

// subjectCases are texts in every script memory is written in, with the
// marks the key scan and the shape read differently: hyphens, apostrophes,
// elisions, slashes, dots inside words, accents decomposed or not,
// synonyms, CJK.
var subjectCases = []string{
	"Keep secrets out of the Docker image.", "Docker images must not contain secrets.",
	"Mock the NIM client in unit tests.", "Unit tests call the real NIM endpoint.",
	"Ne jamais stocker de secrets dans le dépôt.", "Aucun secret ne doit être stocké dans le dépôt.",
	"L'utilisateur valide l'entrée d'abord.", "Valider les entrées utilisateur d'abord.",
	"不要把 API 密钥写进代码。", "API 密钥不得写入代码。", "コミット前には必ず bun run check を走らせる。",
	"Use gorilla/mux for HTTP routing.", "Route HTTP with gorilla/mux.",
	"Edit config.yaml, never config.yml.", "The configyaml file is the one to edit.",
	"Handlers must not call the database directly.", "Handlers may not talk to the DB directly.",
	"Line-endings are LF in every repo.", "Every repository uses LF line endings.",
	"Don't re-run failing commands.", "Do not rerun a failed command.",
	"Re\u0301sume\u0301 parsing lives in the ingest-service.", "Résumé parsing is done by the ingest service.",
	"Запускать CI только после пуша последнего коммита.", "Запуск CI запрещён, пока последний коммит не отправлен.",
	"Die Agenten antworten immer auf Deutsch.", "Antworten des Agents sind immer auf Deutsch.",
	"CI/CD runs on GitHub Actions; the k8s deploy is manual.", "Kubernetes deploys are manual, CI-CD is GitHub Actions.",
	// a red team's: hyphen compounds, signs and dots the shape keeps
	"Use blue-green-canary rollouts.", "Blue green canary order matters.",
	"Follow the pull-request-review checklist.", "Pull request review needs approvals.",
	"Prefer C++ with C# bindings.", "C++ and C# only.", "Use F# and C# for tooling.", "Tooling in F# and C#.",
	"Upload artifacts to s3.bucket via ec2.host", "s3.bucket and ec2.host are shared",
	"Use go1.x toolchain always", "go1.x toolchain pinned.", "Use k8s.io client libs for kubernetes.", "k8s.io client libs",
	"Le déploiement de l'API-gateway est manuel.", "API gateway déploiement manuel.",
}

// The key scan is a shortcut of SameSubjectAmong: it must never set aside
// an entry SameSubject finds on the subject.
func TestKeyWeightNeverMissesASubject(t *testing.T) {
	for _, a := range subjectCases {
		for _, b := range subjectCases {
			checkKeyWeight(t, a, b)
		}
	}
}

func FuzzKeyWeight(f *testing.F) {
	for i := 0; i+1 < len(subjectCases); i += 2 {
		f.Add(subjectCases[i], subjectCases[i+1])
	}
	f.Fuzz(func(t *testing.T, a, b string) {
		if len(a) > 2000 || len(b) > 2000 {
			return
		}
		checkKeyWeight(t, a, b)
	})
}

func checkKeyWeight(t *testing.T, content, newText string) {
	t.Helper()
	nt := Analyze(newText)
	if _, ok := SameSubject(Analyze(content), nt); !ok {
		return
	}
	var ks keyScan
	if w := ks.keyWeight(content, subjectKeys(nt)); w < sameSubjectWords {
		t.Errorf("the key scan weighs %q at %d against %q, which SameSubject finds on its subject", content, w, newText)
	}
	if got := SameSubjectAmong(nt, []string{"Unrelated words entirely here.", content}, 2); len(got) != 1 || got[0] != 1 {
		t.Errorf("SameSubjectAmong(%q, …) = %v, want [1]", newText, got)
	}
}

// A code span only one or two entries of the category hold names their
// subject across words and languages; one most entries cite does not
// (sharedRareSpans).
func TestSameSubjectAmongSharedSpan(t *testing.T) {
	for _, tc := range []struct {
		contents []string
		new      string
		want     []int
	}{
		{[]string{"Keep the Kotlin `!!` operator out of production code.", "Use Gradle 8 for builds."}, "Use `!!` freely whenever a value is known to be non-null.", []int{0}},
		{[]string{"`console.log` pode ser usado livremente no código."}, "`console.log` é proibido, exceto com `eslint-disable`.", []int{0}},
		// an entry that shares words ranks before one that shares a span
		{[]string{"Never modify `global.json` unless asked.", "Leave the lock file unchanged unless a request says otherwise."}, "Leave `global.json` unchanged unless a request says otherwise.", []int{1, 0}},
		// a span three entries hold is the project's vocabulary
		{[]string{"Never push to `main` directly.", "Tag releases on `main`.", "Rebase onto `main` before merging."}, "Deploys run from `main` after CI.", nil},
		// a digit or a version names no subject
		{[]string{"Retry `3` times before failing."}, "Log level `3` is debug.", nil},
	} {
		got := SameSubjectAmong(Analyze(tc.new), tc.contents, 2)
		if !slices.Equal(got, tc.want) {
			t.Errorf("SameSubjectAmong(%q) = %v, want %v", tc.new, got, tc.want)
		}
	}
}
