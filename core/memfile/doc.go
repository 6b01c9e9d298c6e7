// Package memfile parses one memory file (`.memory/<category>.md`) into a
// document model that keeps every byte, and decides which lines are entries
// exactly as HackLM 1.1.0's parser does (behaviour spec §2):
//
//   - the text is split on LF only; line numbers are 1-based indices into that split;
//   - a line is an entry iff it starts, at column 0, with "- " followed by at
//     least one character that is not a JavaScript line terminator;
//   - the tail stops at the first CR, U+2028 or U+2029 and is trimmed with
//     JavaScript's trim() set (which includes U+FEFF and excludes U+0085);
//   - "[slug]" + whitespace + text splits into slug and content; anything else
//     (`[s]x`, `[] x`, `[slug]` alone) is content, brackets included.
//
// Invariant: the lines of Parse(x), each with its line feed, are x byte for
// byte, for every input, valid UTF-8 or not (the tests' Render(Parse(x)) ==
// x). Every span is a byte range into Document.Src.
package memfile
