package memory

import (
	"fmt"

	"github.com/memory-lsp/memory-lsp/core/config"
	"github.com/memory-lsp/memory-lsp/core/store"
)

// Journal is what a long-lived process serving a .memory folder has learned
// of its journal of acknowledged stores (store.JournalName). The journal is
// a file in the work tree, so a record is trusted only as one of our
// writers makes it: appended since the process last read the journal (its
// ID is new; no clock is compared, since an agent may run in a VM whose
// clock drifted), an entry store validation lets through, in a journal git
// does not track.
//
// The IDs it has seen are guarded by the caller's lock (Learn, Learned),
// so that the caller judges them together with the records it tracks;
// Read and Records read the disk and take no lock.
type Journal struct {
	dir    string
	ids    map[string]bool
	before []store.Ack
	git    store.JournalGit
}

// OpenJournal notes the IDs in dir's journal as the folder begins to be
// served: those records were written while no buffer of this process could
// save over them, and every record with another ID was written since.
func OpenJournal(dir string) *Journal {
	j := &Journal{dir: dir, ids: map[string]bool{}}
	j.before, _ = store.ReadJournal(dir)
	for _, r := range j.before {
		j.ids[r.ID] = true
	}
	return j
}

// Before are the journal's records as the folder began to be served.
func (j *Journal) Before() []store.Ack { return j.before }

// Records are the journal's records as it holds them now, as a hint: read
// without the lock, nothing judged.
func (j *Journal) Records() []store.Ack {
	recs, _ := store.ReadJournal(j.dir)
	return recs
}

// Read reads the journal (inside the lock) for Learn: none of its records
// when git tracks it. problems are what the caller should log: the read's
// error, a journal git tracks the first time it is seen.
func (j *Journal) Read() (recs []store.Ack, problems []error) {
	recs, err := store.ReadJournal(j.dir)
	if err != nil {
		problems = append(problems, err)
	}
	if len(recs) == 0 {
		return recs, problems
	}
	if tracked, asked := j.git.Tracked(j.dir); tracked {
		if asked {
			problems = append(problems, fmt.Errorf("%s/%s is tracked by git: it came from a commit, and no entry is put back from it; remove it from the repository (git rm --cached)", j.dir, store.JournalName))
		}
		return nil, problems
	}
	return recs, problems
}

// Learn takes recs, what Read gave, as the journal now: it returns the
// records with an entry not seen at an earlier read, in the journal's
// order, with an error for each that is not trusted. The caller holds the
// lock that guards j.
func (j *Journal) Learn(recs []store.Ack, cfg config.Config) (fresh []store.Ack, untrusted []error) {
	// Only the IDs still in the journal can be read again.
	seen := make(map[string]bool, len(recs))
	for _, r := range recs {
		seen[r.ID] = j.ids[r.ID]
	}
	j.ids = seen
	for _, r := range recs {
		if j.ids[r.ID] {
			continue
		}
		j.ids[r.ID] = true
		if r.Add == "" {
			continue
		}
		if err := ValidAck(r, cfg); err != nil {
			untrusted = append(untrusted, fmt.Errorf("%s: a journal record is not trusted: %w", j.dir, err))
			continue
		}
		fresh = append(fresh, r)
	}
	return fresh, untrusted
}

// Learned reports whether the record with id was in the journal at the
// last Learn (or as the folder began to be served). The caller holds the
// lock that guards j.
func (j *Journal) Learned(id string) bool { return j.ids[id] }
