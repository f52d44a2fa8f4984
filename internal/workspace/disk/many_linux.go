//go:build linux

package disk

import (
	"fmt"
	"os"
	"syscall"

	"github.com/clew-lsp/clew-lsp/internal/workspace"
)

// batchReader reads one batch of files by directory descriptors: a
// directory is opened once per batch, by its plain name inside its
// parent's descriptor with O_NOFOLLOW (one openat), its parents the same
// way from the root's. os.Root's Open would walk every component again
// from the root for each directory (an openat and a close per component,
// then four fcntl and an epoll registration for the *os.File): on a cold
// GOROOT-sized verify 9,197 component opens and about 14,000 more system
// calls. A name that is not plain (".", "..") or a component that is a
// symlink (ELOOP, ENOTDIR) is left to os.Root, which resolves it and
// refuses what leaves the root, so what is reachable is what it was.
type batchReader struct {
	root     rootOnce
	dirs     map[string]int // -1: not readable
	owned    []int          // descriptors opened here, closed by close
	fallback []*os.File     // directories os.Root opened; their descriptors are in dirs
}

func newBatchReader(root string) *batchReader {
	return &batchReader{root: rootOnce{path: root}, dirs: map[string]int{}}
}

func (b *batchReader) close() {
	for _, fd := range b.owned {
		syscall.Close(fd)
	}
	for _, f := range b.fallback {
		f.Close()
	}
	b.root.close()
}

func (b *batchReader) read(rel, dir, name string, maxBytes int64, buf []byte) (workspace.FileRead, []byte) {
	fd := b.dir(dir)
	if fd < 0 {
		return workspace.FileRead{Err: fmt.Errorf("%s: directory not readable", rel)}, buf
	}
	return readIn(fd, name, maxBytes, buf)
}

// dir is the descriptor of the workspace directory dir ("." the root), or
// -1.
func (b *batchReader) dir(dir string) int {
	if fd, ok := b.dirs[dir]; ok {
		return fd
	}
	fd := -1
	if dir == "." {
		if root, err := openDir(-1, "", b.root.path); err == nil {
			fd = root
			b.owned = append(b.owned, fd)
		}
		b.dirs[dir] = fd
		return fd
	}
	parent, name := splitDir(dir)
	if plainName(name) {
		if pfd := b.dir(parent); pfd >= 0 {
			var err error
			fd, err = openDir(pfd, name, "") // readdir_linux.go: O_NOFOLLOW
			switch {
			case err == nil:
				b.owned = append(b.owned, fd)
			case err != syscall.ELOOP && err != syscall.ENOTDIR:
				b.dirs[dir] = -1 // missing or unreadable: os.Root would say the same
				return -1
			}
		}
	}
	if fd < 0 {
		fd = b.viaRoot(dir)
	}
	b.dirs[dir] = fd
	return fd
}

// viaRoot opens dir through os.Root, which follows symlinks that stay
// inside the root.
func (b *batchReader) viaRoot(dir string) int {
	root, err := b.root.get()
	if err != nil {
		return -1
	}
	f, err := root.Open(dir)
	if err != nil {
		return -1
	}
	if st, err := f.Stat(); err != nil || !st.IsDir() {
		f.Close()
		return -1
	}
	b.fallback = append(b.fallback, f)
	return int(f.Fd())
}

// plainName reports a directory entry's name: not empty, ".", "..".
func plainName(name string) bool {
	return name != "" && name != "." && name != ".."
}

// readIn reads name inside the directory dir with four system calls
// (openat, fstat, read, close): O_NOFOLLOW refuses a symlink, whose target
// the caller then reads through Read (which checks it stays inside the
// root), and O_NONBLOCK keeps a FIFO from blocking the open.
// buf, when large enough, holds the data (and is returned, grown if it was
// not).
func readIn(dir int, name string, maxBytes int64, buf []byte) (workspace.FileRead, []byte) {
	fd, err := syscall.Openat(dir, name, syscall.O_RDONLY|syscall.O_CLOEXEC|syscall.O_NOFOLLOW|syscall.O_NONBLOCK, 0)
	if err != nil {
		return workspace.FileRead{Err: err}, buf
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
