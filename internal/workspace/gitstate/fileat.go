package gitstate

import (
	"github.com/go-git/go-git/v5/plumbing"

	"github.com/clew-lsp/clew-lsp/internal/workspace"
)

var _ workspace.GitFileAt = (*Repo)(nil)

// FileAt reads a workspace-relative path as it was at a commit (40 hex):
// what the ladder asks to tell a twin that was already there when an
// anchor was pinned from the code that moved. Objects only; a file over
// 1 MB, a missing commit or path is not ok.
func (g *Repo) FileAt(commit, rel string) ([]byte, bool) {
	if !plumbing.IsHash(commit) {
		return nil, false
	}
	logMu.Lock()
	defer logMu.Unlock()
	c, err := g.repo.CommitObject(plumbing.NewHash(commit))
	if err != nil {
		return nil, false
	}
	f, err := c.File(g.prefix + rel)
	if err != nil {
		return nil, false
	}
	b, err := readBlob(f)
	return b, err == nil
}
