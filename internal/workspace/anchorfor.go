package workspace

import (
	"fmt"
	"path"

	"github.com/clew-lsp/clew-lsp/internal/anchors"
	"github.com/clew-lsp/clew-lsp/internal/anchors/symbols"
)

// AnchorLine is the anchor a writer pastes for one declaration: what
// `clew-lsp anchor FILE:LINE`, the "Copy anchor" code action and the MCP
// tool answer, computed by one function.
type AnchorLine struct {
	// Anchor is the whole comment, e.g.
	// `<!-- @code method Cache.Lookup resolver/resolve.go sha=…,… -->`.
	Anchor        string `json:"anchor"`
	Pinned        bool   `json:"pinned"`
	Kind          string `json:"kind"`
	QualifiedName string `json:"qualified_name"`
	Path          string `json:"path"`
	LineStart     int    `json:"line_start"`
	LineEnd       int    `json:"line_end"`
	// Warning says why the anchor would not resolve to this declaration
	// alone (another declaration of the file with the same kind, name and
	// hash); "" when it will.
	Warning string `json:"warning,omitempty"`
}

// Title is how editors name the target: "method Cache.Lookup".
func (l AnchorLine) Title() string { return l.Kind + " " + l.QualifiedName }

// AnchorForError says why no anchor could be made; Message is written for
// the person who asked.
type AnchorForError struct{ Message string }

func (e *AnchorForError) Error() string { return e.Message }

// AnchorFor answers the anchor for the declaration at a 1-based line and a
// 1-based byte column of a code file (col 0: the whole line). With a column,
// the innermost declaration holding it wins (its name first). Without one,
// the declaration whose name comes first on the line (`type Cache struct{ m
// int }` is the struct, not its field), else the innermost one holding the
// line's first non-blank byte. pinned adds `sha=` with the
// current hashes, as confirm would write them.
func (s *Snapshot) AnchorFor(rel string, line, col int, pinned bool) (AnchorLine, error) {
	text, st := s.ReadFile(rel)
	switch st {
	case anchors.FileOK:
	case anchors.FileMissing:
		return AnchorLine{}, &AnchorForError{fmt.Sprintf("%s: no such file in the workspace", rel)}
	default:
		return AnchorLine{}, &AnchorForError{fmt.Sprintf("%s: binary or too large to read", rel)}
	}
	start, end, ok := lineBounds(text, line)
	if !ok {
		return AnchorLine{}, &AnchorForError{fmt.Sprintf("%s:%d: the file has fewer lines", rel, line)}
	}
	if col > 0 {
		if col-1 > end-start {
			return AnchorLine{}, &AnchorForError{fmt.Sprintf("%s:%d:%d: the line has %d bytes", rel, line, col, end-start)}
		}
		return s.AnchorAtOffset(rel, start+col-1, pinned)
	}
	decls, err := s.declsForAnchor(rel)
	if err != nil {
		return AnchorLine{}, err
	}
	best := -1
	for i, d := range decls {
		if d.NameStartByte >= start && d.NameStartByte <= end && (best < 0 || d.NameStartByte < decls[best].NameStartByte) {
			best = i
		}
	}
	if best < 0 {
		first := start
		for first < end && (text[first] == ' ' || text[first] == '\t') {
			first++
		}
		best = innermost(decls, first)
	}
	if best < 0 {
		return AnchorLine{}, s.noDeclAt(rel, line, decls)
	}
	return s.anchorLineOf(rel, decls, best, pinned), nil
}

// AnchorAtOffset is AnchorFor at a byte offset: the declaration whose name
// holds off, else the innermost one whose span holds it.
func (s *Snapshot) AnchorAtOffset(rel string, off int, pinned bool) (AnchorLine, error) {
	decls, err := s.declsForAnchor(rel)
	if err != nil {
		return AnchorLine{}, err
	}
	best := -1
	for i, d := range decls {
		if off >= d.NameStartByte && off <= d.NameEndByte && (best < 0 || declSize(d) < declSize(decls[best])) {
			best = i
		}
	}
	if best < 0 {
		best = innermost(decls, off)
	}
	if best < 0 {
		text, _ := s.ReadFile(rel)
		return AnchorLine{}, s.noDeclAt(rel, lineOfOffset(text, off), decls)
	}
	return s.anchorLineOf(rel, decls, best, pinned), nil
}

func (s *Snapshot) declsForAnchor(rel string) ([]symbols.Decl, error) {
	text, st := s.ReadFile(rel)
	if st != anchors.FileOK {
		return nil, &AnchorForError{fmt.Sprintf("%s: not readable in the workspace", rel)}
	}
	lang, ok := s.Language(rel)
	if !ok {
		return nil, &AnchorForError{fmt.Sprintf("%s has no declaration table (no grammar, or disabled in %s); anchor a line range instead: <!-- @code lines %s#L<start>-L<end> -->", rel, ConfigFile, rel)}
	}
	return s.tables.parse(lang, text).Decls, nil
}

func (s *Snapshot) anchorLineOf(rel string, decls []symbols.Decl, i int, pinned bool) AnchorLine {
	d := decls[i]
	b := anchors.Binding{Form: anchors.FormSymbol, Kind: d.Kind, QualifiedName: d.QualifiedName, Path: rel,
		StartLine: d.StartLine, EndLine: d.EndLine, DeclHash: d.DeclHash, BodyHash: d.BodyHash}
	sqlWarning := ""
	if s.isSQL(rel) {
		// The pin is what the folder's history makes of the object (a
		// later ALTER included), as the check will hash it.
		if cur, at, ok := s.sqlCurrent(rel, d); ok {
			b.DeclHash, b.BodyHash = cur.DeclHash, cur.BodyHash
			if at != rel || cur.StartLine != d.StartLine {
				sqlWarning = fmt.Sprintf("%s %s was last changed at %s:%d; the anchor binds to it there", d.Kind, d.QualifiedName, at, cur.StartLine)
			}
		} else {
			sqlWarning = fmt.Sprintf("%s %s is dropped or renamed by a later statement of %s; the anchor would be lost", d.Kind, d.QualifiedName, path.Dir(rel)+"/")
		}
	}
	l := AnchorLine{Anchor: anchors.FormatAnchor(b, pinned), Pinned: pinned, Kind: d.Kind,
		QualifiedName: d.QualifiedName, Path: rel, LineStart: d.StartLine, LineEnd: d.EndLine, Warning: sqlWarning}
	if sqlWarning != "" {
		return l
	}
	for j, o := range decls {
		if j != i && o.Kind == d.Kind && o.QualifiedName == d.QualifiedName && (!pinned || o.DeclHash == d.DeclHash) {
			l.Warning = fmt.Sprintf("%s %s is declared again at %s:%d; the anchor would be ambiguous", d.Kind, d.QualifiedName, rel, o.StartLine)
			break
		}
	}
	return l
}

func (s *Snapshot) noDeclAt(rel string, line int, decls []symbols.Decl) error {
	msg := fmt.Sprintf("%s:%d is not inside a declaration", rel, line)
	if len(decls) == 0 {
		return &AnchorForError{msg + " (the file declares nothing anchors can name); anchor a line range instead: <!-- @code lines " + anchors.LinesRef(rel, line, line) + " -->"}
	}
	near := decls[0]
	for _, d := range decls {
		if qAbsInt(d.StartLine-line) < qAbsInt(near.StartLine-line) {
			near = d
		}
	}
	return &AnchorForError{fmt.Sprintf("%s; the nearest is %s %s at line %d", msg, near.Kind, near.QualifiedName, near.StartLine)}
}

func innermost(decls []symbols.Decl, off int) int {
	best := -1
	for i, d := range decls {
		if off >= d.StartByte && off < d.EndByte && (best < 0 || declSize(d) < declSize(decls[best])) {
			best = i
		}
	}
	return best
}

func declSize(d symbols.Decl) int { return d.EndByte - d.StartByte }

func qAbsInt(n int) int {
	if n < 0 {
		return -n
	}
	return n
}

// lineBounds is the byte range of 1-based line n, without its line break.
func lineBounds(text []byte, n int) (start, end int, ok bool) {
	if n < 1 {
		return 0, 0, false
	}
	line := 1
	for i := 0; i < len(text) && line < n; i++ {
		if text[i] == '\n' {
			line++
			start = i + 1
		}
	}
	if line < n || (start == len(text) && n > 1) {
		return 0, 0, false
	}
	end = start
	for end < len(text) && text[end] != '\n' {
		end++
	}
	if end > start && text[end-1] == '\r' {
		end--
	}
	return start, end, true
}

func lineOfOffset(text []byte, off int) int {
	n := 1
	for i := 0; i < off && i < len(text); i++ {
		if text[i] == '\n' {
			n++
		}
	}
	return n
}
