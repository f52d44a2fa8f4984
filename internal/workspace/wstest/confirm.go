package wstest

import (
	"context"

	"github.com/clew-lsp/clew-lsp/internal/workspace"
	"github.com/clew-lsp/clew-lsp/internal/workspace/disk"
)

// ConfirmAll pins and confirms every anchor of the work tree exactly as
// `clew-lsp confirm --all` does (check, confirm, write through the disk
// adapter) and returns what was refused. Tests use it to pin docs on the
// "before" code of a scenario.
func (r *Repo) ConfirmAll() []workspace.Refusal {
	r.t.Helper()
	snap, err := disk.Load(r.Dir)
	if err != nil {
		r.t.Fatal(err)
	}
	rep, err := snap.Check(context.Background(), workspace.CheckOptions{})
	if err != nil {
		r.t.Fatal(err)
	}
	res := rep.Confirm(nil, true)
	files, _, err := disk.Open(r.Dir)
	if err != nil {
		r.t.Fatal(err)
	}
	for _, de := range res.Edits {
		if err := files.WriteFile(de.Doc, de.Apply([]byte(r.Read(de.Doc)))); err != nil {
			r.t.Fatal(err)
		}
	}
	return res.Refused
}
