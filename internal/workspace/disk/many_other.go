//go:build !linux

package disk

import (
	"fmt"
	"io"
	"os"

	"github.com/clew-lsp/clew-lsp/internal/workspace"
)

// batchReader reads one batch of files through one os.Root.
type batchReader struct{ root rootOnce }

func newBatchReader(root string) *batchReader { return &batchReader{root: rootOnce{path: root}} }

func (b *batchReader) close() { b.root.close() }

func (b *batchReader) read(rel, _, name string, maxBytes int64, buf []byte) (workspace.FileRead, []byte) {
	root, err := b.root.get()
	if err != nil {
		return workspace.FileRead{Err: err}, buf
	}
	return readIn(root, rel, name, maxBytes, buf)
}

// readIn reads the workspace-relative rel through the root, refusing a
// symlink (the caller falls back to Read, which resolves it and checks it
// stays inside).
// buf, when large enough, holds the data (and is returned, grown if it was
// not).
func readIn(root *os.Root, rel, name string, maxBytes int64, buf []byte) (workspace.FileRead, []byte) {
	if st, err := root.Lstat(rel); err != nil || !st.Mode().IsRegular() {
		return workspace.FileRead{Err: fmt.Errorf("%s: not a regular file", name)}, buf
	}
	fh, err := root.Open(rel)
	if err != nil {
		return workspace.FileRead{Err: err}, buf
	}
	defer fh.Close()
	st, err := fh.Stat()
	if err != nil {
		return workspace.FileRead{Err: err}, buf
	}
	if !st.Mode().IsRegular() {
		return workspace.FileRead{Err: fmt.Errorf("%s: not a regular file", name)}, buf
	}
	if maxBytes > 0 && st.Size() > maxBytes {
		return workspace.FileRead{Size: st.Size()}, buf
	}
	if buf == nil || int64(cap(buf)) < st.Size() {
		buf = make([]byte, st.Size())
	}
	data := buf[:st.Size()]
	n, err := io.ReadFull(fh, data)
	if err != nil && err != io.ErrUnexpectedEOF {
		return workspace.FileRead{Err: err}, buf
	}
	return workspace.FileRead{Data: data[:n:n], Size: int64(n)}, buf
}
