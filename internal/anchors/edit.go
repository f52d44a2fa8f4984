package anchors

import (
	"sort"
	"strconv"
)

// Edit replaces doc bytes [Start, End) with New. Edits touch only the
// anchor tokens they change, so line endings, a BOM and everything around
// the anchor survive byte for byte.
type Edit struct {
	Start, End int
	New        string
}

// RebindEdits rewrites kind, name and path (or the line range) to the
// binding and keeps the pinned hashes: rebinding alone never clears a flag.
func RebindEdits(a Anchor, b Binding) []Edit {
	var out []Edit
	switch a.Form {
	case FormSymbol:
		// An umbrella word (`type` for a Go struct) is kept: it names the
		// declaration; any other kind is rewritten to the declaration's.
		if b.Kind != "" && !KindNames(orPath(b.Path, a.Path), a.Kind, b.Kind) {
			out = append(out, Edit{a.KindSpan.Start, a.KindSpan.End, b.Kind})
		}
		if b.QualifiedName != "" && b.QualifiedName != a.QualifiedName {
			out = append(out, Edit{a.NameSpan.Start, a.NameSpan.End, b.QualifiedName})
		}
		if b.Path != "" && b.Path != a.Path {
			out = append(out, Edit{a.PathSpan.Start, a.PathSpan.End, b.Path})
		}
	case FormLines:
		p := b.Path
		if p == "" {
			p = a.Path
		}
		if p != a.Path || b.StartLine != a.StartLine || b.EndLine != a.EndLine {
			out = append(out, Edit{a.PathSpan.Start, a.PathSpan.End, LinesRef(p, b.StartLine, b.EndLine)})
		}
	case FormDoc:
		p, sec := orPath(b.Path, a.Path), a.Section
		if b.Section != "" {
			sec = b.Section
		}
		if p != a.Path || sec != a.Section {
			out = append(out, Edit{a.PathSpan.Start, a.PathSpan.End, DocRef(p, sec)})
		}
	}
	return out
}

// ConfirmEdits rebinds and writes the binding's current hashes: the one
// explicit act that turns a flag green (docs/anchors.md).
func ConfirmEdits(a Anchor, b Binding) []Edit {
	out := RebindEdits(a, b)
	if b.Form == "" {
		b.Form = a.Form
	}
	sha := SHAToken(b)
	if a.SHASpan.Start == a.SHASpan.End {
		out = append(out, Edit{a.SHASpan.Start, a.SHASpan.End, " " + sha})
	} else if cur := a.SHAText(); cur != sha {
		out = append(out, Edit{a.SHASpan.Start, a.SHASpan.End, sha})
	}
	return out
}

func bodySuffix(body string) string {
	if body == "" {
		return ""
	}
	return "," + body
}

// RemoveEdit deletes the anchor comment; when nothing else stands on its
// line, the whole line goes, line break included.
func RemoveEdit(text []byte, a Anchor) Edit {
	start, end := a.CommentStart, a.CommentEnd+len("-->")
	ls, le := start, end
	for ls > 0 && text[ls-1] != '\n' {
		ls--
	}
	for le < len(text) && text[le] != '\n' {
		le++
	}
	if isBlank(text[ls:start]) && isBlank(text[end:le]) {
		if le < len(text) {
			le++
		}
		return Edit{ls, le, ""}
	}
	return Edit{start, end, ""}
}

func isBlank(b []byte) bool {
	for _, c := range b {
		if c != ' ' && c != '\t' && c != '\r' {
			return false
		}
	}
	return true
}

// LinesRef formats the path token of a lines anchor.
func LinesRef(path string, start, end int) string {
	return path + "#L" + strconv.Itoa(start) + "-L" + strconv.Itoa(end)
}

// ApplyEdits applies non-overlapping edits to text and returns a new slice.
// Overlapping edits are a programming error upstream; the later one is
// dropped rather than corrupting the doc.
func ApplyEdits(text []byte, edits []Edit) []byte {
	sorted := append([]Edit(nil), edits...)
	sort.SliceStable(sorted, func(i, j int) bool { return sorted[i].Start < sorted[j].Start })
	out := make([]byte, 0, len(text)+64)
	pos := 0
	for _, e := range sorted {
		if e.Start < pos || e.End < e.Start || e.End > len(text) {
			continue
		}
		out = append(out, text[pos:e.Start]...)
		out = append(out, e.New...)
		pos = e.End
	}
	return append(out, text[pos:]...)
}

func orPath(p, fallback string) string {
	if p == "" {
		return fallback
	}
	return p
}

// SHAText is the anchor's sha= token as SHAToken would write it for its
// pinned hashes and scheme.
func (a Anchor) SHAText() string {
	if a.Form != FormSymbol || a.Scheme <= 1 {
		return "sha=" + a.DeclSHA + bodySuffix(a.BodySHA)
	}
	return "sha=v" + strconv.Itoa(a.Scheme) + ":" + a.DeclSHA + bodySuffix(a.BodySHA)
}

// DocRef writes a doc anchor's target: the path, and "#slug" for a section.
func DocRef(path, section string) string {
	if section == "" {
		return path
	}
	return path + "#" + section
}
