package anchors

import "strings"

// SHAToken is the `sha=` token a confirm writes for a binding: the single
// hash of a lines or doc binding, decl[,body] for a symbol.
func SHAToken(b Binding) string {
	sha := "sha=" + b.DeclHash
	if b.Form == FormSymbol && b.BodyHash != "" {
		sha += "," + b.BodyHash
	}
	return sha
}

// FormatAnchor writes the whole anchor comment for a binding, pinned (with
// its current hashes) or not: what "Copy anchor" and `clew-lsp anchor`
// answer, and what anchoring a mention inserts.
func FormatAnchor(b Binding, pinned bool) string {
	parts := []string{"<!-- @code"}
	switch b.Form {
	case FormLines:
		parts = append(parts, "lines", LinesRef(b.Path, b.StartLine, b.EndLine))
	case FormDoc:
		parts = append(parts, "doc", b.Path)
	default:
		parts = append(parts, b.Kind, b.QualifiedName, b.Path)
	}
	if pinned && b.DeclHash != "" {
		parts = append(parts, SHAToken(b))
	}
	return strings.Join(parts, " ") + " -->"
}
