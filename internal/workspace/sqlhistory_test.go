package workspace_test

import (
	"context"
	"testing"

	"github.com/clew-lsp/clew-lsp/internal/workspace"
	"github.com/clew-lsp/clew-lsp/internal/workspace/disk"
	"github.com/clew-lsp/clew-lsp/internal/workspace/wstest"
)

// An unsaved ALTER in a later migration makes the anchor hinting the first
// one stale in the next snapshot of the same session, and closing the
// buffer makes it fresh again: the memoised verdicts are keyed by the
// whole folder, not by the hinted file alone.
func TestSQLHistoryOverlay(t *testing.T) {
	r := wstest.New(t)
	r.Write(map[string]string{
		"db/migrations/001_init.sql": "CREATE TABLE users (\n  id bigint PRIMARY KEY,\n  email text NOT NULL\n);\n",
		"db/migrations/002_noop.sql": "-- nothing yet\n",
		"docs/db.md":                 "# DB\n<!-- @code table users db/migrations/001_init.sql -->\n",
	})
	r.Commit("init")
	if refused := r.ConfirmAll(); len(refused) != 0 {
		t.Fatalf("refused %v", refused)
	}
	snap, err := disk.Load(r.Dir)
	if err != nil {
		t.Fatal(err)
	}
	ctx := context.Background()
	rep, _ := snap.Check(ctx, workspace.CheckOptions{})
	if got := states(rep); got != "docs/db.md:2=fresh/identity_matched" {
		t.Fatalf("pinned: %s", got)
	}
	edited := snap.WithOverlays(map[string][]byte{"db/migrations/002_noop.sql": []byte("ALTER TABLE users ADD COLUMN name text;\n")})
	rep, _ = edited.Check(ctx, workspace.CheckOptions{})
	if got := states(rep); got != "docs/db.md:2=stale/body_changed" || rep.Anchors[0].Detail.Path != "db/migrations/002_noop.sql" {
		t.Errorf("an ALTER in the unsaved later migration: %s at %s", got, rep.Anchors[0].Detail.Path)
	}
	back := edited.WithOverlays(map[string][]byte{"db/migrations/002_noop.sql": nil})
	rep, _ = back.Check(ctx, workspace.CheckOptions{})
	if got := states(rep); got != "docs/db.md:2=fresh/identity_matched" {
		t.Errorf("buffer closed: %s", got)
	}
}
