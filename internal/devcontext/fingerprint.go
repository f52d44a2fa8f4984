package devcontext

import (
	"cmp"
	"crypto/sha256"
	"encoding/hex"
	"slices"
	"strings"
)

// Fingerprint is SHA-256 (lowercase hex) over the snapshot's files in path
// order: path, NUL, content hash, newline for each. Overlays enter with the
// hash of the unsaved buffer, so an edit in the editor changes the answer's
// fingerprint before it is saved. The input order does not matter.
func Fingerprint(files []FileHash) string {
	fs := slices.Clone(files)
	slices.SortFunc(fs, func(a, b FileHash) int {
		return cmp.Or(strings.Compare(a.Path, b.Path), strings.Compare(a.Hash, b.Hash))
	})
	h := sha256.New()
	for _, f := range fs {
		h.Write([]byte(f.Path))
		h.Write([]byte{0})
		h.Write([]byte(f.Hash))
		h.Write([]byte{'\n'})
	}
	return hex.EncodeToString(h.Sum(nil))
}

// gitContext is the tree the answer is true of. An unsaved buffer makes the
// working tree dirty whatever git says: the answer describes the editor.
func gitContext(g Git, files []FileHash, cites []CommitReference) GitContext {
	if g.Unavailable != "" {
		return GitContext{WorkingTree: "unavailable: " + g.Unavailable, Commits: sortCommits(cites)}
	}
	gc := GitContext{Branch: g.Branch, Head: g.Head, WorkingTree: g.WorkingTree, Commits: sortCommits(cites)}
	if gc.WorkingTree == "" {
		gc.WorkingTree = "unavailable: the working tree state was not given"
	}
	for _, f := range files {
		if f.Overlay {
			gc.WorkingTree = "dirty"
			break
		}
	}
	if len(gc.Commits) == 0 {
		gc.Commits = nil
	}
	return gc
}
