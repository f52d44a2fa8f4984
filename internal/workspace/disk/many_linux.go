//go:build linux

package disk

import (
	"fmt"
	"os"
	"syscall"

	"github.com/clew-lsp/clew-lsp/internal/workspace"
)

// readIn reads name inside the directory dir with four system calls
// (openat, fstat, read, close): O_NOFOLLOW refuses a symlink, whose target
// the caller then reads through Read (which checks it stays inside the
// root), and O_NONBLOCK keeps a FIFO from blocking the open.
// buf, when large enough, holds the data (and is returned, grown if it was
// not).
func readIn(_ *os.Root, dir *os.File, _, name string, maxBytes int64, buf []byte) (workspace.FileRead, []byte) {
	sc, err := dir.SyscallConn()
	if err != nil {
		return workspace.FileRead{Err: err}, buf
	}
	var fd int
	var oerr error
	if err := sc.Control(func(dfd uintptr) {
		fd, oerr = syscall.Openat(int(dfd), name, syscall.O_RDONLY|syscall.O_CLOEXEC|syscall.O_NOFOLLOW|syscall.O_NONBLOCK, 0)
	}); err != nil {
		return workspace.FileRead{Err: err}, buf
	}
	if oerr != nil {
		return workspace.FileRead{Err: oerr}, buf
	}
	defer syscall.Close(fd)
	var st syscall.Stat_t
	if err := syscall.Fstat(fd, &st); err != nil {
		return workspace.FileRead{Err: err}, buf
	}
	if st.Mode&syscall.S_IFMT != syscall.S_IFREG {
		return workspace.FileRead{Err: fmt.Errorf("%s: not a regular file", name)}, buf
	}
	if maxBytes > 0 && st.Size > maxBytes {
		return workspace.FileRead{Size: st.Size}, buf
	}
	// Read what fstat reported: no extra read for EOF. A file written while
	// it is read is a snapshot of one moment or the other, as with Read.
	if buf == nil || int64(cap(buf)) < st.Size {
		buf = make([]byte, st.Size)
	}
	data := buf[:st.Size]
	n := 0
	for n < len(data) {
		m, err := syscall.Read(fd, data[n:])
		if err == syscall.EINTR {
			continue
		}
		if err != nil {
			return workspace.FileRead{Err: err}, buf
		}
		if m == 0 {
			break
		}
		n += m
	}
	return workspace.FileRead{Data: data[:n:n], Size: int64(n)}, buf
}
