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
	root, err := os.OpenRoot(f.root)
	if err != nil {
		for i := range paths {
			visit(i, workspace.FileRead{Err: err})
		}
		return
	}
	defer root.Close()
	dirs := map[string]*os.File{}
	defer func() {
		for _, d := range dirs {
			if d != nil {
				d.Close()
			}
		}
	}()
	var buf []byte
	for i, p := range paths {
		if p == "" || strings.HasPrefix(p, "/") || strings.Contains(p, "\\") {
			visit(i, workspace.FileRead{Err: fmt.Errorf("%s: not workspace-relative", p)})
			continue
		}
		dir, base := path.Split(p)
		dir = strings.TrimSuffix(dir, "/")
		if dir == "" {
			dir = "."
		}
		d, seen := dirs[dir]
		if !seen {
			d, _ = root.Open(dir) // resolved inside the root, symlinks included
			dirs[dir] = d
		}
		if d == nil {
			visit(i, workspace.FileRead{Err: fmt.Errorf("%s: directory not readable", p)})
			continue
		}
		var r workspace.FileRead
		r, buf = readIn(root, d, p, base, maxBytes, buf)
		if !reuse {
			buf = nil
		}
		visit(i, r)
	}
}
