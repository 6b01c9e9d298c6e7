package store

import (
	"io/fs"
	"syscall"
)

// stampOf is the stamp of the file fi describes.
func stampOf(fi fs.FileInfo) Stamp {
	st, ok := fi.Sys().(*syscall.Stat_t)
	if !ok {
		return Stamp{Size: -1}
	}
	return Stamp{Size: fi.Size(), ModNs: st.Mtim.Nano(), ChangeNs: st.Ctim.Nano(), Ino: uint64(st.Ino), Dev: uint64(st.Dev)}
}
