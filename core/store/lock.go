package store

import (
	"bytes"
	"context"
	"encoding/json"
	"errors"
	"fmt"
	"io"
	"io/fs"
	"os"
	"path/filepath"
	"strconv"
	"sync"
	"time"
)

// LockFile is the name of the cross-process lock inside `.memory/`. HackLM
// Memory uses the same file (behaviour spec §16.1), so both tools exclude
// each other.
const LockFile = ".lock"

// Defaults of LockOptions; they equal HackLM's constants.
const (
	DefaultLockTries = 20
	DefaultLockStep  = 50 * time.Millisecond
	DefaultLockStale = 10 * time.Second
)

// ErrLocked is wrapped by Acquire's error when the lock stayed held by one
// holder for all tries (an unreadable lock: until it would turn stale), or
// kept changing hands for maxWaitStales × Stale.
var ErrLocked = errors.New("memory lock is held by another writer")

// ErrTakenOver is wrapped by Release's error when the lock file no longer
// holds our bytes (someone judged our lock stale and replaced it).
var ErrTakenOver = errors.New("memory lock was taken over")

// LockOptions tunes Acquire. The zero value means HackLM's defaults.
type LockOptions struct {
	// Tries is the number of attempts in a row that may find the lock held
	// by the same holder before Acquire gives up (default 20). A holder whose
	// lock is unreadable is waited for longer, until it turns stale (see
	// acquireFile).
	Tries int
	// Step is the back-off unit: after the n-th attempt in a row that found
	// the same holder, the waiter sleeps Step×n (default 50 ms, linear
	// back-off, so one holder is waited for about 10 s, as HackLM does).
	Step time.Duration
	// Stale is the age after which a lock is presumed abandoned (default 10 s).
	Stale time.Duration
	// PID is the pid written into the lock (default os.Getpid()).
	PID int
	// Now is the clock (default time.Now). Lock timestamps and file mtimes
	// are compared against it.
	Now func() time.Time
	// Sleep waits between attempts (default: a timer that also honours the
	// context given to AcquireContext).
	Sleep func(time.Duration)
	// Alive reports whether a pid names a live process (default: signal 0,
	// where ESRCH is dead and EPERM is alive). Tests inject it.
	Alive func(pid int) bool
}

func (o LockOptions) withDefaults() LockOptions {
	if o.Tries <= 0 {
		o.Tries = DefaultLockTries
	}
	if o.Step <= 0 {
		o.Step = DefaultLockStep
	}
	if o.Stale <= 0 {
		o.Stale = DefaultLockStale
	}
	if o.PID <= 0 {
		o.PID = os.Getpid()
	}
	if o.Now == nil {
		o.Now = time.Now
	}
	if o.Alive == nil {
		o.Alive = processAlive
	}
	return o
}

// Lock is a held `.memory/.lock`. Release it exactly once.
type Lock struct {
	path   string
	data   []byte // the exact bytes we wrote
	unlock func() // releases the in-process lock
	mu     sync.Mutex
	done   bool
}

// Path is the lock file's path.
func (l *Lock) Path() string { return l.path }

// procLocks is the one piece of package-level mutable state: a registry of
// in-process locks keyed by the canonical (absolute, symlink-free) `.memory`
// directory. It must be process-wide because the file lock cannot tell two
// goroutines of one process apart (both write the same pid, which is alive),
// so they would only burn each other's retries and time out; and two
// Workspace values opened on the same folder must share one lock. Entries are
// never removed (one small channel per directory ever locked).
var procLocks sync.Map // map[string]chan struct{}

func procLock(ctx context.Context, key string) (func(), error) {
	v, _ := procLocks.LoadOrStore(key, make(chan struct{}, 1))
	ch := v.(chan struct{})
	select {
	case ch <- struct{}{}:
		return func() { <-ch }, nil
	case <-ctx.Done():
		return nil, ctx.Err()
	}
}

// lockKey canonicalises dir so that different spellings of one directory
// share one in-process lock.
func lockKey(dir string) string {
	abs, err := filepath.Abs(dir)
	if err != nil {
		return filepath.Clean(dir)
	}
	if real, err := filepath.EvalSymlinks(abs); err == nil {
		return real
	}
	return abs
}

// AcquireContext takes the lock of the `.memory` directory dir: first the
// in-process lock, then `dir/.lock` with HackLM's protocol. The directory
// must exist; ctx can abort the waiting.
func AcquireContext(ctx context.Context, dir string, opt LockOptions) (*Lock, error) {
	if ctx == nil {
		ctx = context.Background()
	}
	opt = opt.withDefaults()
	path := filepath.Join(dir, LockFile)
	unlock, err := procLock(ctx, lockKey(dir))
	if err != nil {
		return nil, fmt.Errorf("locking %s: %w", path, err)
	}
	l, err := acquireFile(ctx, path, opt)
	if err != nil {
		unlock()
		return nil, err
	}
	l.unlock = unlock
	return l, nil
}

// maxQuickRetries bounds the immediate re-tries within one attempt after a
// stale lock was removed or the lock vanished between create and read. Unlike
// HackLM (§21 B10), clearing a stale lock does not use up an attempt, so the
// last attempt cannot delete a lock and then give up.
const maxQuickRetries = 4

// maxWaitStales bounds, in units of Stale, how long a waiter keeps trying
// while the lock keeps changing hands (30 s by default).
const maxWaitStales = 3

// acquireFile counts tries per holder. HackLM gives up after 20 tries
// whoever held the lock; under steady contention a waiter that sleeps ever
// longer then keeps finding the lock taken by the next writer and fails
// although nobody held it long. Here a new holder (other lock bytes, or the
// lock gone) is progress: the count and the back-off start again. A stuck
// holder is still given up on after Tries, and an endless stream of holders
// after maxWaitStales × Stale.
//
// One stuck holder is waited for longer: an unreadable lock (empty or
// malformed, no valid pid), which is what a writer killed between creating
// the lock and writing its content leaves. Such a lock turns stale by its
// mtime after Stale (inspect), but the Tries back-off ends a little earlier
// (50 ms × (1+…+19) = 9.5 s < 10 s by default), so the store would fail
// just before the lock became recoverable. Instead the waiter keeps waiting
// until the lock is due to turn stale, then recovers it on the next try; the
// wait for that holder is bounded by Stale plus one Step from when it was
// first seen, which any lock whose mtime stays put meets (its age then was
// at least zero). A lock whose mtime keeps moving, or lies in the future, is
// given up on as before.
func acquireFile(ctx context.Context, path string, opt LockOptions) (*Lock, error) {
	start := opt.Now()
	var last *holder
	var since time.Time // when last was first seen
	same, tries := 0, 0 // same: tries in a row that found last
	for {
		tries++
		var seen *holder // nil when the lock vanished every time we looked
		for quick := 0; quick < maxQuickRetries; quick++ {
			if err := ctx.Err(); err != nil {
				return nil, fmt.Errorf("locking %s: %w", path, err)
			}
			l, err := tryCreate(path, opt)
			if err == nil {
				return l, nil
			}
			if !errors.Is(err, fs.ErrExist) {
				return nil, fmt.Errorf("locking %s: %w", path, err)
			}
			h, err := inspect(path, opt)
			if errors.Is(err, fs.ErrNotExist) {
				continue // released meanwhile: try again at once
			}
			if err != nil {
				return nil, fmt.Errorf("locking %s: %w", path, err)
			}
			seen = h
			if !h.stale {
				break
			}
			if err := removeStale(path, h.data, opt); err != nil {
				return nil, fmt.Errorf("locking %s: removing stale lock (%s): %w", path, h.describe(), err)
			}
		}
		now := opt.Now()
		if seen == nil || last == nil || !bytes.Equal(seen.data, last.data) {
			same, since = 0, now
		}
		same++
		if seen != nil {
			last = seen
		}
		d := opt.Step * time.Duration(same)
		if same >= opt.Tries {
			wait, ok := untilStale(seen, now.Sub(since), opt)
			if !ok {
				break
			}
			d = min(d, wait)
		}
		if waited := now.Sub(start); waited >= maxWaitStales*opt.Stale {
			return nil, fmt.Errorf("could not acquire %s in %v: it changed hands all the time (%d tries, last held by %s): %w",
				path, waited.Round(time.Millisecond), tries, describe(last), ErrLocked)
		}
		if err := sleep(ctx, opt, d); err != nil {
			return nil, fmt.Errorf("locking %s: %w", path, err)
		}
	}
	return nil, fmt.Errorf("could not acquire %s after %d tries (held by %s): %w", path, tries, describe(last), ErrLocked)
}

// untilStale is how long to wait for h, an unreadable lock that has used up
// the tries, to turn stale: until just past Stale of age by its mtime. ok is
// false when h is a readable lock (a live holder, given up on after the
// tries), or when h would not be stale within Stale plus one Step of being
// first seen, waited ago.
func untilStale(h *holder, waited time.Duration, opt LockOptions) (d time.Duration, ok bool) {
	if h == nil || h.pid != 0 || h.stale {
		return 0, false
	}
	// inspect's test is age > Stale, so wait a little past it.
	d = opt.Stale - h.age + min(time.Millisecond, opt.Step)
	if waited+d > opt.Stale+opt.Step {
		return 0, false
	}
	return d, true
}

func describe(h *holder) string {
	if h == nil {
		return "another writer"
	}
	return h.describe()
}

func sleep(ctx context.Context, opt LockOptions, d time.Duration) error {
	if opt.Sleep != nil {
		opt.Sleep(d)
		return ctx.Err()
	}
	t := time.NewTimer(d)
	defer t.Stop()
	select {
	case <-t.C:
		return nil
	case <-ctx.Done():
		return ctx.Err()
	}
}

// lockBytes is HackLM's lock content: compact JSON, pid then ts (Unix ms), no
// trailing newline.
func lockBytes(pid int, now time.Time) []byte {
	return fmt.Appendf(nil, `{"pid":%d,"ts":%d}`, pid, now.UnixMilli())
}

// tryCreate makes one exclusive-create attempt. An fs.ErrExist error means
// the lock is held.
func tryCreate(path string, opt LockOptions) (*Lock, error) {
	f, err := os.OpenFile(path, os.O_CREATE|os.O_EXCL|os.O_WRONLY, 0o666)
	if err != nil {
		return nil, err
	}
	data := lockBytes(opt.PID, opt.Now())
	// No fsync: other processes read the lock through the page cache, and
	// after a machine crash it is stale by age anyway. Skipping it saves a
	// disk flush on every store.
	_, err = f.Write(data)
	if cerr := f.Close(); err == nil {
		err = cerr
	}
	if err != nil {
		// The file is ours (we created it); do not leave a half-written lock.
		os.Remove(path)
		return nil, fmt.Errorf("writing lock: %w", err)
	}
	return &Lock{path: path, data: data}, nil
}

// holder describes an existing lock file and whether it is stale.
type holder struct {
	data   []byte
	pid    int // 0 when the content has no valid pid
	age    time.Duration
	byTime bool // age measured from the file's mtime, not from ts
	stale  bool
	why    string
}

func (h *holder) describe() string {
	age := h.age.Round(100 * time.Millisecond)
	if h.pid > 0 {
		if h.byTime {
			return fmt.Sprintf("pid %d for %s by mtime", h.pid, age)
		}
		return fmt.Sprintf("pid %d for %s", h.pid, age)
	}
	if len(h.data) == 0 {
		return fmt.Sprintf("an empty lock file for %s", age)
	}
	s := h.data
	if len(s) > 40 {
		s = s[:40]
	}
	return fmt.Sprintf("an unreadable lock %q for %s", s, age)
}

// parseLock reads HackLM's JSON. pid must be a positive integer; ts any
// finite number (ms). Duplicate keys: the last wins, as in JSON.parse.
func parseLock(data []byte) (pid int, ts float64, hasTS, ok bool) {
	var m map[string]json.RawMessage
	if err := json.Unmarshal(data, &m); err != nil {
		return 0, 0, false, false
	}
	if raw, found := m["ts"]; found {
		if v, err := strconv.ParseFloat(string(bytes.TrimSpace(raw)), 64); err == nil {
			ts, hasTS = v, true
		}
	}
	raw, found := m["pid"]
	if !found {
		return 0, ts, hasTS, false
	}
	p, err := strconv.Atoi(string(bytes.TrimSpace(raw)))
	if err != nil || p <= 0 {
		return 0, ts, hasTS, false
	}
	return p, ts, hasTS, true
}

// inspect reads the lock file and judges it. Rules (ours, stricter than
// HackLM §16.1): a well-formed lock is stale when its ts is more than Stale
// old or its pid is dead (EPERM counts as alive); a lock that is empty,
// unparseable or has no valid pid is stale only when its mtime is more than
// Stale old. A missing or absurd ts (further in the future than Stale, i.e.
// clock skew) is replaced by the mtime for the age test.
func inspect(path string, opt LockOptions) (*holder, error) {
	data, err := readLock(path)
	if err != nil {
		return nil, err
	}
	fi, err := os.Lstat(path)
	if err != nil {
		return nil, err
	}
	now := opt.Now()
	mage := now.Sub(fi.ModTime())
	h := &holder{data: data}
	pid, ts, hasTS, ok := parseLock(data)
	if !ok {
		h.age, h.byTime = mage, true
		h.stale = mage > opt.Stale
		h.why = "malformed"
		return h, nil
	}
	h.pid = pid
	if hasTS {
		h.age = time.Duration((float64(now.UnixMilli()) - ts) * float64(time.Millisecond))
	}
	if !hasTS || h.age < -opt.Stale {
		h.age, h.byTime = mage, true
	}
	switch {
	case h.age > opt.Stale:
		h.stale, h.why = true, "too old"
	case !opt.Alive(pid):
		h.stale, h.why = true, "holder is dead"
	}
	return h, nil
}

// breakerStale is how old a breaker file must be before a waiter treats it
// as left by a crash: a breaker is held for a read and an unlink, so any real
// one is gone within milliseconds.
const breakerStale = 2 * time.Second

// removeStale removes the lock file we judged stale, without ever deleting a
// lock that another waiter took meanwhile.
//
// Two waiters can judge the same stale lock at once; if both simply removed
// it, the second could remove the lock the first has just created, and both
// would go on as holders. So a waiter first takes a short-lived breaker file
// (`.lock.break`, created exclusively), judges the lock again under it — same
// bytes, still stale — and only then removes it. A waiter that finds the
// breaker taken retries later: whoever holds it either removes the stale
// lock or finds it already replaced. HackLM removes stale locks without a
// breaker; that race exists between HackLM's own processes too, and is as
// narrow as one read and one unlink.
func removeStale(path string, judged []byte, opt LockOptions) error {
	brk := path + ".break"
	f, err := os.OpenFile(brk, os.O_CREATE|os.O_EXCL|os.O_WRONLY, 0o666)
	if errors.Is(err, fs.ErrExist) {
		if fi, serr := os.Stat(brk); serr == nil && time.Since(fi.ModTime()) > breakerStale {
			os.Remove(brk) // left by a crash between taking and dropping it
		}
		return nil
	}
	if err != nil {
		return err
	}
	f.Close()
	defer os.Remove(brk)
	h, err := inspect(path, opt)
	if errors.Is(err, fs.ErrNotExist) {
		return nil
	}
	if err != nil {
		return err
	}
	if !h.stale || !bytes.Equal(h.data, judged) {
		return nil // replaced since we judged it: not ours to remove
	}
	if err := os.Remove(path); err != nil && !errors.Is(err, fs.ErrNotExist) {
		return err
	}
	return nil
}

// maxLockBytes bounds how much of a lock file is read. HackLM's lock is
// about 40 bytes; a huge .lock (or a FIFO, opened without blocking) must not
// exhaust memory or hang a writer: its first bytes already fail to parse,
// which makes it a malformed lock, judged by its mtime.
const maxLockBytes = 4096

func readLock(path string) ([]byte, error) {
	f, err := openRead(path)
	if err != nil {
		return nil, err
	}
	defer f.Close()
	if fi, err := f.Stat(); err != nil {
		return nil, err
	} else if !fi.Mode().IsRegular() {
		return nil, fmt.Errorf("%s is not a regular file (%s)", path, fi.Mode().Type())
	}
	return io.ReadAll(io.LimitReader(f, maxLockBytes+1))
}

// Held reports whether the lock file still holds exactly our bytes. A
// holder that was paused past Stale (a stopped process, a sleeping laptop, a
// debugger) may have been judged stale and replaced; it must not write on.
func (l *Lock) Held() bool {
	got, err := readLock(l.path)
	return err == nil && bytes.Equal(got, l.data)
}

// Release removes the lock file if it still holds exactly our bytes (HackLM
// deletes whatever is there, §21 B10) and always releases the in-process
// lock. If the file was replaced, it is left alone and the error wraps
// ErrTakenOver.
func (l *Lock) Release() error {
	l.mu.Lock()
	defer l.mu.Unlock()
	if l.done {
		return fmt.Errorf("releasing %s: already released", l.path)
	}
	l.done = true
	if l.unlock != nil {
		defer l.unlock()
	}
	// Read, compare, remove: the file could only change between the compare
	// and the remove if someone judged our lock stale (held > Stale) in that
	// instant; renaming it aside first would instead open a window in which
	// the lock is missing even when it is not ours.
	got, err := readLock(l.path)
	if errors.Is(err, fs.ErrNotExist) {
		return fmt.Errorf("releasing %s: lock file is gone: %w", l.path, ErrTakenOver)
	}
	if err != nil {
		return fmt.Errorf("releasing %s: %w", l.path, err)
	}
	if !bytes.Equal(got, l.data) {
		return fmt.Errorf("releasing %s: it now holds %q, not our %q; left in place: %w", l.path, got, l.data, ErrTakenOver)
	}
	if err := os.Remove(l.path); err != nil && !errors.Is(err, fs.ErrNotExist) {
		return fmt.Errorf("releasing %s: %w", l.path, err)
	}
	return nil
}
