package similar

import (
	"testing"

	"github.com/memory-lsp/memory-lsp/internal/longtest"
)

// TestDecideContentsMatchesDecide: the shortcut must never change a
// decision, including the reported similarity of a plain store.
func TestDecideContentsMatchesDecide(t *testing.T) {
	longtest.Skip(t)
	ths := []Thresholds{{0.8, 0.6}, {0.3, 0.3}, {0.9, 0.5}, {1, 1}}
	checked := 0
	for seed := range uint64(8) {
		g := newEntryGen(seed, 30+int(seed)*20)
		var contents []string
		for range 200 {
			contents = append(contents, g.next())
		}
		contents = append(contents, "auto-scaling nodes", "Autoscaling nodes!", "Do it", "Don't do it", "🚀", "发布前更新日志", "",
			// issue 27: swaps, values in words, antonyms, polarity words aside
			"Encrypt backups with KMS.", "Encrypt snapshots with KMS.", "Retry failed webhook deliveries twice.",
			"Retry failed webhook deliveries three times.", "The CLI treats names as case-sensitive.",
			"The CLI treats names as case-insensitive.", "Keep secrets out of the repository.",
			"Remove secrets from the repository.", "Don't create Markdown docs unless asked.",
			"Do not create Markdown documents unless asked.",
			// a text repeated whole and added to, with a limit or not (StoreVerdict)
			"Credentials live in ~/credentials/.", "Credentials live in ~/credentials/, one .env file per service.",
			"Deploy on Fridays.", "Deploy on Fridays except in December.")
		texts := make([]*Text, len(contents))
		for i, c := range contents {
			texts[i] = Analyze(c)
		}
		for k := 0; k < len(contents); k += 3 {
			for _, th := range ths {
				// Each text against all the others (and itself, which must be an exact skip).
				gi, gv := DecideContents(texts[k], contents, th)
				wi, wv := Decide(texts[k], texts, th)
				if gi != wi || gv != wv {
					t.Fatalf("seed %d, new %q, %v: DecideContents = %d %+v, Decide = %d %+v", seed, contents[k], th, gi, gv, wi, wv)
				}
				// And against all the others only.
				rest := append(append([]string{}, contents[:k]...), contents[k+1:]...)
				restT := append(append([]*Text{}, texts[:k]...), texts[k+1:]...)
				gi, gv = DecideContents(texts[k], rest, th)
				wi, wv = Decide(texts[k], restT, th)
				if gi != wi || gv != wv {
					t.Fatalf("seed %d, new %q (excluded), %v: DecideContents = %d %+v, Decide = %d %+v", seed, contents[k], th, gi, gv, wi, wv)
				}
				checked++
			}
		}
	}
	t.Logf("%d decisions compared", checked)
}

// TestDecideContentsParallel covers the multi-core path (over parallelMin
// entries per worker) with the same equality.
func TestDecideContentsParallel(t *testing.T) {
	g := newEntryGen(42, 60)
	n := 2*parallelMin + 100
	contents := make([]string, n)
	texts := make([]*Text, n)
	for i := range contents {
		contents[i] = g.next()
		texts[i] = Analyze(contents[i])
	}
	for k := 0; k < n; k += 97 {
		gi, gv := DecideContents(texts[k], contents, defaultTh)
		wi, wv := Decide(texts[k], texts, defaultTh)
		if gi != wi || gv != wv {
			t.Fatalf("new %q: DecideContents = %d %+v, Decide = %d %+v", contents[k], gi, gv, wi, wv)
		}
		fresh := Analyze(g.next())
		gi, gv = DecideContents(fresh, contents, defaultTh)
		wi, wv = Decide(fresh, texts, defaultTh)
		if gi != wi || gv != wv {
			t.Fatalf("new %q: DecideContents = %d %+v, Decide = %d %+v", fresh.Raw, gi, gv, wi, wv)
		}
	}
}

// TestStoreKeepsWhatALimitNarrows: a store whose text repeats an entry and
// adds words replaces it only where HackLM's likeness calls it an update
// and the added words limit nothing; otherwise it is stored beside (and
// named in the reply), since scope words ("in the frontend package")
// narrow a rule as often as other words add detail (a red team's).
func TestStoreKeepsWhatALimitNarrows(t *testing.T) {
	th := Thresholds{Skip: 0.8, Update: 0.6}
	for _, tc := range []struct {
		old, new string
		want     Action
		kind     string
		// narrowed: Classify calls the pair an update that adds detail,
		// which only narrows turns into a store beside
		narrowed bool
	}{
		{"Supported platforms: macOS, Linux and Windows.", "Supported platforms: macOS, Linux, Windows and FreeBSD.", Update, KindAddsDetail, false},
		{"Deploy the web app on Fridays.", "Deploy the web app on Fridays except in December.", Store, "", true},
		{"Deploy the web app on Fridays.", "Deploy the web app on Fridays if the CTO approves.", Store, "", true},
		{"Die App freitags deployen.", "Die App freitags deployen außer im Dezember.", Store, "", true},
		{"Deploy the web app on Fridays.", "Deploy the web app on Fridays is a bad idea.", Store, "", true},
		{"周五部署网页应用到生产环境。", "周五部署网页应用到生产环境，十二月除外。", Store, "", true},
		{"金曜日にウェブアプリを本番環境へデプロイする。", "金曜日にウェブアプリを本番環境へデプロイする、12月を除いて。", Store, "", true},
		{"Run the full test suite on every pull request.", "Run the full test suite on every pull request, but only for the backend.", Store, "", true},
		// below HackLM's likeness: stored beside whatever the words say,
		// since scope narrows as often as detail adds (a red team's)
		{"Credentials live in `~/credentials/`.", "Credentials live in `~/credentials/`, one `.env` file per service.", Store, "", false},
		{"Use pnpm for installs.", "Use pnpm for installs in the frontend package.", Store, "", false},
		{"Use pnpm for installs.", "Use pnpm for installs in the docs package; elsewhere use npm.", Store, "", false},
		// a reason added limits nothing; a limit after the reason does
		{"Run the payment integration tests inside Docker containers on CI.", "Run the payment integration tests inside Docker containers on CI, because the native libraries differ.", Update, KindAddsDetail, false},
		{"Run the payment integration tests inside Docker containers on CI.", "Run the payment integration tests inside Docker containers on CI, because the native libraries differ, except on macOS.", Store, "", false},
		{"Run the payment integration tests inside Docker containers on CI.", "Run the payment integration tests inside Docker containers on CI, because of deps; macOS runs natively.", Store, "", true},
		{"Keep two replicas of the checkout API behind the load balancer in every region.", "Keep two replicas of the checkout API behind the load balancer in every region, because us-east gets five.", Store, "", true},
		{"支付服务的集成测试在 CI 上的 Docker 容器中运行。", "支付服务的集成测试在 CI 上的 Docker 容器中运行，因为依赖原生库，仅限 Linux 构建。", Store, "", true},
	} {
		old, new := Analyze(tc.old), Analyze(tc.new)
		if c := Classify(old, new, th); (c.Action == Update && c.Kind == KindAddsDetail) != (tc.narrowed || tc.want == Update) {
			t.Errorf("%q → %q: Classify %v %q: the row does not test what it says", tc.old, tc.new, c.Action, c.Kind)
		}
		_, v := Decide(new, []*Text{old}, th)
		if v.Action != tc.want || v.Kind != tc.kind {
			t.Errorf("%q → %q: %v %q, want %v %q", tc.old, tc.new, v.Action, v.Kind, tc.want, tc.kind)
		}
		if _, cv := DecideContents(new, []string{tc.old}, th); cv != v {
			t.Errorf("%q → %q: DecideContents %+v, Decide %+v", tc.old, tc.new, cv, v)
		}
	}
}
