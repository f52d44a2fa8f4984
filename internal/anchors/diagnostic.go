package anchors

// Severity of a diagnostic, in verify's terms (docs/server.md): what would make
// verify exit 1 is an error.
type Severity string

const (
	SeverityError       Severity = "error"
	SeverityWarning     Severity = "warning"
	SeverityInformation Severity = "information"
)

// Stable diagnostic codes (docs/server.md). They are part of the contract: editors
// and CI filters match on them, so they never change once released.
const (
	CodeAnchorStale     = "anchor/stale"
	CodeAnchorMoved     = "anchor/moved"
	CodeAnchorLost      = "anchor/lost"
	CodeAnchorAmbiguous = "anchor/ambiguous"
	CodeAnchorUnpinned  = "anchor/unpinned"
	CodeAnchorUnchecked = "anchor/unchecked"
	CodeAnchorParse     = "anchor/parse"
)

// Diagnostic is a finding about a doc, located by line and byte span.
type Diagnostic struct {
	Doc      string
	Line     int
	Span     Span // byte offsets inside the doc
	Severity Severity
	Code     string
	Message  string
}
