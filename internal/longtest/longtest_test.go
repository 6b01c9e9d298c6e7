package longtest

import "testing"

// TestSkipFollowsTheTag: without the long tag a long test is skipped, with
// it it runs; .ci/run runs the tagged build (TestReadmeFirstCommands).
func TestSkipFollowsTheTag(t *testing.T) {
	ran := false
	t.Run("long", func(t *testing.T) {
		Skip(t)
		ran = true
	})
	if ran != Enabled() {
		t.Errorf("a long test ran: %v; built with the long tag: %v", ran, Enabled())
	}
}
