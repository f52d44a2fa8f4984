//go:build unix

package disk

import (
	"io/fs"
	"syscall"
)

// inode identifies a file across renames (a rewritten index is a new file).
func inode(st fs.FileInfo) uint64 {
	if s, ok := st.Sys().(*syscall.Stat_t); ok {
		return uint64(s.Ino)
	}
	return 0
}
