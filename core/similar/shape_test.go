package similar

import (
	"slices"
	"testing"
)

func TestShapeOrders(t *testing.T) {
	tests := []struct {
		in          string
		pref, other []string
		consumed    int
	}{
		{"Prefer Poetry over pipenv for Python dependencies", []string{"poetry"}, []string{"pipenv", "python", "dependencies"}, 0},
		{"Use httpx instead of requests", []string{"httpx"}, []string{"requests"}, 0},
		{"Use httpx instead requests", nil, nil, 0}, // "instead" without "of" is no order
		{"Use not npm but pnpm", []string{"pnpm"}, []string{"npm"}, 1},
		{"Use pnpm, not npm, for installs", []string{"pnpm"}, []string{"npm", "installs"}, 1},
		{"Используйте pnpm, а не npm", []string{"используйте", "pnpm"}, []string{"npm"}, 1},
		{"Verwende nicht npm, sondern pnpm", []string{"pnpm"}, []string{"npm"}, 1},
		{"Dùng pnpm chứ không phải npm", []string{"dùng", "pnpm"}, []string{"npm"}, 1},
		{"npmではなくpnpmを使う", []string{"pnpm", "使"}, []string{"npm"}, 0},
		{"If the build fails, do not retry", nil, nil, 0}, // a comma before "do", not before "not"
		{"Prefer composition over", nil, nil, 0},
		// "over" ranks only after a word of choice: otherwise a
		// preposition or a particle
		{"Use Redis over Memcached", []string{"redis"}, []string{"memcached"}, 0},
		{"The frontend calls the backend over gRPC", nil, nil, 0},
		{"Replica db2 takes over after db1 fails", nil, nil, 0},
	}
	for _, tt := range tests {
		tx := Analyze(tt.in)
		sh := tx.shapeOf()
		var pref, other []string
		if len(sh.orders) > 0 {
			pref, other = sh.orders[0].pref, sh.orders[0].other
		}
		if !slices.Equal(pref, tt.pref) || !slices.Equal(other, tt.other) || sh.consumed != tt.consumed {
			t.Errorf("orders(%q) = %q over %q (consumed %d), want %q over %q (%d)", tt.in, pref, other, sh.consumed, tt.pref, tt.other, tt.consumed)
		}
		if len(tt.pref) > 0 && !tx.hasOrder {
			t.Errorf("Analyze(%q).hasOrder = false", tt.in)
		}
	}
}

// FuzzClassifyPair: any two texts classify without a panic, the verdict is
// one of the kinds, and a text compared with itself is a duplicate.
func FuzzClassifyPair(f *testing.F) {
	for _, s := range [][2]string{
		{"Use pnpm, not npm, for installs", "Use npm, not pnpm, for installs"},
		{"Используйте pnpm, а не npm", "Используйте npm, а не pnpm"},
		{"不是npm而是pnpm", "npmではなくpnpmを使う"},
		{"Run tests with -race.", "Never run tests with -race on CI; it is too slow."},
		{"l'utilisateur, pas", "not , but , but not"},
	} {
		f.Add(s[0], s[1])
	}
	kinds := map[string]bool{"": true, KindDuplicate: true, KindReworded: true, KindAddsDetail: true,
		KindLessDetail: true, KindValue: true, KindSibling: true, KindReversal: true}
	f.Fuzz(func(t *testing.T, a, b string) {
		ta, tb := Analyze(a), Analyze(b)
		v := Classify(ta, tb, defaultTh)
		if !kinds[v.Kind] {
			t.Fatalf("Classify(%q, %q) kind %q", a, b, v.Kind)
		}
		if self := Classify(ta, Analyze(a), defaultTh); self.Action != Skip {
			t.Fatalf("Classify(%q, itself) = %+v, want a skip", a, self)
		}
	})
}
