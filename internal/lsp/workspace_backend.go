package lsp

import (
	"context"
	"encoding/json"
	"fmt"
	"path/filepath"
	"sync"

	"github.com/clew-lsp/clew-lsp/internal/workspace"
	"github.com/clew-lsp/clew-lsp/internal/workspace/query"
)

// WorkspaceBackend serves the real workspace: a workspace.Session with one
// snapshot per folder, overlaid by the editor's open buffers.
type WorkspaceBackend struct {
	sess    *workspace.Session
	reports *reportCache // one check per folder snapshot, shared by diagnosis and queries

	mu       sync.Mutex
	seq      uint64           // bumped on every change, so snapshot IDs only grow
	versions map[string]int32 // open buffers' editor versions, by absolute path
}

// NewWorkspaceBackend returns a backend that opens folders with load
// (disk.Loader in the binary).
func NewWorkspaceBackend(load workspace.Loader) *WorkspaceBackend {
	return &WorkspaceBackend{sess: workspace.NewSession(load), versions: map[string]int32{}, reports: newReportCache()}
}

// Session exposes the session to feature handlers.
func (b *WorkspaceBackend) Session() *workspace.Session { return b.sess }

// Load indexes every folder; a folder that cannot be opened is reported and
// skipped, so one bad folder does not take the others down.
func (b *WorkspaceBackend) Load(ctx context.Context, folders []string, settings Settings, progress Progress) error {
	b.sess.Configure(editorSettings(settings))
	var errs []error
	for i, f := range folders {
		progress.Report(fmt.Sprintf("indexing %s", filepath.Base(f)), 100*i/max(1, len(folders)))
		if err := b.sess.AddFolder(f); err != nil {
			errs = append(errs, fmt.Errorf("%s: %w", f, err))
		}
		if err := ctx.Err(); err != nil {
			return err
		}
	}
	b.bump()
	if len(errs) > 0 {
		return fmt.Errorf("some workspace folders could not be opened: %v", errs)
	}
	return nil
}

// Apply turns buffer events into overlays: an open buffer is what the
// snapshot sees; a closed one gives the disk back.
func (b *WorkspaceBackend) Apply(ctx context.Context, changes []Change) error {
	overlays := map[string][]byte{}
	b.mu.Lock()
	for _, c := range changes {
		switch c.Kind {
		case Open, Edit:
			overlays[c.Path] = c.Text
			b.versions[c.Path] = c.Version
		case Save:
			if c.Text != nil {
				overlays[c.Path] = c.Text
			}
		case Close:
			overlays[c.Path] = nil
			delete(b.versions, c.Path)
		}
	}
	b.mu.Unlock()
	b.sess.SetOverlays(overlays)
	b.bump()
	return nil
}

// Configure replaces the editor settings.
func (b *WorkspaceBackend) Configure(ctx context.Context, settings Settings) error {
	b.sess.Configure(editorSettings(settings))
	b.bump()
	return nil
}

// AddFolder opens a folder added after initialize.
func (b *WorkspaceBackend) AddFolder(path string) error {
	err := b.sess.AddFolder(path)
	b.bump()
	return err
}

// RemoveFolder forgets a folder the editor closed.
func (b *WorkspaceBackend) RemoveFolder(path string) {
	if real, err := filepath.EvalSymlinks(path); err == nil {
		path = real // the session keys folders by their resolved path
	}
	b.sess.RemoveFolder(path)
	b.bump()
}

// DiskChanged re-reads the folders holding the given paths (watcher
// batches, didChangeWatchedFiles).
func (b *WorkspaceBackend) DiskChanged(paths []string) error {
	err := b.sess.DiskChanged(paths)
	b.bump()
	return err
}

func (b *WorkspaceBackend) bump() {
	b.mu.Lock()
	b.seq++
	b.mu.Unlock()
}

// Snapshot captures the newest snapshot of every folder.
func (b *WorkspaceBackend) Snapshot() (Snapshot, func()) {
	b.mu.Lock()
	id := b.seq
	versions := make(map[string]int32, len(b.versions))
	for k, v := range b.versions {
		versions[k] = v
	}
	b.mu.Unlock()
	return &workspaceSnapshot{id: id, folders: b.sess.Snapshots(), versions: versions, reports: b.reports}, func() {}
}

// editorSettings drops the keys that configure the editor side ("server",
// "trace") so they are not reported as unknown configuration, and renames
// the editors' camelCase keys to the `.clew.yml` ones.
func editorSettings(raw Settings) []byte {
	var m map[string]json.RawMessage
	if len(raw) == 0 || json.Unmarshal(raw, &m) != nil {
		return nil
	}
	delete(m, "server")
	delete(m, "trace")
	yamlSpelling(m)
	if len(m) == 0 {
		return nil
	}
	out, _ := json.Marshal(m)
	return out
}

type workspaceSnapshot struct {
	id       uint64
	folders  []*workspace.Snapshot
	versions map[string]int32
	reports  *reportCache
}

func (s *workspaceSnapshot) ID() uint64 { return s.id }

// Folders gives feature handlers the per-folder snapshots.
func (s *workspaceSnapshot) Folders() []*workspace.Snapshot { return s.folders }

// Diagnose checks every folder and converts findings, keyed by absolute
// path, with the text their offsets refer to.
func (s *workspaceSnapshot) Diagnose(ctx context.Context) (map[string]FileDiagnostics, error) {
	out := map[string]FileDiagnostics{}
	for _, snap := range s.folders {
		rep, err := s.reports.get(ctx, snap)
		if err != nil {
			return nil, err
		}
		all := rep.Findings()
		for rel, hints := range query.CodeHints(rep, snap) {
			all[rel] = append(all[rel], hints...)
		}
		for rel, findings := range all {
			text, _ := snap.ReadFile(rel)
			abs := filepath.Join(snap.Root(), filepath.FromSlash(rel))
			fd := FileDiagnostics{Text: text, Version: s.versions[abs]}
			for _, f := range findings {
				fd.Items = append(fd.Items, Diagnostic{
					Start: f.StartByte, End: f.EndByte, Severity: severityOf(f.Severity),
					Code: f.Code, CodeHref: workspace.CodeHref(f.Code), Message: f.Message,
				})
			}
			out[abs] = fd
		}
	}
	return out, ctx.Err()
}

func severityOf(s workspace.Severity) Severity {
	switch s {
	case workspace.SeverityError:
		return SeverityError
	case workspace.SeverityWarning:
		return SeverityWarning
	case query.SeverityHint:
		return SeverityHint
	}
	return SeverityInformation
}
