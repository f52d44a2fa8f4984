package anchors

import (
	"strconv"
	"strings"

	"github.com/clew-lsp/clew-lsp/internal/anchors/symbols"
)

// SHAToken is the `sha=` token a confirm writes for a binding: the single
// hash of a lines or doc binding; for a symbol, the hash scheme's marker and
// decl[,body] (`sha=v2:5d2c5c539dfa,12a6920eb832`).
func SHAToken(b Binding) string {
	if b.Form != FormSymbol {
		return "sha=" + b.DeclHash // line and doc hashes do not depend on token rules
	}
	sha := "sha=v" + strconv.Itoa(symbols.HashScheme) + ":" + b.DeclHash
	if b.BodyHash != "" {
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
