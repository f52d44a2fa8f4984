package disk

import (
	"os"
	"path/filepath"

	"github.com/clew-lsp/clew-lsp/internal/workspace"
)

var _ workspace.FileStater = (*Files)(nil)

// StatFiles stats workspace-relative paths without reading them (what a
// record of a file's content is validated against). A plain stat, as
// Stamp's: only metadata is returned, and os.Root's component-by-component
// walk would triple the cost; a path that leaves the root is not Ok.
func (f *Files) StatFiles(paths []string) []workspace.FileStat {
	out := make([]workspace.FileStat, len(paths))
	for i, p := range paths {
		name, err := rootName(p)
		if err != nil {
			continue
		}
		info, err := os.Stat(filepath.Join(f.root, name))
		if err != nil || !info.Mode().IsRegular() {
			continue
		}
		ctime, ino := statTimes(info)
		out[i] = workspace.FileStat{Size: info.Size(), ModTime: info.ModTime().UnixNano(), Ctime: ctime, Inode: ino, Ok: true}
	}
	return out
}
