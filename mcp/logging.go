package mcp

import (
	"context"
	"fmt"
	"log/slog"
	"strings"

	"github.com/tliron/commonlog"
)

// LogHandler lets the MCP SDK, which logs through slog, write through the
// project's one logging stack (commonlog): one --log-level, one format, one
// destination (stderr or --log-file) for both servers.
func LogHandler(l commonlog.Logger) slog.Handler { return &logHandler{log: l} }

type logHandler struct {
	log   commonlog.Logger
	attrs string // "k=v …" added by WithAttrs, already formatted
	group string
}

func commonLevel(l slog.Level) commonlog.Level {
	switch {
	case l >= slog.LevelError:
		return commonlog.Error
	case l >= slog.LevelWarn:
		return commonlog.Warning
	case l >= slog.LevelInfo:
		return commonlog.Info
	}
	return commonlog.Debug
}

func (h *logHandler) Enabled(_ context.Context, l slog.Level) bool {
	return h.log.AllowLevel(commonLevel(l))
}

func (h *logHandler) Handle(_ context.Context, r slog.Record) error {
	var b strings.Builder
	b.WriteString(r.Message)
	b.WriteString(h.attrs)
	r.Attrs(func(a slog.Attr) bool {
		h.appendAttr(&b, a)
		return true
	})
	h.log.Log(commonLevel(r.Level), 0, b.String())
	return nil
}

func (h *logHandler) appendAttr(b *strings.Builder, a slog.Attr) {
	if a.Equal(slog.Attr{}) {
		return
	}
	key := a.Key
	if h.group != "" {
		key = h.group + "." + key
	}
	fmt.Fprintf(b, " %s=%q", key, a.Value.Resolve().String())
}

func (h *logHandler) WithAttrs(attrs []slog.Attr) slog.Handler {
	var b strings.Builder
	b.WriteString(h.attrs)
	for _, a := range attrs {
		h.appendAttr(&b, a)
	}
	return &logHandler{log: h.log, attrs: b.String(), group: h.group}
}

func (h *logHandler) WithGroup(name string) slog.Handler {
	if name == "" {
		return h
	}
	g := name
	if h.group != "" {
		g = h.group + "." + name
	}
	return &logHandler{log: h.log, attrs: h.attrs, group: g}
}
