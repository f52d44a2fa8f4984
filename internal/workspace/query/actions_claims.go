package query

import "github.com/clew-lsp/clew-lsp/internal/workspace"

// claimFixes answers one diagnostic the editor names in doc whose code
// starts with "claim/" (docs/server.md code actions): "Rewrite the moved glob" for
// claim/moved and "Fix the regex dialect" (`\s` → `[[:space:]]`) for
// claim/parse. Fixes have Request set to req and Kind FixQuick, each a
// DocEdit against the snapshot's content, as anchorFixes does; the work is
// in claims.go.
func claimFixes(r *workspace.Report, s *workspace.Snapshot, doc string, req int, fr FixRequest) []Fix {
	return claimFixesOf(r, s, doc, req, fr)
}
