package lsp

import (
	"fmt"
	"os"
	"path/filepath"
	"strings"
	"testing"

	"go.lsp.dev/protocol"
	"go.lsp.dev/uri"

	"github.com/clew-lsp/clew-lsp/internal/lsp/lsptest"
)

// TestDiskChangeWithoutEditorEvents: a doc created on disk in an open
// workspace gets its diagnostics with no editor event at all (fsnotify).
func TestDiskChangeWithoutEditorEvents(t *testing.T) {
	f := newFixture(t, map[string]string{"lib/resolve.go": resolveGo, "docs/guide.md": guideMD}, lsptest.Options{})
	f.init()
	if n := fsnotifyWatchers.Load(); n != 1 {
		t.Errorf("fsnotify watchers: %d, want 1 (the client cannot watch)", n)
	}
	f.r.Write(map[string]string{"docs/new.md": "# New\n\n<!-- @code function Nowhere lib/resolve.go -->\n"})
	f.awaitCode("docs/new.md", "anchor/lost", 3)

	// A code change on disk flips the guide's anchor.
	f.r.Write(map[string]string{"lib/resolve.go": strings.Replace(resolveGo, `"anonymous"`, `"nobody"`, 1)})
	f.awaitCode("docs/guide.md", "anchor/stale", 6)
}

// TestWatcherStorm: 2,000 files created at once (a checkout) cause one
// re-check, not thousands.
func TestWatcherStorm(t *testing.T) {
	f := newFixture(t, map[string]string{"lib/resolve.go": resolveGo, "docs/guide.md": guideMD}, lsptest.Options{})
	f.init()
	before := len(f.c.State().Diagnosed)

	dir := filepath.Join(f.root, "gen")
	must(t, os.MkdirAll(dir, 0o755))
	for i := range 2000 {
		must(t, os.WriteFile(filepath.Join(dir, fmt.Sprintf("f%04d.go", i)), []byte(fmt.Sprintf("package gen\n\nconst C%d = %d\n", i, i)), 0o644))
	}
	if _, err := f.c.Await(f.ctx, "a pass after the storm", func(s lsptest.State) bool { return len(s.Diagnosed) > before }); err != nil {
		t.Fatal(err)
	}
	// A marker written after the storm's pass: if the storm had been split
	// into several batches, their passes would come before the marker's.
	// (An anchor settled in its hinted file: a lost one would send the
	// check through the 2,000 new files and hit the files budget.)
	f.r.Write(map[string]string{"docs/marker.md": "# M\n\n<!-- @code method Resolver.Resolve lib/resolve.go -->\n"})
	f.awaitCode("docs/marker.md", "anchor/unpinned", 3)
	// The pass's $/clew/diagnosed follows its publishDiagnostics: wait for
	// it before counting.
	if _, err := f.c.Await(f.ctx, "the marker's pass", func(s lsptest.State) bool { return len(s.Diagnosed)-before >= 2 }); err != nil {
		t.Fatal(err)
	}
	if n := len(f.c.State().Diagnosed) - before; n != 2 {
		t.Errorf("%d diagnosis passes for the storm and the marker, want 2", n)
	}
}

// TestClientWatchedFiles: a client that can register file watching gets
// "**/*" registered, the server runs no fsnotify of its own, and the
// client's events re-check the workspace.
func TestClientWatchedFiles(t *testing.T) {
	caps := defaultTestCaps()
	caps.Workspace.DidChangeWatchedFiles = &protocol.DidChangeWatchedFilesClientCapabilities{DynamicRegistration: ptr(true)}
	f := newFixture(t, map[string]string{"lib/resolve.go": resolveGo, "docs/guide.md": guideMD}, lsptest.Options{Capabilities: &caps})
	f.init()
	var reg *protocol.Registration
	for _, r := range f.c.State().Registrations {
		if r.Method == protocol.MethodWorkspaceDidChangeWatchedFiles {
			reg = &r
		}
	}
	if reg == nil || !strings.Contains(string(reg.RegisterOptions), `"globPattern":"**/*"`) {
		t.Fatalf("registrations %+v", f.c.State().Registrations)
	}
	if n := fsnotifyWatchers.Load(); n != 0 {
		t.Errorf("fsnotify watchers: %d, want none when the client watches", n)
	}
	f.r.Write(map[string]string{"docs/new.md": "# New\n\n<!-- @code function Nowhere lib/resolve.go -->\n"})
	must(t, f.c.Notify(f.ctx, protocol.MethodWorkspaceDidChangeWatchedFiles, &protocol.DidChangeWatchedFilesParams{
		Changes: []protocol.FileEvent{
			{URI: uri.File(f.path("docs/new.md")), Type: protocol.FileChangeTypeCreated},
			{URI: uri.File(f.path(".git/index")), Type: protocol.FileChangeTypeChanged},
		}}))
	f.awaitCode("docs/new.md", "anchor/lost", 3)
}

func TestGitInternal(t *testing.T) {
	for p, want := range map[string]bool{
		"/w/.git/index": true, "/w/.git/objects/ab/cd": true, "/w/.git/HEAD": false,
		"/w/.git/refs/heads/main": false, "/w/.git/packed-refs": false, "/w/docs/a.md": false, "/w/.github/x": false,
	} {
		if gitInternal(p) != want {
			t.Errorf("gitInternal(%s) = %v", p, !want)
		}
	}
}
