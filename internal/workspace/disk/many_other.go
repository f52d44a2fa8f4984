//go:build !linux

package disk

import (
	"fmt"
	"io"
	"os"

	"github.com/clew-lsp/clew-lsp/internal/workspace"
)

// readIn reads the workspace-relative rel through the root, refusing a
// symlink (the caller falls back to Read, which resolves it and checks it
// stays inside).
func readIn(root *os.Root, _ *os.File, rel, name string, maxBytes int64) workspace.FileRead {
	if st, err := root.Lstat(rel); err != nil || !st.Mode().IsRegular() {
		return workspace.FileRead{Err: fmt.Errorf("%s: not a regular file", name)}
	}
	fh, err := root.Open(rel)
	if err != nil {
		return workspace.FileRead{Err: err}
	}
	defer fh.Close()
	st, err := fh.Stat()
	if err != nil {
		return workspace.FileRead{Err: err}
	}
	if !st.Mode().IsRegular() {
		return workspace.FileRead{Err: fmt.Errorf("%s: not a regular file", name)}
	}
	if maxBytes > 0 && st.Size() > maxBytes {
		return workspace.FileRead{Size: st.Size()}
	}
	data := make([]byte, st.Size())
	n, err := io.ReadFull(fh, data)
	if err != nil && err != io.ErrUnexpectedEOF {
		return workspace.FileRead{Err: err}
	}
	return workspace.FileRead{Data: data[:n], Size: int64(n)}
}
