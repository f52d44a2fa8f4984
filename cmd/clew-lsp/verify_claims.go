package main

import (
	"sort"

	"github.com/clew-lsp/clew-lsp/internal/workspace"
)

// selfHeal is what verify writes without --check: anchor rebinds and
// moved claim globs, merged per doc so each doc is written once (a law
// file can hold both a `@code` rebind and an `@anchor` rewrite).
func selfHeal(rep *workspace.Report) []workspace.DocEdit {
	byDoc := map[string]*workspace.DocEdit{}
	for _, de := range append(rep.Rebinds(), rep.ClaimEdits()...) {
		if cur, ok := byDoc[de.Doc]; ok {
			cur.Edits = append(cur.Edits, de.Edits...)
			continue
		}
		d := de
		byDoc[de.Doc] = &d
	}
	out := make([]workspace.DocEdit, 0, len(byDoc))
	for _, d := range byDoc {
		out = append(out, *d)
	}
	sort.Slice(out, func(i, j int) bool { return out[i].Doc < out[j].Doc })
	return out
}
