// Package anchors is the pure core of code anchors (docs/anchors.md): it finds
// `@code` lines in Markdown, resolves each against declaration tables with
// the five-stage ladder, and computes the text edits that rebind or confirm
// an anchor.
//
// Architecture invariant: this package takes bytes and returns values. It
// imports no os, no go-git, no fsnotify and no LSP types; a malformed anchor
// is a Diagnostic, never an error.
package anchors

import "strconv"

// Form says which of the three anchor shapes a line uses.
type Form string

const (
	FormSymbol Form = "symbol" // <kind> <qualified-name> <path>
	FormLines  Form = "lines"  // lines <path>#L<start>-L<end>
	FormDoc    Form = "doc"    // doc <path>
)

// Span is a half-open byte range inside the doc that holds the anchor.
type Span struct{ Start, End int }

// Anchor is one parsed `@code` line.
type Anchor struct {
	Doc  string // repository-relative path of the Markdown file
	Line int    // 1-based line of the anchor in Doc

	Form          Form
	Claim         string // optional claim ID ("" when absent)
	Kind          string // declaration kind, or "lines" / "doc"
	QualifiedName string // symbol anchors only
	Path          string // repository-relative target path (the hint)
	StartLine     int    // lines anchors only
	EndLine       int    // lines anchors only
	Section       string // doc anchors to one section: the heading's slug after "#"

	// Pinned hashes. For symbol anchors DeclSHA and BodySHA (BodySHA may be
	// empty: short or no body). For lines and doc anchors DeclSHA holds the
	// single hash. Both empty means unpinned.
	DeclSHA string
	BodySHA string
	// Scheme is the hash scheme the pin was written under: the `v<N>:`
	// marker of `sha=v2:…`, 1 for a pin without one (written before
	// schemes were marked). 0 when unpinned.
	Scheme int

	// Byte spans inside the doc, so edits replace only the tokens they change.
	KindSpan     Span
	NameSpan     Span // symbol anchors
	PathSpan     Span // the whole path token (with #L…-L… for lines anchors)
	SHASpan      Span // the `sha=…` token; empty span right after the last token when absent
	CommentStart int  // offset of "<!--"
	CommentEnd   int  // offset of the terminating "-->"

	Passage Passage
}

// ID is the stable identifier used in reports: "<doc>:<line>".
func (a Anchor) ID() string { return a.Doc + ":" + strconv.Itoa(a.Line) }

// Pinned reports whether the anchor carries reviewed hashes.
func (a Anchor) Pinned() bool { return a.DeclSHA != "" }

// Passage is the text an anchor belongs to: from the heading above it to the
// next heading of the same or higher level.
type Passage struct {
	Heading   string // heading text, "" when the doc has no heading above
	Level     int    // 1..6, 0 for the whole doc
	StartLine int    // 1-based, inclusive
	EndLine   int    // 1-based, inclusive
}

// Kinds is the language-neutral declaration vocabulary (docs/anchors.md).
var Kinds = []string{
	"function", "method", "constructor", "class", "struct", "interface",
	"trait", "protocol", "enum", "type", "namespace", "module", "object",
	"extension", "impl", "const", "var", "property", "field", "macro",
	"key", // a configuration key (YAML, JSON, TOML), named by its dotted path
	// Schemas and infrastructure (protobuf, SQL DDL, Terraform/HCL).
	"message", "service", "rpc", "table", "view", "index", "column",
	"resource", "data", "variable", "output",
}

var kindSet = func() map[string]bool {
	m := make(map[string]bool, len(Kinds))
	for _, k := range Kinds {
		m[k] = true
	}
	return m
}()

// IsKind reports whether k is a declaration kind of the vocabulary.
func IsKind(k string) bool { return kindSet[k] }
