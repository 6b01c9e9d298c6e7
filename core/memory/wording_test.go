package memory

import "testing"

func TestWithArticle(t *testing.T) {
	for in, want := range map[string]string{
		"AWS access key id":   "an AWS access key id",
		"API key (sk-…)":      "an API key (sk-…)",
		"npm token":           "an npm token",
		"GitHub token":        "a GitHub token",
		"JSON Web Token":      "a JSON Web Token",
		"Slack webhook":       "a Slack webhook",
		"private key":         "a private key",
		"SSH key":             "an SSH key",
		"OpenAI key":          "an OpenAI key",
		"URL with a password": "a URL with a password",
	} {
		if got := WithArticle(in); got != want {
			t.Errorf("WithArticle(%q) = %q, want %q", in, got, want)
		}
	}
}
