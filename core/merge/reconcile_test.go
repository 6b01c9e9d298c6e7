package merge

import (
	"reflect"
	"strings"
	"testing"
)

func TestReconcile(t *testing.T) {
	const head = "# Decisions\n\n"
	cases := []struct {
		name                     string
		base, buffer, last, disk string
		absent                   bool // disk is nil: the file was deleted
		wantDisk, wantBuffer     string
		restored, brought        []string
		conflicts                int
	}{
		{name: "nothing changed anywhere",
			base: head + "- [a] A.\n", buffer: head + "- [a] A.\n", last: head + "- [a] A.\n", disk: head + "- [a] A.\n",
			wantDisk: head + "- [a] A.\n", wantBuffer: head + "- [a] A.\n"},
		{name: "unsaved buffer edits stay in the buffer only",
			base: head + "- [a] A.\n", buffer: head + "- [a] A.\n- [u] Mine.\n", last: head + "- [a] A.\n", disk: head + "- [a] A.\n",
			wantDisk: head + "- [a] A.\n", wantBuffer: head + "- [a] A.\n- [u] Mine.\n"},
		{name: "an agent appended; the clean buffer takes the disk",
			base: head + "- [a] A.\n", buffer: head + "- [a] A.\n", last: head + "- [a] A.\n", disk: head + "- [a] A.\n- [g] Agent.\n",
			wantDisk: head + "- [a] A.\n- [g] Agent.\n", wantBuffer: head + "- [a] A.\n- [g] Agent.\n",
			brought: []string{"- [g] Agent."}},
		{name: "an agent appended while the buffer has unsaved lines: both kept, once",
			base: head + "- [a] A.\n", buffer: head + "- [a] A.\n- [u] Mine.\n", last: head + "- [a] A.\n", disk: head + "- [a] A.\n- [g] Agent.\n",
			wantDisk: head + "- [a] A.\n- [g] Agent.\n", wantBuffer: head + "- [a] A.\n- [u] Mine.\n- [g] Agent.\n",
			brought: []string{"- [g] Agent."}},
		{name: "the user deleted a line the agent left alone: stays deleted",
			base: head + "- [a] A.\n- [b] B.\n", buffer: head + "- [a] A.\n", last: head + "- [a] A.\n- [b] B.\n", disk: head + "- [a] A.\n- [b] B.\n- [g] Agent.\n",
			wantDisk: head + "- [a] A.\n- [b] B.\n- [g] Agent.\n", wantBuffer: head + "- [a] A.\n- [g] Agent.\n",
			brought: []string{"- [g] Agent."}},
		{name: "the agent updated the entry the user is editing: both lines, a conflict",
			base: head + "- [auth] Use JWT.\n", buffer: head + "- [auth] Use JWT with RS256.\n", last: head + "- [auth] Use JWT.\n", disk: head + "- [auth] Use OAuth.\n",
			wantDisk: head + "- [auth] Use OAuth.\n", wantBuffer: head + "- [auth] Use JWT with RS256.\n- [auth] Use OAuth.\n",
			brought: []string{"- [auth] Use OAuth."}, conflicts: 1},
		{name: "the editor saved before the agent's entry reached the buffer: restored",
			base: head + "- [a] A.\n", buffer: head + "- [a] A.\n- [u] Mine.\n", last: head + "- [a] A.\n- [g] Agent.\n", disk: head + "- [a] A.\n- [u] Mine.\n",
			wantDisk: head + "- [a] A.\n- [u] Mine.\n- [g] Agent.\n", wantBuffer: head + "- [a] A.\n- [u] Mine.\n- [g] Agent.\n",
			restored: []string{"- [g] Agent."}, brought: []string{"- [g] Agent."}},
		{name: "a save of a buffer newer than ours still restores",
			base: head + "- [a] A.\n", buffer: head + "- [a] A.\n", last: head + "- [a] A.\n- [g] Agent.\n", disk: head + "- [a] A.\n- [u] Typed.\n",
			wantDisk: head + "- [a] A.\n- [u] Typed.\n- [g] Agent.\n", wantBuffer: head + "- [a] A.\n- [u] Typed.\n- [g] Agent.\n",
			restored: []string{"- [g] Agent."}, brought: []string{"- [u] Typed.", "- [g] Agent."}},
		{name: "a save that kept everything: nothing restored",
			base: head + "- [a] A.\n", buffer: head + "- [a] A.\n- [g] Agent.\n- [u] Mine.\n", last: head + "- [a] A.\n- [g] Agent.\n", disk: head + "- [a] A.\n- [g] Agent.\n- [u] Mine.\n",
			wantDisk: head + "- [a] A.\n- [g] Agent.\n- [u] Mine.\n", wantBuffer: head + "- [a] A.\n- [g] Agent.\n- [u] Mine.\n"},
		{name: "a plain save",
			base: head + "- [a] A.\n", buffer: head + "- [a] A.\n- [u] Mine.\n", last: head + "- [a] A.\n", disk: head + "- [a] A.\n- [u] Mine.\n",
			wantDisk: head + "- [a] A.\n- [u] Mine.\n", wantBuffer: head + "- [a] A.\n- [u] Mine.\n"},
		{name: "the file was deleted: the buffer is left alone, nothing written",
			base: head + "- [a] A.\n", buffer: head + "- [a] A.\n- [u] Mine.\n", last: head + "- [a] A.\n", absent: true,
			wantBuffer: head + "- [a] A.\n- [u] Mine.\n"},
		{name: "CRLF buffer keeps its endings",
			base: "- [a] A.\r\n", buffer: "- [a] A.\r\n- [u] Mine.\r\n", last: "- [a] A.\r\n", disk: "- [a] A.\r\n- [g] Agent.\r\n",
			wantDisk: "- [a] A.\r\n- [g] Agent.\r\n", wantBuffer: "- [a] A.\r\n- [u] Mine.\r\n- [g] Agent.\r\n",
			brought: []string{"- [g] Agent."}},
		{name: "the same entry added on both sides: once",
			base: head, buffer: head + "- Same fact.\n", last: head, disk: head + "- Same fact.\n",
			wantDisk: head + "- Same fact.\n", wantBuffer: head + "- Same fact.\n"},
	}
	for _, c := range cases {
		t.Run(c.name, func(t *testing.T) {
			var disk []byte
			if !c.absent {
				disk = []byte(c.disk)
			}
			r := Reconcile([]byte(c.base), []byte(c.buffer), []byte(c.last), disk)
			if got := string(r.Disk); got != c.wantDisk || (c.absent && r.Disk != nil) {
				t.Errorf("disk:\n%q\nwant\n%q", got, c.wantDisk)
			}
			if got := string(r.Buffer); got != c.wantBuffer {
				t.Errorf("buffer:\n%q\nwant\n%q", got, c.wantBuffer)
			}
			if !reflect.DeepEqual(r.Restored, c.restored) {
				t.Errorf("restored %q, want %q", r.Restored, c.restored)
			}
			if !reflect.DeepEqual(r.Brought, c.brought) {
				t.Errorf("brought %q, want %q", r.Brought, c.brought)
			}
			if len(r.Conflicts) != c.conflicts {
				t.Errorf("%d conflicts, want %d", len(r.Conflicts), c.conflicts)
			}
		})
	}
}

// Reconciling what Reconcile returned changes nothing: once the buffer and
// the disk hold its answer and base is that disk text, they are in step.
func TestReconcileIsStable(t *testing.T) {
	base := []byte("# D\n\n- [a] A.\n")
	buf := []byte("# D\n\n- [a] A.\n- [u] Mine.\n")
	disk := []byte("# D\n\n- [a] A.\n- [g] Agent.\n")
	r := Reconcile(base, buf, base, disk)
	again := Reconcile(r.Disk, r.Buffer, r.Disk, r.Disk)
	if string(again.Buffer) != string(r.Buffer) || string(again.Disk) != string(r.Disk) || again.Brought != nil || again.Restored != nil {
		t.Fatalf("not stable: %+v then %+v", r, again)
	}
}

// Carry follows theirs' removal of a line other than an entry (cleanup
// turning a bullet into an entry) where Merge, for git, keeps ours' layout.
func TestCarryFollowsRemovals(t *testing.T) {
	base := "# D\n\n* Use Postgres.\n- [a] A.\n"
	ours := "# D\n\n* Use Postgres.\n- [a] A.\n- [u] Mine.\n"
	theirs := "# D\n\n- [postgres] Use Postgres.\n- [a] A.\n"
	if got, want := string(Carry([]byte(base), []byte(ours), []byte(theirs)).Data), "# D\n\n- [postgres] Use Postgres.\n- [a] A.\n- [u] Mine.\n"; got != want {
		t.Errorf("Carry:\n%q\nwant\n%q", got, want)
	}
	if got := string(Merge([]byte(base), []byte(ours), []byte(theirs)).Data); !strings.Contains(got, "* Use Postgres.") {
		t.Errorf("Merge dropped ours' bullet: %q", got)
	}
}
