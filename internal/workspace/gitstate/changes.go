package gitstate

import (
	"io"
	"slices"
	"strings"

	"github.com/go-git/go-git/v5/plumbing"
	"github.com/go-git/go-git/v5/plumbing/filemode"
	"github.com/go-git/go-git/v5/plumbing/object"

	"github.com/clew-lsp/clew-lsp/internal/workspace"
)

var _ workspace.GitChanges = (*Repo)(nil)

// ChangedFiles lists the paths under the workspace folder that the commit
// added or modified against its first parent (all of its tree for a root
// commit), workspace-relative and sorted. nil when the commit cannot be
// read or changes more than max files.
func (g *Repo) ChangedFiles(sha string, max int) []string {
	logMu.Lock()
	defer logMu.Unlock()
	c, err := g.repo.CommitObject(plumbing.NewHash(sha))
	if err != nil {
		return nil
	}
	tree, err := c.Tree()
	if err != nil {
		return nil
	}
	if c.NumParents() == 0 {
		return g.rootFiles(tree, max)
	}
	p, err := c.Parent(0)
	if err != nil {
		return nil
	}
	before, err := p.Tree()
	if err != nil {
		return nil
	}
	changes, err := object.DiffTree(before, tree)
	if err != nil || len(changes) > max {
		return nil
	}
	var out []string
	for _, ch := range changes {
		if name := ch.To.Name; name != "" && strings.HasPrefix(name, g.prefix) {
			out = append(out, strings.TrimPrefix(name, g.prefix))
		}
	}
	slices.Sort(out)
	return out
}

// FileChange reads a workspace-relative file before (at the first parent)
// and after the commit; before is nil when the commit added it, after nil
// when it deleted it. ok is false when the commit cannot be read.
func (g *Repo) FileChange(sha, rel string) (before, after []byte, ok bool) {
	if !plumbing.IsHash(sha) {
		return nil, nil, false
	}
	logMu.Lock()
	defer logMu.Unlock()
	c, err := g.repo.CommitObject(plumbing.NewHash(sha))
	if err != nil {
		return nil, nil, false
	}
	read := func(c *object.Commit) []byte {
		f, err := c.File(g.prefix + rel)
		if err != nil {
			return nil
		}
		b, err := readBlob(f)
		if err != nil {
			return nil
		}
		return b
	}
	after = read(c)
	if c.NumParents() > 0 {
		p, err := c.Parent(0)
		if err != nil {
			return nil, nil, false
		}
		before = read(p)
	}
	return before, after, true
}

// rootFiles is ChangedFiles of a root commit (a first import, or the one
// commit of a shallow clone): every file of its tree, walked only until
// there are more than max, so a tree of ten thousand files costs max
// entries, not a walk of the whole tree.
func (g *Repo) rootFiles(tree *object.Tree, max int) []string {
	w := object.NewTreeWalker(tree, true, nil)
	// As DiffTree reads a tree: a name git would not check out (macOS's
	// "Icon\r") is still a file the commit changed.
	w.SkipPathValidation()
	defer w.Close()
	var out []string
	n := 0
	for {
		name, e, err := w.Next()
		if err == io.EOF {
			break
		}
		if err != nil {
			return nil
		}
		if e.Mode == filemode.Dir {
			continue
		}
		if n++; n > max {
			return nil
		}
		if strings.HasPrefix(name, g.prefix) {
			out = append(out, strings.TrimPrefix(name, g.prefix))
		}
	}
	slices.Sort(out)
	return out
}
