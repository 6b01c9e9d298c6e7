package config

import (
	"bytes"
	"encoding/json"
	"errors"
	"fmt"
	"maps"
	"reflect"
	"slices"
	"strings"

	"github.com/memory-lsp/memory-lsp/core/category"
	"github.com/memory-lsp/memory-lsp/core/text"
)

// Settings is the JSON shape users write: the same keys in the LSP's
// initializationOptions, the `memory` configuration section and a
// `--config` file. Absent keys keep their current value.
type Settings struct {
	CategoryLimit   map[string]int         `json:"categoryLimit,omitempty"`
	SkipThreshold   *float64               `json:"skipThreshold,omitempty"`
	UpdateThreshold *float64               `json:"updateThreshold,omitempty"`
	MergeThreshold  *float64               `json:"mergeThreshold,omitempty"`
	LongEntry       *int                   `json:"longEntry,omitempty"`
	MaxContent      *int                   `json:"maxContent,omitempty"`
	Rules           map[string]RuleSetting `json:"rules,omitempty"`
	HistoryDepth    *int                   `json:"historyDepth,omitempty"`
	Review          *string                `json:"review,omitempty"`
	Agents          *[]string              `json:"agents,omitempty"`
}

// RuleSetting is one rule's value under "rules": true (on, its findings
// as severe as the rule makes them), false or "off", or the severity its
// findings take: "error", "warning" or "info" (a team that wants
// conflict's reversals counted writes "conflict": "warning").
type RuleSetting struct {
	On bool
	// Severity is "error", "warning" or "info"; "" keeps the rule's own.
	Severity string
}

// Severities are the severities a rule may be given, most severe first.
var Severities = []string{"error", "warning", "info"}

func (r *RuleSetting) UnmarshalJSON(b []byte) error {
	var on bool
	if json.Unmarshal(b, &on) == nil {
		*r = RuleSetting{On: on}
		return nil
	}
	var sev string
	if err := json.Unmarshal(b, &sev); err != nil {
		return err
	}
	switch {
	case sev == "off":
		*r = RuleSetting{}
	case slices.Contains(Severities, sev):
		*r = RuleSetting{On: true, Severity: sev}
	default:
		return fmt.Errorf("%q is no severity", sev)
	}
	return nil
}

func (r RuleSetting) MarshalJSON() ([]byte, error) {
	switch {
	case !r.On:
		return []byte("false"), nil
	case r.Severity != "":
		return json.Marshal(r.Severity)
	}
	return []byte("true"), nil
}

// Section is the key a settings object may be nested under: the name of the
// editor's configuration section, so that what a user writes for one
// editor's initializationOptions ({"memory": {…}}) works everywhere.
const Section = "memory"

// settingsFields maps each JSON key of Settings to its field index, read
// from the tags so that a new setting needs no change to the decoder.
var settingsFields = func() map[string]int {
	out := map[string]int{}
	t := reflect.TypeFor[Settings]()
	for i := range t.NumField() {
		if name, _, _ := strings.Cut(t.Field(i).Tag.Get("json"), ","); name != "" && name != "-" {
			out[name] = i
		}
	}
	return out
}()

// settingsKeys are the keys a settings object may hold, sorted.
func settingsKeys() []string { return slices.Sorted(maps.Keys(settingsFields)) }

// ParseSettings decodes one settings object, the JSON every front end
// reads: a --config file, initializationOptions, the editor's `memory`
// section. The object is flat or nested under Section; null, as the whole
// or as any value, means "not set" (the value below stays). Errors name the
// key as the user wrote it: an unknown key ("categoryLimits", with the
// nearest known key), an unknown category under categoryLimit, a value of
// the wrong type. Rule names are not checked here: the rules package owns
// them (rules.ParseSettings decodes and checks them in one call).
func ParseSettings(data []byte) (Settings, error) {
	var s Settings
	obj, err := object("settings", data)
	if err != nil || obj == nil {
		return s, err
	}
	prefix := ""
	if _, ok := obj[Section]; ok && len(obj) > 1 {
		others := slices.DeleteFunc(slices.Sorted(maps.Keys(obj)), func(k string) bool { return k == Section })
		return s, fmt.Errorf("%s: settings nested under %q are the object's only key; it also has %s (keys: %s)",
			Section, Section, strings.Join(others, ", "), strings.Join(settingsKeys(), ", "))
	}
	if inner, ok := obj[Section]; ok {
		if obj, err = object(Section+": settings", inner); err != nil || obj == nil {
			return s, err
		}
		prefix = Section + "."
	}
	v := reflect.ValueOf(&s).Elem()
	for _, key := range slices.Sorted(maps.Keys(obj)) {
		i, ok := settingsFields[key]
		if !ok {
			return Settings{}, unknownKey(prefix+key, key)
		}
		if err := decodeValue(prefix+key, obj[key], v.Field(i)); err != nil {
			return Settings{}, err
		}
	}
	if err := canonicalLimits(prefix, &s); err != nil {
		return Settings{}, err
	}
	return s, nil
}

// object decodes an object, nil for null; what names the value in errors.
func object(what string, data []byte) (map[string]json.RawMessage, error) {
	if isNull(data) {
		return nil, nil
	}
	var obj map[string]json.RawMessage
	if err := json.Unmarshal(data, &obj); err != nil {
		var se *json.SyntaxError
		if errors.As(err, &se) {
			return nil, fmt.Errorf("%s are not valid JSON: %v", what, err)
		}
		return nil, fmt.Errorf("%s must be an object, not %s", what, abbreviate(data))
	}
	return obj, nil
}

func unknownKey(path, key string) error {
	msg := fmt.Sprintf("%s: no setting has the key %q", path, key)
	if near := nearestKey(key); near != "" {
		msg += fmt.Sprintf("; did you mean %q?", near)
	}
	return fmt.Errorf("%s (keys: %s)", msg, strings.Join(settingsKeys(), ", "))
}

// nearestKey is the known key within three edits of key (case ignored), the
// closest first; "" when none is that close.
func nearestKey(key string) string {
	best, bestD := "", 4
	for _, k := range settingsKeys() {
		if d := text.EditDistance(strings.ToLower(key), strings.ToLower(k)); d < bestD {
			best, bestD = k, d
		}
	}
	return best
}

// decodeValue decodes one value into field, a pointer or a map of
// Settings; a map's null members are left out. path names the value.
func decodeValue(path string, data json.RawMessage, field reflect.Value) error {
	if isNull(data) {
		return nil
	}
	if field.Kind() != reflect.Map {
		p := reflect.New(field.Type().Elem())
		if err := json.Unmarshal(data, p.Interface()); err != nil {
			return wrongType(path, data, field.Type().Elem())
		}
		field.Set(p)
		return nil
	}
	var members map[string]json.RawMessage
	if json.Unmarshal(data, &members) != nil || members == nil {
		return wrongType(path, data, field.Type())
	}
	m := reflect.MakeMap(field.Type())
	for _, k := range slices.Sorted(maps.Keys(members)) {
		if isNull(members[k]) {
			continue
		}
		e := reflect.New(field.Type().Elem())
		if err := json.Unmarshal(members[k], e.Interface()); err != nil {
			return wrongType(path+"."+k, members[k], field.Type().Elem())
		}
		m.SetMapIndex(reflect.ValueOf(k), e.Elem())
	}
	field.Set(m)
	return nil
}

func wrongType(path string, data json.RawMessage, want reflect.Type) error {
	return fmt.Errorf("%s: %s is not a valid value (want %s)", path, abbreviate(data), describe(want))
}

// describe names the JSON a field takes, as a user reads it.
func describe(t reflect.Type) string {
	switch {
	case t == reflect.TypeFor[RuleSetting]():
		return ruleValues
	case t.Kind() == reflect.Map && t.Elem() == reflect.TypeFor[RuleSetting]():
		return "an object of rule codes to " + ruleValues
	}
	switch t.Kind() {
	case reflect.Map:
		return "an object of names to " + kinds[t.Elem().Kind()][1]
	case reflect.Slice:
		return "a list of " + kinds[t.Elem().Kind()][1]
	default:
		return kinds[t.Kind()][0]
	}
}

// ruleValues are the values a rule's setting takes.
const ruleValues = `true, false or a severity ("error", "warning", "info", "off")`

// kinds names each kind of value Settings holds, one and many.
var kinds = map[reflect.Kind][2]string{
	reflect.Int:     {"a whole number", "whole numbers"},
	reflect.Float64: {"a number", "numbers"},
	reflect.Bool:    {"true or false", "true or false"},
	reflect.String:  {"a string", "strings"},
}

// canonicalLimits names each category by its canonical name, so that two
// layers writing "decision" and "Decision" set one limit, and refuses a
// name that is no category.
func canonicalLimits(prefix string, s *Settings) error {
	if s.CategoryLimit == nil {
		return nil
	}
	out := make(map[string]int, len(s.CategoryLimit))
	for _, name := range slices.Sorted(maps.Keys(s.CategoryLimit)) {
		cat, err := category.Parse(name)
		if err != nil {
			return fmt.Errorf("%scategoryLimit.%s: %w", prefix, name, err)
		}
		if _, dup := out[cat.String()]; dup {
			return fmt.Errorf("%scategoryLimit.%s: %s is set twice", prefix, name, cat)
		}
		out[cat.String()] = s.CategoryLimit[name]
	}
	s.CategoryLimit = out
	return nil
}

// Overlay is s with every setting top names on top; categoryLimit and rules
// are overlaid member by member. Neither s nor top is changed.
func (s Settings) Overlay(top Settings) Settings {
	out := s
	o, t := reflect.ValueOf(&out).Elem(), reflect.ValueOf(top)
	for i := range o.NumField() {
		dst, src := o.Field(i), t.Field(i)
		switch {
		case src.IsNil():
		case dst.Kind() == reflect.Map:
			m := reflect.MakeMap(dst.Type())
			for _, from := range []reflect.Value{dst, src} {
				for it := from.MapRange(); it.Next(); {
					m.SetMapIndex(it.Key(), it.Value())
				}
			}
			dst.Set(m)
		default:
			dst.Set(src)
		}
	}
	return out
}

func isNull(v []byte) bool { return string(bytes.TrimSpace(v)) == "null" }

// abbreviate shows a JSON value in a message, cut short if long.
func abbreviate(v []byte) string {
	s := string(bytes.TrimSpace(v))
	if len(s) > 40 {
		s = s[:37] + "..."
	}
	return s
}
