package gitstate

import (
	"errors"
	"io"
	"strings"
	"sync"

	"github.com/go-git/go-git/v5/plumbing"
	"github.com/go-git/go-git/v5/plumbing/filemode"
	"github.com/go-git/go-git/v5/plumbing/object"

	"github.com/clew-lsp/clew-lsp/internal/workspace"
)

// Repo implements workspace.GitLog, the optional history the context
// compiler asks for (commits that touched a declaration, the working tree
// state). Both read git objects only: no work-tree status walk, no writes.
var _ workspace.GitLog = (*Repo)(nil)

// logMu serialises the object reads of HeadFiles and Commits: a go-git
// repository is not documented as safe for concurrent use, and the context
// compiler may serve several requests at once.
var logMu sync.Mutex

// maxLogSteps bounds the first-parent walk of Commits, so a long history
// costs at most this many commits per file.
const maxLogSteps = 2000

// HeadFiles maps every regular file of HEAD's tree under the workspace
// folder (workspace-relative) to its blob id. It returns nil when there is
// no HEAD yet. Symlinks and submodules are left out, as Tracked does.
func (g *Repo) HeadFiles() map[string]string {
	logMu.Lock()
	defer logMu.Unlock()
	ref, err := g.repo.Head()
	if err != nil {
		return nil
	}
	c, err := g.repo.CommitObject(ref.Hash())
	if err != nil {
		return nil
	}
	tree, err := c.Tree()
	if err != nil {
		return nil
	}
	out := map[string]string{}
	w := object.NewTreeWalker(tree, true, nil)
	defer w.Close()
	for {
		name, e, err := w.Next()
		if errors.Is(err, io.EOF) {
			break
		}
		if err != nil {
			return out
		}
		if !e.Mode.IsFile() || e.Mode == filemode.Symlink || !strings.HasPrefix(name, g.prefix) {
			continue
		}
		out[strings.TrimPrefix(name, g.prefix)] = e.Hash.String()
	}
	return out
}

// Commits returns the commits on HEAD's first-parent line that changed the
// workspace-relative path, newest first, at most max, each with the file's
// content after the commit (nil when the commit deleted it or the blob is
// over 1 MB). The walk stops after maxLogSteps commits; read errors end it
// quietly, because history is supporting evidence, never a verdict.
func (g *Repo) Commits(rel string, max int) []workspace.GitCommit {
	if max <= 0 {
		return nil
	}
	logMu.Lock()
	defer logMu.Unlock()
	ref, err := g.repo.Head()
	if err != nil {
		return nil
	}
	full := g.prefix + rel
	c, err := g.repo.CommitObject(ref.Hash())
	if err != nil {
		return nil
	}
	cur := blobAt(c, full)
	var out []workspace.GitCommit
	for steps := 0; len(out) < max && steps < maxLogSteps; steps++ {
		var parent *object.Commit
		var prev plumbing.Hash
		if c.NumParents() > 0 {
			if parent, err = c.Parent(0); err != nil {
				return out
			}
			prev = blobAt(parent, full)
		}
		if prev != cur {
			out = append(out, g.commitOf(c, cur))
		}
		if parent == nil {
			break
		}
		c, cur = parent, prev
	}
	return out
}

// blobAt is the blob id of path in the commit's tree; zero when absent.
func blobAt(c *object.Commit, full string) plumbing.Hash {
	tree, err := c.Tree()
	if err != nil {
		return plumbing.ZeroHash
	}
	e, err := tree.FindEntry(full)
	if err != nil || !e.Mode.IsFile() {
		return plumbing.ZeroHash
	}
	return e.Hash
}

func (g *Repo) commitOf(c *object.Commit, blob plumbing.Hash) workspace.GitCommit {
	subject, body, _ := strings.Cut(strings.TrimSpace(c.Message), "\n")
	gc := workspace.GitCommit{
		SHA:     c.Hash.String(),
		Time:    c.Committer.When.UTC(),
		Author:  c.Author.Name,
		Subject: strings.TrimSpace(subject),
		Body:    strings.TrimSpace(body),
	}
	if blob == plumbing.ZeroHash {
		gc.Deleted = true
		return gc
	}
	if b, err := g.repo.BlobObject(blob); err == nil && b.Size <= 1<<20 {
		if rd, err := b.Reader(); err == nil {
			gc.Content, _ = io.ReadAll(rd)
			rd.Close()
		}
	}
	return gc
}
