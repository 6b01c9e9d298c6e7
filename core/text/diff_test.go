package text

import "testing"

func TestUnified(t *testing.T) {
	tests := []struct {
		name, old, new, want string
	}{
		{"equal", "a\nb\n", "a\nb\n", ""},
		{"replace middle", "a\nb\nc\n", "a\nB\nc\n", "--- x\n+++ y\n@@ -1,3 +1,3 @@\n a\n-b\n+B\n c\n"},
		{"append", "a\n", "a\nb\n", "--- x\n+++ y\n@@ -1 +1,2 @@\n a\n+b\n"},
		{"delete all", "a\n", "", "--- x\n+++ y\n@@ -1 +0,0 @@\n-a\n"},
		{"from empty", "", "a\n", "--- x\n+++ y\n@@ -0,0 +1 @@\n+a\n"},
		{"no final newline", "a", "a\n", "--- x\n+++ y\n@@ -1 +1 @@\n-a\n\\ No newline at end of file\n+a\n"},
		{"two hunks", "1\n2\n3\n4\n5\n6\n7\n8\n9\n", "X\n2\n3\n4\n5\n6\n7\n8\nY\n",
			"--- x\n+++ y\n@@ -1,2 +1,2 @@\n-1\n+X\n 2\n@@ -8,2 +8,2 @@\n 8\n-9\n+Y\n"},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			if got := UnifiedDiff("x", "y", tt.old, tt.new, 1); got != tt.want {
				t.Errorf("got\n%s\nwant\n%s", got, tt.want)
			}
		})
	}
}
