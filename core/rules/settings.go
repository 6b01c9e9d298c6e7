package rules

import (
	"fmt"
	"maps"
	"slices"
	"strings"

	"github.com/memory-lsp/memory-lsp/core/config"
	"github.com/memory-lsp/memory-lsp/core/text"
)

// ParseSettings is the settings decoder of every front end (--config,
// initializationOptions, the editor's workspace configuration):
// config.ParseSettings, whose errors name the key, then checkRuleNames,
// which config cannot do because the codes live here.
func ParseSettings(data []byte) (config.Settings, error) {
	s, err := config.ParseSettings(data)
	if err != nil {
		return config.Settings{}, err
	}
	if err := checkRuleNames(s); err != nil {
		return config.Settings{}, err
	}
	return s, nil
}

// checkRuleNames refuses settings whose "rules" name a code no rule has
// ("missing-slugg"), naming the key and the nearest code: a typo there
// would otherwise leave the rule as it was, silently.
func checkRuleNames(s config.Settings) error {
	for _, code := range slices.Sorted(maps.Keys(s.Rules)) {
		if known(code) {
			continue
		}
		msg := fmt.Sprintf("rules.%s: no rule has the code %q", code, code)
		if near := nearestCode(code); near != "" {
			msg += fmt.Sprintf("; did you mean %q?", near)
		}
		return fmt.Errorf("%s (codes: %s)", msg, strings.Join(codes(), ", "))
	}
	return nil
}

func known(code string) bool {
	_, ok := traitsByCode[code]
	return ok
}

func codes() []string {
	out := make([]string, len(registry))
	for i, r := range registry {
		out[i] = r.Code
	}
	return out
}

// nearestCode is the code within three edits of s (case ignored), the
// closest first; "" when none is that close.
func nearestCode(s string) string {
	best, bestD := "", 4
	for _, r := range registry {
		if d := text.EditDistance(strings.ToLower(s), r.Code); d < bestD {
			best, bestD = r.Code, d
		}
	}
	return best
}
