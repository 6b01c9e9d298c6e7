package lsp

import (
	"bytes"
	"context"
	"encoding/json"
	"fmt"
	"reflect"

	protocol "github.com/tliron/glsp/protocol_3_16"

	"github.com/memory-lsp/memory-lsp/core/config"
	"github.com/memory-lsp/memory-lsp/core/rules"
)

// Settings reach the server from three places, each overriding the one
// before key by key: the defaults, initializationOptions (s.base, read once
// in initialize), and the `memory` section pulled with
// workspace/configuration (or, from a client that cannot be asked, the
// `memory` object of didChangeConfiguration's settings) (s.pulled). Each
// layer is read by the decoder every front end shares (rules.ParseSettings)
// and taken whole or not at all: a layer with an unknown key, an unknown
// rule or category, a value of the wrong type or out of range is refused
// with an error shown to the user that names the key (and the nearest known
// name), and the configuration in force before it stays: applying only the
// rest would leave a configuration half changed, which is harder to notice
// than one left as it was.

func init() {
	onNotification("workspace/didChangeConfiguration", (*Server).didChangeConfiguration)
}

// readLayer decodes one settings layer; an absent value is no settings.
func readLayer(raw json.RawMessage) (config.Settings, error) {
	if len(bytes.TrimSpace(raw)) == 0 {
		return config.Settings{}, nil
	}
	return rules.ParseSettings(raw)
}

// buildConfig is the configuration of the layers over the defaults; the
// layers are validated together (a threshold in one may rely on one in the
// other).
func buildConfig(base, pulled config.Settings) (config.Config, error) {
	return config.Default().Merge(base.Overlay(pulled))
}

// initSettings reads initializationOptions. A refused layer never fails
// initialize: the defaults stay in force, and the client is shown the error
// after initialized (reportStartup).
func (s *Server) initSettings(raw json.RawMessage) (base config.Settings, cfg config.Config, notes []pendingNote) {
	base, err := readLayer(raw)
	if err == nil {
		cfg, err = buildConfig(base, config.Settings{})
	}
	if err != nil {
		msg := fmt.Sprintf("initializationOptions: %v; using the default settings", err)
		s.log.Errorf("%s", msg)
		notes = append(notes, pendingNote{"window/showMessage",
			protocol.ShowMessageParams{Type: protocol.MessageTypeError, Message: Name + ": " + msg}})
		return config.Settings{}, config.Default(), notes
	}
	return base, cfg, nil
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
	sec := config.Section
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
	inner, ok := m[config.Section]
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
// invalid layer is refused with a log line and an error shown to the user
// naming the key; the previous configuration stays. The caller holds cfgMu.
func (s *Server) applySettings(source string, raw json.RawMessage) {
	pulled, err := readLayer(raw)
	s.mu.Lock()
	base := s.base
	s.mu.Unlock()
	var cfg config.Config
	if err == nil {
		cfg, err = buildConfig(base, pulled)
	}
	if err != nil {
		msg := fmt.Sprintf("%s: %v; keeping the previous settings", source, err)
		s.log.Errorf("%s", msg)
		s.conn.Notify("window/showMessage", protocol.ShowMessageParams{Type: protocol.MessageTypeError, Message: Name + ": " + msg})
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
