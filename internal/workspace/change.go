package workspace

import (
	"fmt"

	"github.com/clew-lsp/clew-lsp/internal/anchors"
	"github.com/clew-lsp/clew-lsp/internal/anchors/hash"
)

// changeDepth bounds the commits searched for the reviewed version.
const changeDepth = 100

// Change is what changed in a stale anchor's code since it was reviewed:
// the declaration (or range, or doc) as it was at the newest commit where it
// hashes as pinned, and as it is now. What `clew-lsp diff DOC:LINE` prints
// and `clew.showChange` answers.
type Change struct {
	Anchor string `json:"anchor"` // DOC:LINE
	// Subject names what the anchor binds, as diagnostics do: "method
	// Cache.Lookup", "lines config/service.yml#L1-L4", "doc docs/x.md".
	Subject        string `json:"subject"`
	Path           string `json:"path"`
	Before         string `json:"before"`
	After          string `json:"after"`
	ReviewedCommit string `json:"reviewed_commit"`
	// BeforeFile is the file as it is now with After replaced by Before:
	// an editor diffs it against the file itself, so the change shows in
	// place, on the file's own line numbers, and the right side stays the
	// real, editable file.
	BeforeFile string `json:"before_file"`
}

// ChangeError says why no reviewed version could be shown.
type ChangeError struct{ Message string }

func (e *ChangeError) Error() string { return e.Message }

// ChangeOf recovers the reviewed version of the anchor at doc:line from git
// history (bounded: the newest changeDepth commits of the file) and pairs
// it with the current code.
func (s *Snapshot) ChangeOf(rep *Report, doc string, line int) (Change, error) {
	var a AnchorReport
	found := false
	for _, x := range rep.Anchors {
		if x.Doc == doc && x.Line == line {
			a, found = x, true
		}
	}
	if !found {
		return Change{}, &ChangeError{fmt.Sprintf("no @code anchor on line %d of %s", line, doc)}
	}
	if !a.Anchor.Pinned() || a.Found == nil {
		return Change{}, &ChangeError{fmt.Sprintf("%s is %s: there is no reviewed version to compare with", a.ID, a.State)}
	}
	b := *a.Found
	content, st := s.ReadFile(b.Path)
	start, end, ok := s.bindingSpan(b, content)
	if st != anchors.FileOK || !ok {
		return Change{}, &ChangeError{fmt.Sprintf("%s: %s cannot be read", a.ID, b.Path)}
	}
	log, ok := s.git.(GitLog)
	if !ok {
		return Change{}, &ChangeError{fmt.Sprintf("%s: no git history here, so the reviewed version cannot be recovered", a.ID)}
	}
	for _, c := range log.Commits(b.Path, changeDepth) {
		if c.Content == nil {
			continue
		}
		if then, ok := s.reviewedIn(a.Anchor, b, c.Content); ok {
			return Change{Anchor: a.ID, Subject: AnchorSubject(a), Path: b.Path, Before: then, After: string(content[start:end]),
				ReviewedCommit: c.SHA, BeforeFile: string(content[:start]) + then + string(content[end:])}, nil
		}
	}
	return Change{}, &ChangeError{fmt.Sprintf("%s: the reviewed version (hash %s) is not in the last %d commits of %s; the history does not hold it", a.ID, a.Anchor.DeclSHA, changeDepth, b.Path)}
}

// bindingText is the text a binding covers in content.
func (s *Snapshot) bindingText(b anchors.Binding, content []byte) (string, bool) {
	start, end, ok := s.bindingSpan(b, content)
	if !ok {
		return "", false
	}
	return string(content[start:end]), true
}

// bindingSpan is the byte span a binding covers in content: the
// declaration, the line range (without its last line's end), or all of it.
func (s *Snapshot) bindingSpan(b anchors.Binding, content []byte) (start, end int, ok bool) {
	switch b.Form {
	case anchors.FormSymbol:
		lang, ok := s.Language(b.Path)
		if !ok {
			return 0, 0, false
		}
		for _, d := range s.tables.parse(lang, content).Decls {
			if d.QualifiedName == b.QualifiedName && d.Kind == b.Kind && (d.StartLine == b.StartLine || b.StartLine == 0) {
				return d.StartByte, d.EndByte, true
			}
		}
		return 0, 0, false
	case anchors.FormLines:
		start, _, ok1 := lineBounds(content, b.StartLine)
		_, end, ok2 := lineBounds(content, b.EndLine)
		if !ok1 || !ok2 {
			return 0, 0, false
		}
		return start, end, true
	case anchors.FormDoc:
		if b.Section != "" { // the section's lines, heading included
			start, _, ok1 := lineBounds(content, b.StartLine)
			_, end, ok2 := lineBounds(content, b.EndLine)
			return start, end, ok1 && ok2
		}
	}
	return 0, len(content), true
}

// reviewedIn finds, in one old version of the file, the declaration (or
// range, or doc) whose hash is the pinned one.
func (s *Snapshot) reviewedIn(a anchors.Anchor, b anchors.Binding, content []byte) (string, bool) {
	switch a.Form {
	case anchors.FormSymbol:
		lang, ok := s.Language(b.Path)
		if !ok {
			return "", false
		}
		for _, d := range s.tables.parse(lang, content).Decls {
			if d.DeclHash == a.DeclSHA && d.QualifiedName == a.QualifiedName {
				return string(content[d.StartByte:d.EndByte]), true
			}
		}
	case anchors.FormDoc:
		if a.Section != "" {
			for _, sec := range anchors.Sections(content) {
				if sec.Slug == a.Section && sec.BodyHash == a.DeclSHA {
					return s.bindingText(anchors.Binding{Form: anchors.FormDoc, Path: b.Path, Section: sec.Slug, StartLine: sec.StartLine, EndLine: sec.EndLine}, content)
				}
			}
			return "", false
		}
		if hash.Doc(content) == a.DeclSHA {
			return string(content), true
		}
	case anchors.FormLines:
		if sum, ok := hash.Lines(content, a.StartLine, a.EndLine); ok && sum == a.DeclSHA {
			return s.bindingText(anchors.Binding{Form: anchors.FormLines, Path: b.Path, StartLine: a.StartLine, EndLine: a.EndLine}, content)
		}
	}
	return "", false
}
