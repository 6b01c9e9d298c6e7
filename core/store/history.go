package store

import (
	"bufio"
	"bytes"
	"context"
	"errors"
	"fmt"
	"io"
	"path"
	"strconv"
	"strings"
	"time"
)

// What git's history says of the project: where removed paths went, when
// each line of a memory file was written, when a path last changed. Each
// call runs at most one git process, which reads the history from the
// commit HEAD named when the project was listed (a blame from HEAD): every
// answer is a function of Project.history (and of the memory file's
// content, for a blame), so a caller may keep the answers of one listing
// for the next while SameHistory holds. Outside git there is no history, and a git that fails gives none
// rather than an error the rules would have to report.

// head is the commit HEAD named when the project was listed, "" outside
// git or before the first commit.
func (p *Project) head() string {
	h, _, _ := strings.Cut(p.history, " ")
	return h
}

// Move is what became of a path that no longer exists: renamed (New is
// where it went, following later renames) or deleted, in Commit at When.
type Move struct {
	New    string // "" for a deletion
	Commit string // abbreviated hash
	When   time.Time
	// Seq orders the moves by commit: the newest commit read is 1, an
	// older one higher.
	Seq int
}

// Moves reads the renames and deletions of the last depth commits (newest
// first), by old path. Outside git, or when git fails, there are none.
//
// The commits are not filtered by git (--diff-filter): with a filter, -n
// counts the commits that pass it, and git would walk the whole history to
// find depth commits that removed something. The first commit's files are
// not listed (log.showRoot): it removes nothing, and in a repository
// imported in one commit it adds every file.
func (p *Project) Moves(ctx context.Context, depth int) map[string]Move {
	if p.head() == "" || depth <= 0 {
		return nil
	}
	out, err := git(ctx, p.Top, "-c", "core.quotePath=false", "-c", "log.showRoot=false", "log", "--no-merges", "--format=%x00%h %ct",
		"--name-status", "-M", fmt.Sprintf("-n%d", depth), p.head(), "--")
	if err != nil {
		return nil
	}
	moves := map[string]Move{}
	var at Move
	for line := range strings.SplitSeq(string(out), "\n") {
		if head, ok := strings.CutPrefix(line, "\x00"); ok {
			h, ct, _ := strings.Cut(head, " ")
			at = Move{Commit: h, When: unixTime(ct), Seq: at.Seq + 1}
			continue
		}
		f := strings.Split(line, "\t")
		switch {
		case len(f) == 3 && strings.HasPrefix(f[0], "R"):
			if _, seen := moves[f[1]]; !seen { // a newer move of the same path wins
				m := at
				m.New = f[2]
				moves[f[1]] = m
			}
		case len(f) == 2 && f[0] == "D":
			if _, seen := moves[f[1]]; !seen {
				moves[f[1]] = at
			}
		}
	}
	// A path renamed twice leads to where it is now: follow a later move of
	// the new path (a move of that path before it was this one's target
	// is an older story).
	for old, m := range moves {
		for hops := 0; m.New != "" && hops < 16; hops++ {
			next, ok := moves[m.New]
			if !ok || next.Seq >= m.Seq {
				break
			}
			m.New, m.Commit, m.When, m.Seq = next.New, next.Commit, next.When, next.Seq
		}
		moves[old] = m
	}
	return moves
}

// Blame is when each line of the memory file rel (relative to Top) was last
// committed, by line (index 0 is line 1); a line not committed yet has the
// zero time. Only a memory file is blamed: it is small, and its lines are
// what the rules ask about.
func (p *Project) Blame(ctx context.Context, rel string) ([]time.Time, error) {
	if !p.Git {
		return nil, fmt.Errorf("blaming %s: not in a git work tree", rel)
	}
	if !p.inMemory(rel) {
		return nil, fmt.Errorf("blaming %s: not a memory file of the workspace", rel)
	}
	if p.head() == "" {
		return nil, fmt.Errorf("blaming %s: no commit yet", rel)
	}
	// From HEAD as it is now: git before 2.41 blames the work tree's
	// content from HEAD only (--contents takes no commit). A commit made
	// since the listing, even one undone since, is seen by the next
	// listing, whose key differs (HEAD's reflog is part of it).
	lines, err := blame(ctx, p.Top, rel)
	if err != nil {
		return nil, err
	}
	times := make([]time.Time, len(lines))
	for i, l := range lines {
		if l.Committed {
			times[i] = l.committed
		}
	}
	return times, nil
}

// LineOrigin is who last changed one line of a file, and whether that was
// after a given commit.
type LineOrigin struct {
	// Since: changed after the commit; false when the line is as it was
	// there.
	Since bool
	// Committed is false for a line changed in the work tree only (git's
	// "Not Committed Yet"); Commit, Author, Email and When are then empty.
	Committed     bool
	Commit        string // abbreviated hash
	Author, Email string
	When          time.Time // the author's date
	committed     time.Time // the committer's date, for Blame
}

// parseBlame reads `git blame --line-porcelain`: one LineOrigin per line
// of the file, in order. Since is set for every line not marked as a
// boundary.
func parseBlame(out []byte) ([]LineOrigin, error) {
	var lines []LineOrigin
	var cur LineOrigin
	header := true
	sc := bufio.NewScanner(bytes.NewReader(out))
	sc.Buffer(make([]byte, 64*1024), 16<<20)
	for sc.Scan() {
		line := sc.Text()
		if header { // "<hash> <orig line> <final line> [<group size>]"
			hash, _, _ := strings.Cut(line, " ")
			cur = LineOrigin{Since: true, Committed: strings.Trim(hash, "0") != ""}
			if cur.Committed {
				cur.Commit = hash[:min(len(hash), 7)]
			}
			header = false
			continue
		}
		key, val, _ := strings.Cut(line, " ")
		switch {
		case strings.HasPrefix(line, "\t"): // the line itself ends its block
			if !cur.Committed {
				cur = LineOrigin{Since: cur.Since}
			}
			lines = append(lines, cur)
			header = true
		case key == "author":
			cur.Author = val
		case key == "author-mail":
			cur.Email = strings.TrimSuffix(strings.TrimPrefix(val, "<"), ">")
		case key == "author-time":
			cur.When = unixTime(val)
		case key == "committer-time":
			cur.committed = unixTime(val)
		case key == "boundary":
			cur.Since = false
		}
	}
	return lines, sc.Err()
}

// ErrNoGit: the folder is not in a git work tree.
var ErrNoGit = errors.New("not in a git work tree")

// GitCommit resolves ref to a commit hash in the work tree holding dir:
// ErrNoGit outside git, an error naming ref when git cannot resolve it.
func GitCommit(ctx context.Context, dir, ref string) (string, error) {
	out, err := git(ctx, dir, "rev-parse", "--verify", "--quiet", "--end-of-options", ref+"^{commit}")
	if err == nil {
		return strings.TrimSpace(string(out)), nil
	}
	if _, e := git(ctx, dir, "rev-parse", "--git-dir"); e != nil {
		return "", ErrNoGit
	}
	return "", fmt.Errorf("git knows no commit %q", ref)
}

// BlameSince is the origin of each line of the memory file name in the
// folder dir as the work tree holds it (index 0 is line 1), relative to
// commit: one git blame that stops at commit. A file git does not track
// has no history: nil, every line new and not committed.
func BlameSince(ctx context.Context, dir, name, commit string) ([]LineOrigin, error) {
	lines, err := blame(ctx, dir, name, "--root", "^"+commit)
	if err != nil && strings.Contains(err.Error(), "no such path") {
		return nil, nil
	}
	return lines, err
}

// blame runs git blame of name (relative to dir) with the options extra
// and reads its porcelain, line by line.
func blame(ctx context.Context, dir, name string, extra ...string) ([]LineOrigin, error) {
	args := append(append([]string{"blame", "--line-porcelain"}, extra...), "--", name)
	out, err := git(ctx, dir, args...)
	if err != nil {
		return nil, fmt.Errorf("blaming %s: %w", name, err)
	}
	lines, err := parseBlame(out)
	if err != nil {
		return nil, fmt.Errorf("blaming %s: %w", name, err)
	}
	return lines, nil
}

// FileAt is the file name (relative to the folder dir) as commit holds it;
// ok is false when it held no such file. A file of more than limit bytes
// is an error naming its size: it is never read.
func FileAt(ctx context.Context, dir, name, commit string, limit int64) (data []byte, ok bool, err error) {
	spec := commit + ":./" + name
	size, err := git(ctx, dir, "cat-file", "-s", spec)
	if err != nil {
		if msg := err.Error(); strings.Contains(msg, "does not exist") || strings.Contains(msg, "but not in") {
			return nil, false, nil
		}
		return nil, false, fmt.Errorf("reading %s at %s: %w", name, commit, err)
	}
	if n, err := strconv.ParseInt(strings.TrimSpace(string(size)), 10, 64); err != nil || n > limit {
		return nil, false, fmt.Errorf("reading %s at %s: %s bytes, over the %d it may hold", name, commit, strings.TrimSpace(string(size)), limit)
	}
	out, err := git(ctx, dir, "cat-file", "blob", spec)
	if err != nil {
		return nil, false, fmt.Errorf("reading %s at %s: %w", name, commit, err)
	}
	return out, true, nil
}

// StagedRemovals lists the files HEAD holds that the index no longer does
// (a `git mv` or `git rm` not committed yet), relative to the top of dir's
// work tree, with every folder above them: few, however large the
// repository, and read by one git run.
func StagedRemovals(ctx context.Context, dir string) (map[string]bool, error) {
	out, err := git(ctx, dir, "diff-index", "--cached", "--no-renames", "--diff-filter=D", "--name-only", "-z", "HEAD", "--")
	if err != nil {
		return nil, fmt.Errorf("listing what the index lost since HEAD: %w", err)
	}
	gone := map[string]bool{}
	for _, p := range strings.Split(string(out), "\x00") {
		for ; p != "" && p != "." && !gone[p]; p = path.Dir(p) {
			gone[p] = true
		}
	}
	return gone, nil
}

// TreeAt lists the folder dir/folder ("" for dir itself) as commit holds
// it: each name it holds, true for a folder (a submodule counts as one).
// ok is false when commit holds no such folder.
func TreeAt(ctx context.Context, dir, folder, commit string) (names map[string]bool, ok bool, err error) {
	out, err := git(ctx, dir, "ls-tree", "-z", commit+":./"+folder)
	if err != nil {
		if ctx.Err() != nil {
			return nil, false, fmt.Errorf("listing %s at %s: %w", folder, commit, ctx.Err())
		}
		// git names a missing folder in several ways ("does not exist",
		// "Not a valid object name", "not a tree object"): whichever, the
		// commit does not hold it as a folder.
		return nil, false, nil
	}
	names = map[string]bool{}
	for _, rec := range strings.Split(string(out), "\x00") {
		meta, name, found := strings.Cut(rec, "\t")
		if !found {
			continue
		}
		f := strings.Fields(meta) // mode, type, object
		names[name] = len(f) >= 2 && (f[1] == "tree" || f[1] == "commit")
	}
	return names, true, nil
}

// LastChange is the last commit that changed rel (a file or folder,
// relative to Top) and its time; ok is false outside git, for a path no
// commit touched, or when git fails.
func (p *Project) LastChange(ctx context.Context, rel string) (commit string, when time.Time, ok bool) {
	if p.head() == "" {
		return "", time.Time{}, false
	}
	if rel == "" {
		rel = "."
	}
	out, err := git(ctx, p.Top, "log", "-1", "--format=%h %ct", p.head(), "--", rel)
	if err != nil {
		return "", time.Time{}, false
	}
	h, ct, found := strings.Cut(strings.TrimSpace(string(out)), " ")
	if !found || h == "" {
		return "", time.Time{}, false
	}
	return h, unixTime(ct), true
}

// unixTime reads git's seconds since the epoch; the zero time when it
// cannot.
func unixTime(s string) time.Time {
	n, err := strconv.ParseInt(strings.TrimSpace(s), 10, 64)
	if err != nil {
		return time.Time{}
	}
	return time.Unix(n, 0)
}

// CommitBefore is the newest commit of HEAD's history made before at (by
// committer time, to the second); ok is false outside git or when no
// commit is that old.
func (p *Project) CommitBefore(ctx context.Context, at time.Time) (string, bool) {
	if p.head() == "" || at.IsZero() {
		return "", false
	}
	out, err := git(ctx, p.Top, "rev-list", "-1", "--before=@"+strconv.FormatInt(at.Unix()-1, 10), p.head())
	commit := strings.TrimSpace(string(out))
	return commit, err == nil && commit != ""
}

// FileHistory is a file as HEAD holds it and as each commit that changed
// it found it.
type FileHistory struct {
	// Head is the file in HEAD, nil when HEAD holds no such file.
	Head []byte
	// Changes are the last commits that changed the file, newest first.
	Changes []Revision
}

// Revision is one commit that changed a file, and the file before it.
type Revision struct {
	Commit string // the commit's hash
	When   time.Time
	// Before is the file as the commit found it: nil when the commit made
	// it, or when it was larger than the limit asked (Unread).
	Before []byte
	// Unread says Before was not read: larger than the limit.
	Unread bool
}

// History reads rel (relative to Top) in HEAD and before each of the last
// n commits that changed it, by two git runs however many: a log of the
// blobs, then one cat-file for them all. A version of more than limit
// bytes is left unread: no manifest a person keeps is that large. The
// versions are read newest first until they come to total bytes; the
// changes past that are left out, as past n (a manifest of 3,000 scripts
// changed in 5,000 commits took seconds and hundreds of megabytes read
// whole: a red team's). Outside git or before the first commit there is
// none.
func (p *Project) History(ctx context.Context, rel string, n int, limit, total int64) (FileHistory, error) {
	var h FileHistory
	if p.head() == "" || n <= 0 {
		return h, nil
	}
	out, err := git(ctx, p.Top, "-c", "core.quotePath=false", "log", "--format=%x00%h %ct", "--raw", "--no-abbrev",
		fmt.Sprintf("-n%d", n), p.head(), "--", rel)
	if err != nil {
		return h, fmt.Errorf("reading the history of %s: %w", rel, err)
	}
	var blobs []string // by change; "" for a file the commit made
	for line := range strings.SplitSeq(string(out), "\n") {
		if head, ok := strings.CutPrefix(line, "\x00"); ok {
			c, ct, _ := strings.Cut(head, " ")
			h.Changes = append(h.Changes, Revision{Commit: c, When: unixTime(ct)})
			blobs = append(blobs, "")
			continue
		}
		// :100644 100644 <old> <new> M<TAB>path
		f := strings.Fields(line)
		if len(f) < 5 || !strings.HasPrefix(f[0], ":") || len(blobs) == 0 {
			continue
		}
		if strings.Trim(f[2], "0") != "" {
			blobs[len(blobs)-1] = f[2]
		}
	}
	asked := append([]string{p.head() + ":./" + rel}, blobs...)
	data, read, err := catBlobs(ctx, p.Top, asked, limit, total)
	if err != nil {
		return FileHistory{}, fmt.Errorf("reading the history of %s: %w", rel, err)
	}
	h.Head = data[0].data
	h.Changes = h.Changes[:max(0, min(len(h.Changes), read-1))]
	for i := range h.Changes {
		h.Changes[i].Before, h.Changes[i].Unread = data[i+1].data, data[i+1].unread
	}
	return h, nil
}

// blob is one object catBlobs read: nil data for a name that is not
// there; unread for one over the limit.
type blob struct {
	data   []byte
	unread bool
}

// catBlobs reads each named object ("" asks nothing) by one `git cat-file
// --batch`, in order, until total bytes are read; read is how many names
// were answered (the rest are left as if not there, and git is stopped).
func catBlobs(ctx context.Context, dir string, names []string, limit, total int64) (out []blob, read int, err error) {
	var in bytes.Buffer
	for _, n := range names {
		if n == "" || strings.ContainsAny(n, "\n") {
			n = "-" // asks for nothing there: git answers "- missing"
		}
		in.WriteString(n + "\n")
	}
	out = make([]blob, len(names))
	ctx, cancel := context.WithCancel(ctx)
	defer cancel() // stops git when the budget ends the reading
	cmd, stderr := gitCommand(ctx, dir, "cat-file", "--batch")
	cmd.Stdin = &in
	pipe, err := cmd.StdoutPipe()
	if err != nil {
		return nil, 0, fmt.Errorf("git cat-file: %w", err)
	}
	if err := cmd.Start(); err != nil {
		return nil, 0, fmt.Errorf("git cat-file: %w", err)
	}
	r := bufio.NewReader(pipe)
	var spent int64
	for read < len(names) && spent <= total {
		header, err := r.ReadString('\n')
		if err != nil {
			break
		}
		read++
		header = strings.TrimSuffix(header, "\n")
		if strings.HasSuffix(header, " missing") || strings.HasSuffix(header, " ambiguous") {
			continue // nothing follows
		}
		f := strings.Fields(header)
		size, perr := int64(0), error(nil)
		if len(f) == 3 {
			size, perr = strconv.ParseInt(f[2], 10, 64)
		}
		if len(f) != 3 || perr != nil || size < 0 {
			cancel()
			_ = cmd.Wait()
			return nil, 0, fmt.Errorf("git cat-file: %q for %s", header, names[read-1])
		}
		if f[1] != "blob" || size > limit {
			out[read-1].unread = true
			if _, err := r.Discard(int(size) + 1); err != nil {
				break
			}
			continue
		}
		b := make([]byte, size+1) // the contents and the LF after them
		if _, err := io.ReadFull(r, b); err != nil {
			break
		}
		out[read-1].data = b[:size:size]
		spent += size
	}
	budgetSpent := spent > total
	cancel()
	werr := cmd.Wait()
	if read < len(names) && !budgetSpent {
		// git stopped before answering every name: it failed, or the
		// caller's context ended
		return nil, 0, fmt.Errorf("git cat-file answered %d of %d names: %v: %s", read, len(names), werr, strings.TrimSpace(stderr.String()))
	}
	return out, read, nil
}
