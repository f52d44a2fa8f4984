package workspace_test

import (
	"path/filepath"
	"testing"

	"github.com/clew-lsp/clew-lsp/internal/workspace"
	"github.com/clew-lsp/clew-lsp/internal/workspace/disk"
	"github.com/clew-lsp/clew-lsp/internal/workspace/wstest"
)

// TestOverlaySnapshotsShareDiskReads: a snapshot that only changes buffers
// reuses what the previous one read from disk (disk changes arrive through
// DiskChanged), except the files whose buffers changed: closing a buffer
// shows the disk as it is now, so a save followed by a close is never lost.
func TestOverlaySnapshotsShareDiskReads(t *testing.T) {
	r := wstest.New(t)
	r.Write(map[string]string{"lib/a.go": "package lib // A\n", "docs/x.md": "# X\n"})
	r.Commit("base")
	sess := workspace.NewSession(disk.Loader)
	if err := sess.AddFolder(r.Dir); err != nil {
		t.Fatal(err)
	}
	snap := func() *workspace.Snapshot { return sess.Snapshots()[0] }
	text := func(rel string) string {
		b, ok := snap().Text(rel)
		if !ok {
			t.Fatalf("%s unreadable", rel)
		}
		return string(b)
	}
	abs := func(rel string) string { return filepath.Join(snap().Root(), filepath.FromSlash(rel)) }

	if got := text("lib/a.go"); got != "package lib // A\n" {
		t.Fatal(got)
	}
	r.Write(map[string]string{"lib/a.go": "package lib // B\n"}) // saved by someone, not yet reported
	sess.SetOverlays(map[string][]byte{abs("docs/x.md"): []byte("# X edited\n")})
	if got := text("lib/a.go"); got != "package lib // A\n" {
		t.Errorf("a buffer change elsewhere re-read the disk: %q", got)
	}
	sess.SetOverlays(map[string][]byte{abs("lib/a.go"): []byte("package lib // C\n")})
	if got := text("lib/a.go"); got != "package lib // C\n" {
		t.Errorf("the buffer wins: %q", got)
	}
	sess.SetOverlays(map[string][]byte{abs("lib/a.go"): nil})
	if got := text("lib/a.go"); got != "package lib // B\n" {
		t.Errorf("closing a buffer shows the disk as it is now: %q", got)
	}
	r.Write(map[string]string{"docs/x.md": "# X on disk\n"})
	if err := sess.DiskChanged([]string{abs("docs/x.md")}); err != nil {
		t.Fatal(err)
	}
	if got := text("docs/x.md"); got != "# X edited\n" {
		t.Errorf("the open buffer still wins after a disk change: %q", got)
	}
	sess.SetOverlays(map[string][]byte{abs("docs/x.md"): nil})
	if got := text("docs/x.md"); got != "# X on disk\n" {
		t.Errorf("after close: %q", got)
	}
}
