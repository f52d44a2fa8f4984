package query_test

import (
	"context"
	"testing"

	"github.com/clew-lsp/clew-lsp/internal/workspace"
	"github.com/clew-lsp/clew-lsp/internal/workspace/disk"
)

// check loads dir from disk and checks it, as `clew-lsp verify` does.
func check(t *testing.T, dir string, opt workspace.CheckOptions) *workspace.Report {
	t.Helper()
	snap, err := disk.Load(dir)
	if err != nil {
		t.Fatal(err)
	}
	rep, err := snap.Check(context.Background(), opt)
	if err != nil {
		t.Fatal(err)
	}
	return rep
}
