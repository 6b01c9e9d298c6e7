package poison

import (
	"fmt"
	"strings"
)

// FileOfSize is a decisions.md of exactly size bytes, for the stores that
// must be refused at the size limit of a memory file (issue 26): a slugged
// entry [db], slugged filler entries of about 300 bytes each (so that a file
// at the size limit is well within the line limit, and holds fewer entries
// than RoomyLimit: a store into it adds an entry rather than evicting one)
// whose words no two share (entries that
// all resemble each other would make every pair a finding), then an entry
// whose words pad it to the byte, ending in LF.
func FileOfSize(size int) string {
	var b strings.Builder
	b.Grow(size)
	b.WriteString("# Decisions\n\n- [db] Use Postgres for the ledger.\n")
	for i := 0; ; i++ {
		var e strings.Builder
		fmt.Fprintf(&e, "- [f-%d] Filler", i)
		for j := range 40 {
			e.WriteString(" " + word(i*40+j))
		}
		e.WriteString(".\n")
		if b.Len()+e.Len() > size-200 {
			break
		}
		b.WriteString(e.String())
	}
	pad := "- [pad] Padding"
	for b.Len()+len(pad)+len(" word.\n") <= size {
		pad += " word"
	}
	b.WriteString(pad + strings.Repeat("s", size-b.Len()-len(pad)-2) + ".\n")
	return b.String()
}

// RoomyLimit is the category limit (the highest the settings allow) under
// which a FileOfSize at the limit is not full.
const RoomyLimit = 100000

// RoomySettings are settings raising every category limit to RoomyLimit,
// as JSON.
const RoomySettings = `{"categoryLimit":{"Instruction":100000,"Quirk":100000,"Preference":100000,"Decision":100000,"Security":100000}}`

// word is the k-th of a series of distinct pseudo-words.
func word(k int) string {
	const syl = "bacedifogihujokalemino"
	var b strings.Builder
	b.WriteString("x")
	for k++; k > 0; k /= len(syl) / 2 {
		b.WriteString(syl[k%(len(syl)/2)*2 : k%(len(syl)/2)*2+2])
	}
	return b.String()
}
