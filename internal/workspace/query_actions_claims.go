package workspace

// claimFixes is the extension point for the claims engine's quick fixes
// (SPEC §4 code actions): "rewrite a moved glob" for claim/moved and "fix a
// regex dialect error" (`\s` → `[[:space:]]`) for claim/parse. It gets one
// diagnostic the editor names in doc (its code starts with "claim/") and
// returns Fixes with Request set to req and Kind FixQuick, each a DocEdit
// against the snapshot's content, exactly as anchorFixes does.
//
// TODO(claims): fill in from the claims report once ClaimReport carries the
// leg's byte spans and its proposed glob / regex rewrite.
func (r *Report) claimFixes(s *Snapshot, doc string, req int, fr FixRequest) []Fix {
	return nil
}
