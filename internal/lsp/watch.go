package lsp

import (
	"context"
	"path/filepath"
	"strings"
	"sync"
	"sync/atomic"

	"go.lsp.dev/protocol"

	"github.com/clew-lsp/clew-lsp/internal/workspace/watch"
)

// Watching the disk (docs/server.md: file changes on disk, including a `git
// checkout` of thousands of files, are debounced and batched).
//
// One source only, never both, so no change is handled twice: when the
// client can register workspace/didChangeWatchedFiles dynamically, the
// server registers "**/*" and the editor's watcher reports; otherwise the
// server runs fsnotify on each folder (internal/workspace/watch). Either
// way a batch of paths goes to the backend's DiskChanged on a background
// worker (a relist must not stall typing), and then one diagnosis pass is
// scheduled. Batches that arrive while the worker runs coalesce.

// diskBackend is a backend that can re-read the disk.
type diskBackend interface {
	DiskChanged(paths []string) error
}

type watchMode int32

const (
	watchNone watchMode = iota
	watchClient
	watchFsnotify
)

// diskWatch is the server's file-watching state.
type diskWatch struct {
	mode atomic.Int32 // watchMode

	mu       sync.Mutex // guards the fields below
	pending  map[string]bool
	overflow bool // too many paths pending: re-read every folder
	working  bool
	roots    []string
}

// maxPendingPaths bounds a coalesced batch; past it the batch becomes
// "every folder", which costs the same relist and keeps memory bounded.
const maxPendingPaths = 4096

// fsnotifyWatchers counts running fsnotify watchers (tests check that a
// client-watched workspace runs none).
var fsnotifyWatchers atomic.Int64

func didChangeWatchedFilesRoute() *route {
	return notification(protocol.MethodWorkspaceDidChangeWatchedFiles, nil, didChangeWatchedFiles)
}

// startWatching picks the source of disk changes once the workspace is
// indexed. roots are the folders as the backend resolved them.
func (s *server) startWatching(ctx context.Context) {
	if _, ok := s.backend.(diskBackend); !ok {
		return
	}
	roots := s.folderRoots()
	s.disk.mu.Lock()
	s.disk.roots = roots
	s.disk.mu.Unlock()
	if s.registerWatchedFiles(ctx) {
		s.disk.mode.Store(int32(watchClient))
		return
	}
	s.disk.mode.Store(int32(watchFsnotify))
	for _, root := range roots {
		w, err := watch.New(root, watch.Options{})
		if err != nil {
			s.logger.Warn("cannot watch folder; changes on disk show after the next edit", "root", root, "error", err)
			continue
		}
		fsnotifyWatchers.Add(1)
		s.goBackground("watch "+root, func(ctx context.Context) {
			defer fsnotifyWatchers.Add(-1)
			defer w.Close()
			for {
				select {
				case batch, ok := <-w.Batches():
					if !ok {
						return
					}
					s.diskChanged(batch)
				case err := <-w.Errors():
					s.logger.Debug("watcher", "root", root, "error", err)
				case <-ctx.Done():
					return
				}
			}
		})
	}
}

// folderRoots are the workspace folders as the backend opened them
// (symlinks resolved), falling back to the client's folders.
func (s *server) folderRoots() []string {
	snap, release := s.backend.Snapshot()
	defer release()
	if fs, ok := snap.(facadeSnapshot); ok {
		var roots []string
		for _, f := range fs.folderSnapshots() {
			roots = append(roots, f.Root())
		}
		return roots
	}
	s.mu.Lock()
	defer s.mu.Unlock()
	return append([]string(nil), s.folders...)
}

// registerWatchedFiles asks a client that supports it to watch every file
// for us; false when the client cannot, or refused.
func (s *server) registerWatchedFiles(ctx context.Context) bool {
	w := s.clientCaps().Workspace
	if w == nil || w.DidChangeWatchedFiles == nil || w.DidChangeWatchedFiles.DynamicRegistration == nil || !*w.DidChangeWatchedFiles.DynamicRegistration {
		return false
	}
	opts, err := protocol.Marshal(&protocol.DidChangeWatchedFilesRegistrationOptions{
		Watchers: []protocol.FileSystemWatcher{{GlobPattern: protocol.Pattern("**/*")}},
	})
	if err != nil {
		return false
	}
	params := &protocol.RegistrationParams{Registrations: []protocol.Registration{{
		ID:              "clew-watched-files",
		Method:          protocol.MethodWorkspaceDidChangeWatchedFiles,
		RegisterOptions: protocol.LSPAny(opts),
	}}}
	if _, err := s.conn.Call(ctx, protocol.MethodClientRegisterCapability, params, nil); err != nil {
		s.logger.Warn("client/registerCapability for watched files failed; watching with fsnotify", "error", err)
		return false
	}
	return true
}

// didChangeWatchedFiles takes the editor's batch. It is ignored unless the
// server registered for it: with fsnotify running, handling it too would
// re-read everything twice.
func didChangeWatchedFiles(ctx context.Context, s *server, p *protocol.DidChangeWatchedFilesParams) error {
	if watchMode(s.disk.mode.Load()) != watchClient {
		s.logger.Debug("didChangeWatchedFiles ignored: the server watches the disk itself", "changes", len(p.Changes))
		return nil
	}
	var paths []string
	for _, c := range p.Changes {
		path, err := pathOf(c.URI)
		if err != nil || gitInternal(path) {
			continue
		}
		paths = append(paths, path)
	}
	if len(paths) > 0 {
		s.diskChanged(paths)
	}
	return nil
}

// gitInternal reports a path inside .git other than what says a branch
// moved (HEAD, refs, packed-refs), as the fsnotify watcher filters them.
func gitInternal(path string) bool {
	p := filepath.ToSlash(path)
	i := strings.Index(p, "/.git/")
	if i < 0 {
		return false
	}
	rest := p[i+len("/.git/"):]
	return !(rest == "HEAD" || rest == "packed-refs" || strings.HasPrefix(rest, "refs/"))
}

// diskChanged queues a batch for the worker, which re-reads and then
// schedules one diagnosis pass for everything queued meanwhile.
func (s *server) diskChanged(paths []string) {
	d := &s.disk
	d.mu.Lock()
	defer d.mu.Unlock()
	if d.pending == nil {
		d.pending = map[string]bool{}
	}
	if !d.overflow {
		for _, p := range paths {
			d.pending[p] = true
		}
		if len(d.pending) > maxPendingPaths {
			d.overflow, d.pending = true, map[string]bool{}
		}
	}
	if !d.working {
		d.working = true
		s.goBackground("disk changes", s.applyDiskChanges)
	}
}

func (s *server) applyDiskChanges(ctx context.Context) {
	d := &s.disk
	for {
		d.mu.Lock()
		var paths []string
		if d.overflow {
			paths = append(paths, d.roots...)
		}
		for p := range d.pending {
			paths = append(paths, p)
		}
		d.pending, d.overflow = nil, false
		if len(paths) == 0 || ctx.Err() != nil {
			d.working = false
			d.mu.Unlock()
			return
		}
		d.mu.Unlock()

		s.loadMu.Lock() // never between Load and Configure
		err := s.backend.(diskBackend).DiskChanged(paths)
		s.loadMu.Unlock()
		if err != nil {
			s.logger.Error("re-reading the disk failed", "error", err)
			s.logToClient(protocol.MessageTypeWarning, "clew-lsp: could not re-read the workspace after changes on disk: "+err.Error())
		}
		s.diags.schedule()
	}
}
