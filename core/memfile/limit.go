package memfile

// MaxBytes is the largest memory file that is read, parsed and analysed:
// 8 MiB. At about 100 bytes an entry that is some 80,000 entries, two
// thousand times the default category limits (30 and 40) and beyond what
// anyone curates by hand; a file that size is a mistake (a log piped into
// .memory) or an attack. Reading it, pairing its entries and re-checking it
// on every keystroke would cost seconds and hundreds of megabytes, so it is
// reported instead (rules), never read whole (store), and nothing is stored
// into it. The one definition: rules.MaxFileBytes and store.MaxReadBytes
// name it where it is used.
const MaxBytes = 8 << 20
