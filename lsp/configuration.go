package lsp

import (
	"bytes"
	"context"
	"encoding/json"
	"errors"
	"fmt"
	"maps"
	"reflect"
	"slices"
	"strings"

	protocol "github.com/tliron/glsp/protocol_3_16"

	"github.com/memory-lsp/memory-lsp/core/category"
	"github.com/memory-lsp/memory-lsp/core/config"
	"github.com/memory-lsp/memory-lsp/core/rules"
)

// Settings reach the server from three places, each overriding the one
// before key by key: the defaults, initializationOptions (s.base, read once
// in initialize), and the `memory` section pulled with
// workspace/configuration (or, from a client that cannot be asked, the
// `memory` object of didChangeConfiguration's settings) (s.pulled). A change
// that makes the configuration invalid is refused with a message naming the
// key, and the previous configuration stays.

// section is the configuration section clients are asked for.
const section = "memory"

func init() {
	onNotification("workspace/didChangeConfiguration", (*Server).didChangeConfiguration)
}

// settingsJSON is a settings object reduced to the keys config.Settings
// knows, without nulls: the form in which layers are overlaid.
type settingsJSON map[string]json.RawMessage

// settingsKeys are the JSON keys of config.Settings, read from its tags so a
// new setting needs no change here.
var settingsKeys = func() map[string]bool {
	keys := map[string]bool{}
	t := reflect.TypeFor[config.Settings]()
	for i := range t.NumField() {
		name, _, _ := strings.Cut(t.Field(i).Tag.Get("json"), ",")
		if name != "" && name != "-" {
			keys[name] = true
		}
	}
	return keys
}()

// parseSettings reads a settings object leniently: flat or nested under
// "memory" (initializationOptions carry the user's object as-is, a pull
// answers with the section's content), null or absent meaning "no
// settings". Unknown keys, including unknown categories under
// categoryLimit, come back as warnings and are dropped; a known key with a
// value of the wrong type is an error naming the key.
func parseSettings(raw json.RawMessage) (settingsJSON, []string, error) {
	raw = bytes.TrimSpace(raw)
	if len(raw) == 0 || string(raw) == "null" {
		return nil, nil, nil
	}
	var obj map[string]json.RawMessage
	if err := json.Unmarshal(raw, &obj); err != nil {
		return nil, nil, fmt.Errorf("settings must be an object, not %s", abbreviate(raw))
	}
	prefix := ""
	if inner, ok := obj[section]; ok {
		if isNull(inner) {
			return nil, nil, nil
		}
		obj = nil
		if err := json.Unmarshal(inner, &obj); err != nil {
			return nil, nil, fmt.Errorf("%s: settings must be an object, not %s", section, abbreviate(inner))
		}
		prefix = section + "."
	}
	var warnings []string
	out := settingsJSON{}
	for _, k := range slices.Sorted(maps.Keys(obj)) {
		v := obj[k]
		switch {
		case !settingsKeys[k]:
			warnings = append(warnings, fmt.Sprintf("unknown setting %s%s (known: %s)", prefix, k, strings.Join(slices.Sorted(maps.Keys(settingsKeys)), ", ")))
		case isNull(v):
			// null: use the default (or the layer below)
		case k == "categoryLimit":
			limits, warns, err := parseLimits(prefix+k, v)
			if err != nil {
				return nil, nil, err
			}
			warnings = append(warnings, warns...)
			if len(limits) > 0 {
				out[k] = limits
			}
		default:
			if err := checkSetting(k, v); err != nil {
				return nil, nil, fmt.Errorf("%s%s: %v", prefix, k, err)
			}
			out[k] = dropNulls(v)
		}
	}
	return out, warnings, nil
}

// parseLimits keeps the categoryLimit entries that name a category.
func parseLimits(key string, v json.RawMessage) (json.RawMessage, []string, error) {
	var m map[string]json.RawMessage
	if err := json.Unmarshal(v, &m); err != nil {
		return nil, nil, fmt.Errorf("%s must be an object of category names to numbers, not %s", key, abbreviate(v))
	}
	var warnings []string
	keep := map[string]json.RawMessage{}
	for _, name := range slices.Sorted(maps.Keys(m)) {
		if isNull(m[name]) {
			continue
		}
		if _, err := category.Parse(name); err != nil {
			warnings = append(warnings, fmt.Sprintf("unknown setting %s.%s (categories: %s)", key, name, category.Names()))
			continue
		}
		keep[name] = m[name]
	}
	if len(keep) == 0 {
		return nil, warnings, nil
	}
	b, _ := json.Marshal(keep)
	if err := checkSetting("categoryLimit", b); err != nil {
		return nil, nil, fmt.Errorf("%s: %v", key, err)
	}
	return b, warnings, nil
}

// checkSetting decodes one known key alone, so a type error names it.
func checkSetting(key string, v json.RawMessage) error {
	b, _ := json.Marshal(map[string]json.RawMessage{key: v})
	if _, err := config.ParseSettings(b); err != nil {
		var te *json.UnmarshalTypeError
		if errors.As(err, &te) {
			return fmt.Errorf("%s is not a valid value (want %s)", abbreviate(v), te.Type)
		}
		return err
	}
	return nil
}

// dropNulls removes null members of an object value ({"rules": {"x": null}}
// means the default for x); other values are returned as they are.
func dropNulls(v json.RawMessage) json.RawMessage {
	var m map[string]json.RawMessage
	if json.Unmarshal(v, &m) != nil {
		return v
	}
	for k, x := range m {
		if isNull(x) {
			delete(m, k)
		}
	}
	b, _ := json.Marshal(m)
	return b
}

// overlay is base with top's keys on top; object values (categoryLimit,
// rules) are overlaid member by member.
func overlay(base, top settingsJSON) settingsJSON {
	out := maps.Clone(base)
	if out == nil {
		out = settingsJSON{}
	}
	for k, v := range top {
		var bm, tm map[string]json.RawMessage
		if b, ok := out[k]; ok && json.Unmarshal(b, &bm) == nil && json.Unmarshal(v, &tm) == nil && bm != nil && tm != nil {
			maps.Copy(bm, tm)
			v, _ = json.Marshal(bm)
		}
		out[k] = v
	}
	return out
}

// buildConfig is the configuration of the layers over the defaults.
func buildConfig(base, pulled settingsJSON) (config.Config, error) {
	b, _ := json.Marshal(overlay(base, pulled))
	st, err := config.ParseSettings(b)
	if err != nil {
		return config.Config{}, err
	}
	if err := rules.CheckSettings(st); err != nil {
		return config.Config{}, err
	}
	return config.Default().Merge(st)
}

// initSettings reads initializationOptions. Problems never fail initialize:
// unknown keys are logged, an invalid value leaves the defaults in force;
// the client hears of both after initialized (reportStartup).
func (s *Server) initSettings(raw json.RawMessage) (base settingsJSON, cfg config.Config, notes []pendingNote) {
	base, warnings, err := parseSettings(raw)
	cfg = config.Default()
	if err == nil {
		cfg, err = buildConfig(base, nil)
	}
	for _, w := range warnings {
		s.log.Warningf("initializationOptions: %s", w)
		notes = append(notes, pendingNote{"window/logMessage",
			protocol.LogMessageParams{Type: protocol.MessageTypeWarning, Message: Name + ": initializationOptions: " + w}})
	}
	if err != nil {
		msg := fmt.Sprintf("initializationOptions: %v; using the default settings", err)
		s.log.Warningf("%s", msg)
		notes = append(notes, pendingNote{"window/showMessage",
			protocol.ShowMessageParams{Type: protocol.MessageTypeWarning, Message: Name + ": " + msg}})
		return nil, config.Default(), notes
	}
	return base, cfg, notes
}

// pendingNote is a notification held back until the client is initialized.
type pendingNote struct {
	method string
	params any
}

// reportStartup sends what initSettings found, once the client is ready.
func (s *Server) reportStartup() {
	s.mu.Lock()
	notes := s.startup
	s.startup = nil
	s.mu.Unlock()
	for _, n := range notes {
		s.conn.Notify(n.method, n.params)
	}
}

// refreshConfiguration pulls the `memory` section when the client supports
// it and applies it. It calls the client, so it must not run on the read
// loop.
func (s *Server) refreshConfiguration(ctx context.Context) {
	s.mu.Lock()
	pull := s.caps.configuration && s.state == stateRunning
	s.mu.Unlock()
	if !pull {
		return
	}
	s.cfgMu.Lock()
	defer s.cfgMu.Unlock()
	sec := section
	var items []json.RawMessage
	if err := s.call(ctx, "workspace/configuration", protocol.ConfigurationParams{Items: []protocol.ConfigurationItem{{Section: &sec}}}, &items); err != nil {
		if s.connClosed() {
			return // the session ended while we asked
		}
		s.log.Warningf("pulling configuration: %v; keeping the current settings", err)
		return
	}
	var raw json.RawMessage
	if len(items) > 0 {
		raw = items[0]
	}
	s.applySettings("workspace/configuration", raw)
}

// didChangeConfiguration re-pulls when the client can be asked (settings
// is then often null); otherwise it takes settings.memory when present.
func (s *Server) didChangeConfiguration(ctx context.Context, p *protocol.DidChangeConfigurationParams) error {
	s.mu.Lock()
	pull := s.caps.configuration
	s.mu.Unlock()
	if pull {
		go s.refreshConfiguration(context.WithoutCancel(ctx))
		return nil
	}
	m, ok := p.Settings.(map[string]any)
	if !ok {
		return nil
	}
	inner, ok := m[section]
	if !ok {
		return nil
	}
	raw, err := json.Marshal(inner)
	if err != nil {
		return err
	}
	s.cfgMu.Lock()
	defer s.cfgMu.Unlock()
	s.applySettings("didChangeConfiguration", raw)
	return nil
}

// applySettings makes raw the pulled layer if the result is valid, and
// republishes every served folder when the configuration changed. An
// invalid value is refused with a log line and a shown warning naming the
// key; the previous configuration stays. The caller holds cfgMu.
func (s *Server) applySettings(source string, raw json.RawMessage) {
	pulled, warnings, err := parseSettings(raw)
	for _, w := range warnings {
		s.log.Warningf("%s: %s", source, w)
		s.conn.Notify("window/logMessage", protocol.LogMessageParams{Type: protocol.MessageTypeWarning, Message: Name + ": " + source + ": " + w})
	}
	s.mu.Lock()
	base := s.base
	s.mu.Unlock()
	var cfg config.Config
	if err == nil {
		cfg, err = buildConfig(base, pulled)
	}
	if err != nil {
		msg := fmt.Sprintf("%s: %v; keeping the previous settings", source, err)
		s.log.Warningf("%s", msg)
		s.conn.Notify("window/showMessage", protocol.ShowMessageParams{Type: protocol.MessageTypeWarning, Message: Name + ": " + msg})
		return
	}
	s.mu.Lock()
	changed := !sameConfig(s.cfg, cfg)
	s.pulled, s.cfg = pulled, cfg
	running := s.state == stateRunning
	s.mu.Unlock()
	if !changed || !running {
		return
	}
	s.log.Infof("%s: settings changed; checking every memory folder again", source)
	for _, f := range s.served() {
		s.schedule(f, 0)
	}
}

// sameConfig compares configurations, an empty Disabled map being nil.
func sameConfig(a, b config.Config) bool {
	if len(a.Disabled) == 0 && len(b.Disabled) == 0 {
		a.Disabled, b.Disabled = nil, nil
	}
	return reflect.DeepEqual(a, b)
}

func isNull(v json.RawMessage) bool {
	v = bytes.TrimSpace(v)
	return len(v) == 0 || string(v) == "null"
}

// abbreviate shows a JSON value in a message, cut short if long.
func abbreviate(v json.RawMessage) string {
	s := string(bytes.TrimSpace(v))
	if len(s) > 40 {
		s = s[:37] + "..."
	}
	return s
}

// connClosed reports whether the connection has ended, after which a failed
// call to the client is expected and not worth a warning.
func (s *Server) connClosed() bool {
	select {
	case <-s.conn.closed:
		return true
	default:
		return false
	}
}
