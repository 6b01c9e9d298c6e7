package memory

// roomShare is the share of a file's size that a store's copy of it leaves
// as room behind it, for the stores after it to append into (with at least
// roomMin): at 20,000 entries, one copy of 2 MB in about 2,500 stores
// instead of one in each.
const (
	roomShare = 8
	roomMin   = 4 << 10
)

// Append is cur with tail appended, for a store into the file at path
// (Appender). When cur is the last such result w made for that file, and
// no store took its room since, tail is written into the room behind cur
// (cur reads only up to its own length, so it is unchanged); otherwise cur
// is copied, with room behind it. Either way the result's room is given to
// the next store into path.
func (w *Warm) Append(path string, cur []byte, tail string) []byte {
	w.mu.Lock()
	own := sameBytes(w.rooms[path], cur)
	if own {
		delete(w.rooms, path) // taken: no other store may write there now
	}
	w.mu.Unlock()
	var out []byte
	if own && cap(cur)-len(cur) >= len(tail) {
		out = append(cur, tail...)
	} else {
		n := len(cur) + len(tail)
		out = append(make([]byte, 0, n+max(n/roomShare, roomMin)), cur...)
		out = append(out, tail...)
	}
	w.mu.Lock()
	if w.rooms == nil {
		w.rooms = map[string][]byte{}
	}
	w.rooms[path] = out
	w.mu.Unlock()
	return out
}

// Appender is Append for the file at path.
func (w *Warm) Appender(path string) Appender {
	return func(cur []byte, tail string) []byte { return w.Append(path, cur, tail) }
}

// Appender makes a store's new bytes when it appends tail to cur
// (PlanStoreParsing); nil: a copy of cur with tail, made afresh.
type Appender func(cur []byte, tail string) []byte

// sameBytes reports whether a and b are the same bytes in memory, not only
// equal ones: the same start and length.
func sameBytes(a, b []byte) bool {
	return len(a) == len(b) && cap(a) > 0 && cap(b) > 0 && &a[:1][0] == &b[:1][0]
}
