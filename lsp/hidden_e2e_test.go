package lsp_test

import (
	"errors"
	"testing"

	"github.com/memory-lsp/memory-lsp/internal/lsptest"
	"github.com/memory-lsp/memory-lsp/internal/poison"
)

// TestE2EStoreRefusesHiddenText: the memory.storeMemory command of the
// binary refuses each content holding hidden text with an error that shows
// where it is and what it says, sends the editor no edit, and leaves every
// file of .memory/ byte-identical.
func TestE2EStoreRefusesHiddenText(t *testing.T) {
	root := poison.Workspace(t)
	c := startBinary(t, root)
	c.Initialize(lsptest.InitializeParams(root, map[string]any{"review": "off"}))
	poison.Refused(t, root, func(content string) (string, bool) {
		res, err := c.Request("workspace/executeCommand", map[string]any{"command": "memory.storeMemory",
			"arguments": []any{map[string]any{"category": "Instruction", "content": content}}})
		var e *lsptest.Error
		if !errors.As(err, &e) {
			return string(res), false
		}
		return e.Message, true
	})
	if n := len(c.ServerRequests("workspace/applyEdit")); n != 0 {
		t.Errorf("refused stores sent %d workspace/applyEdit", n)
	}
	// With review on (the default), held for a person instead.
	h := startBinary(t, root)
	h.Initialize(lsptest.InitializeParams(root, nil))
	poison.Held(t, root, func(content string) (string, bool) {
		var res struct {
			Message string `json:"message"`
		}
		h.RequestInto("workspace/executeCommand", map[string]any{"command": "memory.storeMemory",
			"arguments": []any{map[string]any{"category": "Instruction", "content": content}}}, &res)
		return res.Message, true
	})
}
