package similar

import (
	"slices"
	"testing"
)

func TestSign(t *testing.T) {
	tests := []struct {
		in   string
		want int
	}{
		{"Pin transitive dependencies", 1},
		{"Do not pin transitive dependencies", -1},
		{"Don't pin them", -1},
		{"Don’t pin them", -1},
		{"Do not disable the cache", 1}, // double negation
		{"Never disable the cache", 1},
		{"Always enable the cache", 1},
		{"Start the dev server without HTTPS", -1},
		{"Turn off the cache", -1},
		{"Page the on-call engineer", 1},   // a compound is not "on"
		{"Watch for off-by-one errors", 1}, // nor "off"
		{"Run migrations after the deploy", -1},
		{"Alert when depth > 1000", 1},
		{"Alert when depth < 1000", -1},
		{"Alert when depth <= 1000", -1},
		{"Alert when depth >=1000", 1},
		{"Alert when x<5", -1},
		{"Alert when depth ≤ 1000", -1},
		{"Return Vec<u8> from read", 1},        // generics are not comparisons
		{"Use the <div> wrapper", 1},           // nor tags
		{"Map a -> b, then c => d, x << 2", 1}, // nor arrows and shifts
		{"Не включайте сжатие логов", -1},
		{"Nie wieder nicht", 1},
		{"Ne jamais committer", -1},
		{"不使用缓存", -1},
		{"不要提交生成的代码", -1},
		{"特别重要", 1}, // 特别 is a word, not 别
		{"ログを出力しない", -1},
		{"ログを出力する", 1},
		{"设置禁止", -1},
	}
	for _, tt := range tests {
		if got := Analyze(tt.in).Sign; int(got) != tt.want {
			t.Errorf("Sign(%q) = %d, want %d", tt.in, got, tt.want)
		}
	}
}

func TestCore(t *testing.T) {
	tests := []struct{ a, b string }{
		{"Enable HSTS on the API domain", "Disable HSTS on the API domain"},
		{"Start the dev server without HTTPS", "Start the dev server with HTTPS"},
		{"Keep the build cache", "Remove the build cache"},
		{"使用缓存", "不使用缓存"},
		{"ログを出力する", "ログを出力しない"},
	}
	for _, tt := range tests {
		a, b := Analyze(tt.a), Analyze(tt.b)
		if !slices.Equal(a.Core(), b.Core()) || len(a.Core()) == 0 {
			t.Errorf("Core(%q) = %q, Core(%q) = %q: want equal and non-empty", tt.a, a.Core(), tt.b, b.Core())
		}
	}
}

func TestNumbersAndNamed(t *testing.T) {
	tests := []struct {
		in             string
		numbers, named []string
	}{
		{"Upload to the eu-west-1 bucket (v2), Java 1.8.", []string{"1.8", "eu-west-1", "v2"}, []string{"java"}},
		{"Pin the Helm CLI to 3.14.2", []string{"3.14.2"}, []string{"cli", "helm"}},
		{"Lint YAML files. Charts live here", nil, []string{"yaml"}},
		// a digit inside a name makes no value, and no Named word either
		{"Gradle builds need JAVA_HOME and H2O", nil, []string{"javahome"}},
		{"Publish order events to queue0 at 02:00", []string{"02:00"}, nil},
		{"Use gpt-4o-mini with --maxWorkers=4", []string{"gpt-4o-mini", "maxworkers=4"}, nil},
		{"Résumé uploads", nil, nil},
	}
	for _, tt := range tests {
		tx := Analyze(tt.in)
		if !slices.Equal(tx.Numbers(), tt.numbers) {
			t.Errorf("Numbers(%q) = %q, want %q", tt.in, tx.Numbers(), tt.numbers)
		}
		if !slices.Equal(tx.Named(), tt.named) {
			t.Errorf("Named(%q) = %q, want %q", tt.in, tx.Named(), tt.named)
		}
	}
}
