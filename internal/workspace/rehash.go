package workspace

import (
	"fmt"

	"github.com/clew-lsp/clew-lsp/internal/anchors"
	"github.com/clew-lsp/clew-lsp/internal/anchors/symbols"
)

// RehashResult is what `confirm --rehash` writes and what it leaves.
type RehashResult struct {
	Edits    []DocEdit
	Rehashed []Rehashed
	Left     []Refusal // pins of an older scheme that could not be re-pinned, with why
}

// Rehashed is one anchor re-pinned under the current hash scheme.
type Rehashed struct {
	Anchor AnchorReport
	Commit string // the commit that wrote the old pin ("" when the hash itself proved it)
}

// Rehash re-pins, under the current hash scheme, exactly the anchors pinned
// under another one whose code is unchanged since the commit that last
// wrote their pin: the declaration as it was at that commit hashes, under
// today's rules, as it does now. Everything else of an older scheme is
// listed with the reason (changed since, no history). Anchors already of
// the current scheme are not touched.
func (s *Snapshot) Rehash(rep *Report, targets []Target, all bool) RehashResult {
	var res RehashResult
	run := &checkRun{s: s, memo: s.memo}
	at, hasAt := s.git.(GitFileAt)
	byDoc := map[string][]anchors.Edit{}
	for _, a := range rep.Anchors {
		an := a.Anchor
		if an.Form != anchors.FormSymbol || !an.Pinned() || an.Scheme == symbols.HashScheme || !covers(targets, all, a) {
			continue
		}
		leave := func(why string) { res.Left = append(res.Left, Refusal{a, a.ID + ": " + why}) }
		if a.Found == nil {
			leave(fmt.Sprintf("does not resolve (%s); fix the anchor, then `clew-lsp confirm %s`", a.State, a.ID))
			continue
		}
		commit := ""
		switch {
		case a.State == anchors.StateFresh:
			// The old hash equals today's: the tokens are the same under both schemes.
		case a.State != anchors.StateUnchecked || a.Detail.Reason != anchors.ReasonHashScheme:
			leave(fmt.Sprintf("is %s (%s): review it, then `clew-lsp confirm %s`", a.State, a.Detail.Reason, a.ID))
			continue
		default:
			c, ok := run.pinCommit(an)
			if !ok || !hasAt {
				leave("git history does not hold the commit that wrote its pin (not committed, or no repository): review it, then `clew-lsp confirm " + a.ID + "`")
				continue
			}
			then, ok := declAtCommit(s, at, c, an)
			if !ok {
				leave(fmt.Sprintf("%s %s is not in %s at %s, the commit that wrote its pin: review it, then `clew-lsp confirm %s`", an.Kind, an.QualifiedName, an.Path, short(c), a.ID))
				continue
			}
			if then.DeclHash != a.Found.DeclHash || a.Found.Path != an.Path {
				leave(fmt.Sprintf("its code changed since %s, the commit that wrote its pin: re-read the passage, then `clew-lsp confirm %s`", short(c), a.ID))
				continue
			}
			commit = c
		}
		if e := anchors.ConfirmEdits(an, *a.Found); len(e) > 0 {
			byDoc[a.Doc] = append(byDoc[a.Doc], e...)
		}
		res.Rehashed = append(res.Rehashed, Rehashed{Anchor: a, Commit: commit})
	}
	res.Edits = groupEdits(byDoc)
	return res
}

// declAtCommit finds the anchor's declaration (name within its kind family)
// in its file at a commit, hashed under today's scheme.
func declAtCommit(s *Snapshot, at GitFileAt, commit string, a anchors.Anchor) (symbols.Decl, bool) {
	lang, ok := s.Language(a.Path)
	if !ok {
		return symbols.Decl{}, false
	}
	content, ok := at.FileAt(commit, a.Path)
	if !ok {
		return symbols.Decl{}, false
	}
	for _, d := range s.tables.parse(lang, content).Decls {
		if d.QualifiedName == a.QualifiedName && anchors.SameFamily(a.Path, d.Kind, a.Kind) {
			return d, true
		}
	}
	return symbols.Decl{}, false
}

func covers(targets []Target, all bool, a AnchorReport) bool {
	if all {
		return true
	}
	for _, t := range targets {
		if t.Doc == a.Doc && (t.Line == 0 || t.Line == a.Line) {
			return true
		}
	}
	return false
}

func short(c string) string {
	if len(c) > 12 {
		return c[:12]
	}
	return c
}
