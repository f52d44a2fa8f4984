package claims

// Severity of a Diagnostic, spelled as docs/json.md's JSON does.
type Severity string

const (
	SeverityError       Severity = "error"
	SeverityWarning     Severity = "warning"
	SeverityInformation Severity = "information"
)

// Diagnostic codes (docs/server.md). They are a contract: tests and editors match on them.
const (
	CodeBroken      = "claim/broken"
	CodeVacuous     = "claim/vacuous"
	CodeMoved       = "claim/moved"
	CodePending     = "claim/pending"
	CodeUnevaluated = "claim/unevaluated"
	CodeRetired     = "claim/retired"
	CodeParse       = "claim/parse"
	CodeWarning     = "claim/warning"
	CodeConfig      = "config/invalid"
)

// Diagnostic is one finding about the brain's files. Malformed input always
// becomes a Diagnostic; the engine never returns an error for it.
type Diagnostic struct {
	Doc      string   `json:"doc"`
	Line     int      `json:"line"`
	Severity Severity `json:"severity"`
	Code     string   `json:"code"`
	Message  string   `json:"message"`
}

func parseError(doc string, line int, msg string) Diagnostic {
	return Diagnostic{Doc: doc, Line: line, Severity: SeverityError, Code: CodeParse, Message: msg}
}

func warning(doc string, line int, msg string) Diagnostic {
	return Diagnostic{Doc: doc, Line: line, Severity: SeverityWarning, Code: CodeWarning, Message: msg}
}
