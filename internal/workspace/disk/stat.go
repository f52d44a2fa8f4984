package disk

import (
	"os"
	"path/filepath"
	"sync"

	"github.com/clew-lsp/clew-lsp/internal/workspace"
)

var _ workspace.FileStater = (*Files)(nil)

// StatFiles stats workspace-relative paths without reading them (what a
// record of a file's content is validated against). A plain stat, as
// Stamp's: only metadata is returned, and os.Root's component-by-component
// walk would triple the cost; a path that leaves the root is not Ok.
func (f *Files) StatFiles(paths []string) []workspace.FileStat {
	out := make([]workspace.FileStat, len(paths))
	// System calls: a few goroutines overlap them (as the readers do).
	const chunk = 512
	var wg sync.WaitGroup
	sem := make(chan struct{}, workspace.ReadWorkers)
	for lo := 0; lo < len(paths); lo += chunk {
		hi := min(lo+chunk, len(paths))
		wg.Add(1)
		sem <- struct{}{}
		go func() {
			defer func() { <-sem; wg.Done() }()
			for i := lo; i < hi; i++ {
				out[i] = f.statFile(paths[i])
			}
		}()
	}
	wg.Wait()
	return out
}

func (f *Files) statFile(p string) workspace.FileStat {
	name, err := rootName(p)
	if err != nil || !filepath.IsLocal(name) {
		return workspace.FileStat{}
	}
	info, err := os.Stat(filepath.Join(f.root, name))
	if err != nil || !info.Mode().IsRegular() {
		return workspace.FileStat{}
	}
	ctime, ino := statTimes(info)
	return workspace.FileStat{Size: info.Size(), ModTime: info.ModTime().UnixNano(), Ctime: ctime, Inode: ino, Ok: true}
}
