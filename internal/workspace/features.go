package workspace

// The exported, documented questions the feature packages beside the façade
// (internal/workspace/query, and the context mapping) ask a Snapshot and its
// Report. They reach the snapshot's state only through these and the other
// exported methods, so a feature cannot depend on how the façade stores it.

import (
	"github.com/clew-lsp/clew-lsp/internal/anchors"
	"github.com/clew-lsp/clew-lsp/internal/anchors/symbols"
	"github.com/clew-lsp/clew-lsp/internal/claims"
)

// IsDoc reports whether a workspace path is a Markdown doc under the
// snapshot's configuration.
func (s *Snapshot) IsDoc(rel string) bool { return s.config.IsDoc(rel) }

// Text returns a file's content as the snapshot sees it; ok is false for a
// missing, binary or oversized file.
func (s *Snapshot) Text(rel string) ([]byte, bool) {
	b, st := s.ReadFile(rel)
	return b, st == anchors.FileOK
}

// FileDecls returns the declarations of a code file in this snapshot and
// its content (a SQL file's as its folder's history leaves them). Tables are memoised by content, so this costs a hash when the
// check already parsed the file.
func (s *Snapshot) FileDecls(rel string) ([]symbols.Decl, []byte) {
	text, st := s.ReadFile(rel)
	if st != anchors.FileOK {
		return nil, nil
	}
	lang, ok := s.Language(rel)
	if !ok {
		return nil, text
	}
	if lang == symbols.SQL {
		return s.sqlDecls(rel), text // as the folder's history leaves them
	}
	return s.tables.parse(lang, text).Decls, text
}

// exists reports whether a path is a file of the snapshot, without reading it.
func (s *Snapshot) Exists(p string) bool {
	if anchors.CheckPath(p) != "" {
		return false
	}
	if _, ok := s.overlays[p]; ok {
		return true
	}
	return s.inList(p)
}

// EditorExplanation says, in words, why the anchor is in its state and what
// to do, phrased as editor actions (quick fixes) rather than commands.
func EditorExplanation(a AnchorReport) string { return explain(a, TextOptions{editor: true}) }

// DeclIndex holds the declarations the check read (nil before a check).
func (r *Report) DeclIndex() *anchors.Index { return r.index }

// ClaimsResult is the claims engine's whole result (matches, edits, rows);
// nil when the workspace has no claims.
func (r *Report) ClaimsResult() *claims.Result { return r.claims }

// ClaimFindings are the editor diagnostics of one doc's claim legs and rows.
func (r *Report) ClaimFindings(doc string) []Finding { return r.claimFindings[doc] }

// Table is the declaration table of src in lang, memoised by content for
// every snapshot of one Load: an unchanged file is parsed once.
func (s *Snapshot) Table(lang symbols.Language, src []byte) symbols.Table {
	return s.tables.parse(lang, src)
}

// LoadMemo returns the value a feature keeps under key for every snapshot
// of one Load (the snapshots a Session derives share it), building it with
// build on first use. It lives as long as those snapshots, so a feature can
// memoise by content across edits without a global cache.
func (s *Snapshot) LoadMemo(key any, build func() any) any {
	if v, ok := s.tables.memos.Load(key); ok {
		return v
	}
	v, _ := s.tables.memos.LoadOrStore(key, build())
	return v
}

// GitAdapter is the Git the snapshot was loaded with (nil without one); a
// feature asks it for optional extensions such as GitLog.
func (s *Snapshot) GitAdapter() Git { return s.git }
