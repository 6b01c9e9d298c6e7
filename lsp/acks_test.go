package lsp

import (
	"bytes"
	"testing"
	"time"
)

// TestAckSeenPastTexts: a buffer's earlier texts tell a record learned
// late that the buffer held its entry while the entry was acknowledged,
// so the user's later edit stands; a text that gave way before the store
// tells nothing (the agent's entry would be lost), and the texts kept stay
// within their bounds.
func TestAckSeenPastTexts(t *testing.T) {
	const entry = "- Tag every release from the main branch."
	without := []byte("# Decisions\n\n- [db] Use Postgres.\n")
	with := []byte("# Decisions\n\n- [db] Use Postgres.\n" + entry + "\n")
	store := time.Date(2026, 11, 30, 8, 0, 0, 0, time.UTC)

	var sn ackSeen
	sn.gaveWay(with, store.Add(-time.Second)) // the user's own line, gone before the store
	if sn.heldSince(entry, store) {
		t.Error("a text that gave way before the store counts as holding its entry")
	}
	sn.gaveWay(without, store.Add(time.Second))
	sn.gaveWay(with, store.Add(2*time.Second)) // reloaded after the store, then edited
	if !sn.heldSince(entry, store) {
		t.Error("a text that held the entry after the store does not count")
	}
	if sn.heldSince("- Something else.", store) {
		t.Error("an entry no text held counts")
	}

	for i := range 3 * pastTexts {
		sn.gaveWay(without, store.Add(time.Duration(10+i)*time.Second))
	}
	if len(sn.past) > pastTexts {
		t.Errorf("%d texts kept, at most %d", len(sn.past), pastTexts)
	}
	big := bytes.Repeat([]byte("x"), pastBytes/3+1)
	for range 5 {
		sn.gaveWay(big, store.Add(time.Minute))
	}
	total := 0
	for _, p := range sn.past {
		total += len(p.text)
	}
	if total > pastBytes {
		t.Errorf("%d bytes kept, at most %d", total, pastBytes)
	}
	sn.gaveWay(bytes.Repeat([]byte("x"), pastBytes+1), store.Add(time.Hour))
	if len(sn.past) != 0 {
		t.Errorf("a text over %d bytes left %d kept", pastBytes, len(sn.past))
	}
}
