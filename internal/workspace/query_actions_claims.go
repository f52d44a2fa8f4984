package workspace

// claimFixes answers one diagnostic the editor names in doc whose code
// starts with "claim/" (SPEC §4 code actions): "Rewrite the moved glob" for
// claim/moved and "Fix the regex dialect" (`\s` → `[[:space:]]`) for
// claim/parse. Fixes have Request set to req and Kind FixQuick, each a
// DocEdit against the snapshot's content, as anchorFixes does; the work is
// in query_claims.go.
func (r *Report) claimFixes(s *Snapshot, doc string, req int, fr FixRequest) []Fix {
	return r.claimFixesOf(s, doc, req, fr)
}
