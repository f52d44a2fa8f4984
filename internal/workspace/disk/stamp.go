package disk

import (
	"crypto/sha256"
	"encoding/binary"
	"io/fs"
	"os"
	"path"
	"path/filepath"
	"time"
)

// Stamp is a cheap summary of what a snapshot of the folder would read:
// the listed files with their sizes, modification times and modes, and
// git's HEAD. Equal stamps (neither racy) mean a new snapshot would list
// and read what the old one did, so a long-running server (the MCP server)
// keeps its snapshot and its caches instead of re-reading the folder.
type Stamp struct {
	// Files covers the listing and every listed file's stat.
	Files [32]byte
	// Ignores covers the ignore files (.gitignore, .git/info/exclude),
	// which the repository reads once when it is opened: when they change
	// the folder must be opened again, not only re-listed.
	Ignores [32]byte
	// Racy is true when a file changed so recently that a second change
	// within the file system's timestamp granularity could keep its
	// modification time and size; a racy stamp never equals another.
	Racy bool
}

// racyWindow is how recent a modification makes a stamp racy. File
// systems store nanoseconds but many update them from a coarse clock
// (a few milliseconds); 100 ms is far above that.
const racyWindow = 100 * time.Millisecond

// Same reports whether two stamps describe the same folder for sure.
func (s Stamp) Same(o Stamp) bool {
	return !s.Racy && !o.Racy && s.Files == o.Files && s.Ignores == o.Ignores
}

// Stamp lists the folder (as List does) and stats every listed file; it
// reads no file content (git's index only when its stat changed). Not safe
// for concurrent use on one Files.
func (f *Files) Stamp() (Stamp, error) {
	now := time.Now()
	var tracked []string
	if f.git != nil {
		var err error
		if tracked, err = f.indexTracked(now); err != nil {
			return Stamp{}, err
		}
	}
	list, err := f.listWith(tracked)
	if err != nil {
		return Stamp{}, err
	}
	files, ignores := sha256.New(), sha256.New()
	var st Stamp
	num := func(h interface{ Write([]byte) (int, error) }, v int64) {
		var b [8]byte
		binary.LittleEndian.PutUint64(b[:], uint64(v))
		h.Write(b[:])
	}
	stat := func(h interface{ Write([]byte) (int, error) }, name string, info fs.FileInfo, err error) {
		h.Write([]byte(name))
		h.Write([]byte{0})
		if err != nil {
			h.Write([]byte("missing"))
			return
		}
		num(h, info.Size())
		num(h, info.ModTime().UnixNano())
		num(h, int64(info.Mode()))
		if now.Sub(info.ModTime()) < racyWindow {
			st.Racy = true
		}
	}
	for _, p := range list {
		// A plain stat: only metadata enters the hash, and os.Root's
		// component-by-component walk tripled the cost.
		name, rerr := rootName(p)
		var info fs.FileInfo
		if rerr == nil {
			info, err = os.Stat(filepath.Join(f.root, name))
		} else {
			err = rerr
		}
		stat(files, p, info, err)
		if path.Base(p) == ".gitignore" {
			stat(ignores, p, info, err)
		}
	}
	if f.git != nil {
		info := f.git.Info()
		files.Write([]byte("\x00HEAD " + info.Head + " " + info.Branch))
		p := f.git.ExcludeFile()
		ei, err := os.Stat(p)
		stat(ignores, p, ei, err)
	}
	copy(st.Files[:], files.Sum(nil))
	copy(st.Ignores[:], ignores.Sum(nil))
	return st, nil
}
