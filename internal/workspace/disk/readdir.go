package disk

// dirEntry is one entry of a directory as the walk for untracked files
// needs it: its name and whether it is a directory, a regular file or
// anything else (a symlink is never followed: it is "other").
type dirEntry struct {
	name string
	kind entryKind
}

type entryKind uint8

const (
	kindOther entryKind = iota
	kindDir
	kindRegular
)

// dirReader reads directories for one walk, reusing its buffers; not safe
// for concurrent use.
type dirReader struct {
	buf []byte // the system's directory records (Linux)
}
