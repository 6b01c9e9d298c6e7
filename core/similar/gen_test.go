package similar

import (
	"fmt"
	"math/rand/v2"
	"strings"
)

// entryGen makes memory-like entries: a verb, a few nouns drawn with a skew
// (some words are common, most are rare), sometimes a value or a name, and a
// share of rewordings, reversals, exact copies and CJK or Cyrillic texts.
type entryGen struct {
	rng   *rand.Rand
	nouns []string
	made  []string
}

var (
	genVerbs  = []string{"Run", "Use", "Keep", "Pin", "Enable", "Prefer", "Cache", "Deploy", "Lint", "Store", "Rotate", "Page"}
	genFiller = []string{"the", "for", "in", "with", "on", "before", "and", "every", "all"}
	genNames  = []string{"YAML", "JSON", "Postgres", "MySQL", "Redis", "Kafka", "Helm", "Docker", "Gradle", "Poetry"}
	genCJK    = []string{"发布前更新变更日志", "数据库迁移必须可以回滚", "不要提交生成的代码", "ログは JSON 形式で出力する", "設定を変えたら reload する", "캐시를 사용하지 않는다"}
	genCyr    = []string{"Включайте сжатие логов", "Не включайте сжатие логов", "Храните секреты в хранилище"}
)

func newEntryGen(seed uint64, vocab int) *entryGen {
	g := &entryGen{rng: rand.New(rand.NewPCG(seed, seed^0x9e3779b97f4a7c15))}
	for i := range vocab {
		g.nouns = append(g.nouns, fmt.Sprintf("%s%s", []string{"cache", "build", "queue", "token", "service", "bucket", "schema", "worker", "index", "client"}[i%10], strings.Repeat("x", i/10%3))+fmt.Sprint(i/30))
	}
	return g
}

// noun picks with a skew: low indices are much more frequent.
func (g *entryGen) noun() string {
	f := g.rng.Float64()
	return g.nouns[int(f*f*float64(len(g.nouns)))]
}

func (g *entryGen) fresh() string {
	var w []string
	w = append(w, genVerbs[g.rng.IntN(len(genVerbs))])
	for range 3 + g.rng.IntN(8) {
		switch g.rng.IntN(6) {
		case 0:
			w = append(w, genFiller[g.rng.IntN(len(genFiller))])
		case 1:
			if g.rng.IntN(3) == 0 {
				w = append(w, genNames[g.rng.IntN(len(genNames))])
			} else {
				w = append(w, fmt.Sprintf("v%d.%d", g.rng.IntN(4), g.rng.IntN(20)))
			}
		default:
			w = append(w, g.noun())
		}
	}
	return strings.Join(w, " ")
}

// variant derives a related entry from an earlier one.
func (g *entryGen) variant(s string) string {
	w := strings.Fields(s)
	switch g.rng.IntN(9) {
	case 0:
		return strings.ToUpper(s[:1]) + strings.ToLower(s[1:]) + "."
	case 1:
		return "Never " + strings.ToLower(s[:1]) + s[1:]
	case 2:
		return "Do not " + strings.ToLower(s[:1]) + s[1:]
	case 3:
		w[g.rng.IntN(len(w))] = g.noun()
	case 4:
		w = append(w, g.noun())
	case 5:
		if len(w) > 3 {
			i := g.rng.IntN(len(w) - 2)
			w = append(w[:i+1], w[i+2:]...)
		}
	case 6:
		if len(w) > 2 {
			i := 1 + g.rng.IntN(len(w)-2)
			w = append(w[:i+1], append([]string{"over"}, w[i+1:]...)...)
		}
	case 7:
		w[len(w)-1] = genNames[g.rng.IntN(len(genNames))]
	case 8:
		return s
	}
	return strings.Join(w, " ")
}

func (g *entryGen) next() string {
	var s string
	switch r := g.rng.IntN(100); {
	case r < 3:
		s = genCJK[g.rng.IntN(len(genCJK))]
	case r < 5:
		s = genCyr[g.rng.IntN(len(genCyr))]
	case r < 35 && len(g.made) > 0:
		s = g.variant(g.made[g.rng.IntN(len(g.made))])
	default:
		s = g.fresh()
	}
	g.made = append(g.made, s)
	return s
}

func (g *entryGen) texts(n int) []*Text {
	out := make([]*Text, n)
	for i := range out {
		out[i] = Analyze(g.next())
	}
	return out
}
