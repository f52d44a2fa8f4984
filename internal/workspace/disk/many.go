package disk

import (
	"fmt"
	"os"
	"path"
	"strings"

	"github.com/clew-lsp/clew-lsp/internal/workspace"
)

// Files implements workspace.ManyReader: the context compiler reads every
// file of the workspace once, and Read's per-file symlink resolution costs
// a system call per path component. ReadMany opens one os.Root instead, so
// each file costs an open, a stat and a read, and nothing outside the root
// can be reached (os.Root refuses any path or symlink that leaves it).
var _ workspace.ManyReader = (*Files)(nil)

// ReadMany reads the workspace-relative paths; a file over maxBytes is
// reported with its size and no data. A path Root refuses (an absolute
// symlink, even one pointing inside the root) is an error: the caller
// falls back to Read for it. Each directory is opened once, so a file costs
// an open, a stat, a read and a close.
func (f *Files) ReadMany(paths []string, maxBytes int64) []workspace.FileRead {
	out := make([]workspace.FileRead, len(paths))
	f.readEach(paths, maxBytes, false, func(i int, r workspace.FileRead) { out[i] = r })
	return out
}

var _ workspace.ManyVisitor = (*Files)(nil)

// VisitMany is ReadMany with each file's bytes handed to visit, in path
// order, in one buffer reused from file to file (grown to the largest
// file read): visit must not keep them. Reading a folder's thousands of
// files then allocates no copy of each (the fresh pages of 90 MB of Go
// cost a cold verify ~20,000 page faults).
func (f *Files) VisitMany(paths []string, maxBytes int64, visit func(i int, r workspace.FileRead)) {
	f.readEach(paths, maxBytes, true, visit)
}

// readEach reads paths in order for ReadMany and VisitMany; reuse passes
// one buffer from file to file.
func (f *Files) readEach(paths []string, maxBytes int64, reuse bool, visit func(i int, r workspace.FileRead)) {
	br := newBatchReader(f.root)
	defer br.close()
	var buf []byte
	for i, p := range paths {
		if p == "" || strings.HasPrefix(p, "/") || strings.Contains(p, "\\") {
			visit(i, workspace.FileRead{Err: fmt.Errorf("%s: not workspace-relative", p)})
			continue
		}
		dir, base := splitDir(p)
		var r workspace.FileRead
		r, buf = br.read(p, dir, base, maxBytes, buf)
		if !reuse {
			buf = nil
		}
		visit(i, r)
	}
}

// splitDir is p's directory ("." for the root) and base name.
func splitDir(p string) (dir, base string) {
	dir, base = path.Split(p)
	if dir = strings.TrimSuffix(dir, "/"); dir == "" {
		dir = "."
	}
	return dir, base
}

// rootOnce opens the os.Root of a batch when a read first needs it.
type rootOnce struct {
	path string
	root *os.Root
	err  error
	done bool
}

func (o *rootOnce) get() (*os.Root, error) {
	if !o.done {
		o.root, o.err = os.OpenRoot(o.path)
		o.done = true
	}
	return o.root, o.err
}

func (o *rootOnce) close() {
	if o.root != nil {
		o.root.Close()
	}
}
