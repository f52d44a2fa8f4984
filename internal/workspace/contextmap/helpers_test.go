package contextmap_test

import (
	"context"
	"testing"

	"github.com/clew-lsp/clew-lsp/internal/workspace"
	"github.com/clew-lsp/clew-lsp/internal/workspace/disk"
	"github.com/clew-lsp/clew-lsp/internal/workspace/wstest"
)

// tourDir is the example workspace (the one the façade's tour tests pin).
const tourDir = "../../../examples/tour"

// tourRepo is the example committed into a fresh repository.
func tourRepo(t *testing.T) *wstest.Repo {
	t.Helper()
	r := wstest.New(t)
	r.CopyFrom(tourDir)
	r.Commit("tour")
	return r
}

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
