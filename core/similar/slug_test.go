package similar

import (
	"strings"
	"testing"
)

func TestIsKebab(t *testing.T) {
	tests := map[string]bool{
		"a": true, "my-slug-2": true, "x86": true,
		"": false, "-a": false, "a-": false, "a--b": false, "A": false, "a_b": false, "a b": false, "é": false,
	}
	for s, want := range tests {
		if got := IsKebab(s); got != want {
			t.Errorf("IsKebab(%q) = %v, want %v", s, got, want)
		}
	}
}

func TestKebab(t *testing.T) {
	tests := []struct{ in, want string }{
		{"My Slug_2", "my-slug-2"},
		{"--already-kebab--", "already-kebab"},
		{"CamelCase", "camelcase"},
		{"发布", ""},
		{"", ""},
	}
	for _, tt := range tests {
		if got := Kebab(tt.in); got != tt.want || got != "" && !IsKebab(got) {
			t.Errorf("Kebab(%q) = %q, want %q", tt.in, got, tt.want)
		}
	}
}

func TestGenerateSlug(t *testing.T) {
	none := func(string) bool { return false }
	tests := []struct{ in, want string }{
		{"Keep SQL migrations idempotent.", "sql-migrations-idempotent"},
		{"Run cargo test --workspace before tagging a release", "workspace-tagging-release"},
		{"Never commit generated protobuf code", "commit-generated-protobuf"},
		{"Rate-limit the login endpoint", "rate-limit-login-endpoint"},
		{"Résumé uploads are limited to PDF", "uploads-limited-pdf"},
		{"Antidisestablishmentarianismantidisestablishmentarianism rules", "antidisestablishmentarianismantidisestab"},
		{"Use it", "entry-"},
		{"发布前更新变更日志", "entry-"},
		// never a secret-looking token, not even a documented example
		// (issue 27); words that carry a number stay
		{"Deploy key AKIAIOSFODNN7EXAMPLE is the doc sample.", "deploy-key-sample"},
		{"Prod DB password is hunter2Secret42 for now", "prod-password-now"},
		{"Use utf8mb4 collation on MySQL 8 for k8s jobs", "utf8mb4-collation-mysql"},
		{"Build with python311 on ubuntu2204 only", "build-python311-ubuntu2204"},
		{"Timestamps are rfc3339nano", "timestamps-rfc3339nano"},
		{"The staging password is xk9mq2vplz", "staging-password"},
	}
	for _, tt := range tests {
		got := GenerateSlug(tt.in, none)
		ok := got == tt.want || strings.HasSuffix(tt.want, "-") && strings.HasPrefix(got, tt.want) && len(got) == len(tt.want)+6
		if !ok || !IsKebab(got) || len(got) > maxSlug {
			t.Errorf("GenerateSlug(%q) = %q, want %q", tt.in, got, tt.want)
		}
		if again := GenerateSlug(tt.in, none); again != got {
			t.Errorf("GenerateSlug(%q) not deterministic: %q then %q", tt.in, got, again)
		}
	}
	if GenerateSlug("发布前更新变更日志", none) == GenerateSlug("数据库迁移必须可以回滚", none) {
		t.Error("different CJK contents got the same hash slug")
	}
}

func TestGenerateSlugUnique(t *testing.T) {
	used := map[string]bool{}
	taken := func(s string) bool { return used[s] }
	want := []string{"sql-migrations-idempotent", "sql-migrations-idempotent-2", "sql-migrations-idempotent-3"}
	for _, w := range want {
		got := GenerateSlug("Keep SQL migrations idempotent", taken)
		if got != w {
			t.Errorf("slug = %q, want %q", got, w)
		}
		used[got] = true
	}
	if got := GenerateSlug("Keep SQL migrations idempotent", nil); got != want[0] {
		t.Errorf("nil taken: %q", got)
	}
}
