package mcp

import (
	"context"
	"sync"

	"github.com/clew-lsp/clew-lsp/internal/workspace"
	"github.com/clew-lsp/clew-lsp/internal/workspace/disk"
)

// Workspace is the server's view of one folder: the newest snapshot, made
// again only when the folder's stamp (listing, file stats, HEAD) changed
// since the snapshot was taken. Every tool call asks Current first, so an
// answer is about the tree as it is when the call arrives — what a CLI run
// at that moment would read — while an unchanged tree keeps the snapshot
// and its caches (parsed tables, context worlds, the check report).
type Workspace struct {
	dir string

	mu     sync.Mutex
	files  *disk.Files // stamps the folder; reopened when ignore rules change
	stamp  disk.Stamp
	snap   *workspace.Snapshot
	report *workspace.Report // the check of snap, made on first use
	// checks counts check runs (tests and the benchmark read it).
	checks int
}

// Open reads the folder once (a git work tree or a plain directory).
func Open(dir string) (*Workspace, error) {
	w := &Workspace{dir: dir}
	if err := w.reopen(); err != nil {
		return nil, err
	}
	return w, nil
}

// Root is the folder's absolute path, symlinks resolved.
func (w *Workspace) Root() string {
	w.mu.Lock()
	defer w.mu.Unlock()
	return w.files.Root()
}

// reopen opens the folder from scratch, as a CLI run does. The stamp is
// taken before the snapshot reads anything, so a change racing the load
// shows as a different stamp next time.
func (w *Workspace) reopen() error {
	files, _, err := disk.Open(w.dir)
	if err != nil {
		return err
	}
	st, err := files.Stamp()
	if err != nil {
		return err
	}
	snap, err := files.Load()
	if err != nil {
		return err
	}
	w.files, w.stamp, w.snap, w.report = files, st, snap, nil
	return nil
}

// Current returns the snapshot to answer a call from, re-reading the
// folder when it changed: re-listing it (parsed tables kept) when files
// changed, reopening it when ignore rules changed.
func (w *Workspace) Current() (*workspace.Snapshot, error) {
	w.mu.Lock()
	defer w.mu.Unlock()
	st, err := w.files.Stamp()
	if err != nil {
		return nil, err
	}
	switch {
	case st.Same(w.stamp):
		return w.snap, nil
	case st.Ignores != w.stamp.Ignores:
		if err := w.reopen(); err != nil {
			return nil, err
		}
	default:
		next, err := w.snap.Relist()
		if err != nil {
			return nil, err
		}
		w.stamp, w.snap, w.report = st, next, nil
	}
	return w.snap, nil
}

// Report is the check of the current snapshot, as `clew-lsp verify --check`
// computes it (brain or consumer scope alike), made once per snapshot.
func (w *Workspace) Report(ctx context.Context) (*workspace.Snapshot, *workspace.Report, error) {
	snap, err := w.Current()
	if err != nil {
		return nil, nil, err
	}
	w.mu.Lock()
	defer w.mu.Unlock()
	if w.report != nil && w.snap == snap {
		return snap, w.report, nil
	}
	opt := workspace.CheckOptions{}
	rep, err := snap.Check(ctx, opt)
	if err == nil {
		err = disk.CheckScope(ctx, snap, rep, "", opt)
	}
	if err != nil {
		return nil, nil, err
	}
	w.checks++
	if w.snap == snap {
		w.report = rep
	}
	return snap, rep, nil
}
