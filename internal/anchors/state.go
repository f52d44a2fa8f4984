package anchors

// State is an anchor's verdict (docs/anchors.md).
type State string

const (
	StateFresh        State = "fresh"
	StateStale        State = "stale"
	StateMovedRenamed State = "moved-renamed"
	StateLost         State = "lost"
	StateUnpinned     State = "unpinned"
	StateUnchecked    State = "unchecked"
)

// Reasons carried in Detail.Reason.
const (
	ReasonIdentityMatched    = "identity_matched"
	ReasonBodyChanged        = "body_changed"
	ReasonKindChanged        = "kind_changed" // stale: same name, another kind of the same family
	ReasonMoved              = "moved"
	ReasonRenamed            = "renamed"
	ReasonMovedAndRenamed    = "moved_and_renamed"
	ReasonFileMissing        = "file_missing"
	ReasonDeclarationMissing = "declaration_missing"
	ReasonAmbiguous          = "ambiguous"
	ReasonRangeMoved         = "range_moved"
	ReasonRangeChanged       = "range_changed"
	ReasonRangeMissing       = "range_missing"
	ReasonSectionMissing     = "section_missing" // a doc section anchor whose heading is gone
	ReasonContentChanged     = "content_changed"
	ReasonUnpinned           = "unpinned"
	ReasonBinary             = "binary"
	ReasonFileTooLarge       = "file_too_large"
	ReasonBudget             = "budget"
	ReasonHashScheme         = "hash_scheme" // unchecked: pinned under another hash scheme, not comparable
	ReasonUnsupported        = "no_grammar"
)

// Candidate is a declaration offered as an alternative (ambiguous
// candidates, suggestions for a lost anchor).
type Candidate struct {
	Path          string `json:"path"`
	QualifiedName string `json:"qualified_name"`
	Kind          string `json:"kind"`
	LineStart     int    `json:"line_start"`
}

// Detail is the wire shape of docs/anchors.md's `detail`. Field names are a
// contract: `verify --json` prints this struct as is.
type Detail struct {
	Reason           string      `json:"reason"`
	Path             string      `json:"path,omitempty"`
	LineStart        int         `json:"line_start,omitempty"`
	LineEnd          int         `json:"line_end,omitempty"`
	MovedTo          string      `json:"moved_to,omitempty"`
	RenamedTo        string      `json:"renamed_to,omitempty"`
	BodyChanged      *bool       `json:"body_changed,omitempty"`
	SignatureChanged *bool       `json:"signature_changed,omitempty"`
	OldKind          string      `json:"old_kind,omitempty"` // kind_changed: the anchor's kind
	NewKind          string      `json:"new_kind,omitempty"` // kind_changed: the declaration's kind now
	ExpectedHash     string      `json:"expected_hash,omitempty"`
	ActualHash       string      `json:"actual_hash,omitempty"`
	Candidates       []Candidate `json:"candidates,omitempty"`
	Suggestions      []Candidate `json:"suggestions,omitempty"`
	// Note qualifies the verdict in words: a twin that was not taken as the
	// move target, or a move found without the history to rule twins out.
	Note string `json:"note,omitempty"`
}

// Binding is where an anchor resolves now, with the current hashes: what
// a rebind writes (kind, name, path or range) and what a confirm pins.
type Binding struct {
	Form          Form
	Kind          string
	QualifiedName string
	Path          string
	StartLine     int
	EndLine       int
	Section       string // doc sections: the heading's slug (StartLine/EndLine span it)
	DeclHash      string // for lines/doc: the single hash
	BodyHash      string
	Signature     string
}

// Result is the outcome of resolving one anchor.
type Result struct {
	State  State
	Detail Detail
	// Found is set whenever the anchor resolves to exactly one target
	// (fresh, stale, moved-renamed, unpinned).
	Found *Binding
}

// Settled reports whether reading more files could not change the verdict:
// line ranges and doc anchors only ever look at their own file, and a symbol
// found by identity in its hinted file (stage 1) is final.
func (r Result) Settled(a Anchor) bool {
	if a.Form != FormSymbol {
		return true
	}
	return r.Found != nil && r.Found.Path == a.Path && r.Found.QualifiedName == a.QualifiedName &&
		(r.State == StateFresh || r.State == StateStale || r.State == StateUnpinned ||
			r.State == StateUnchecked && r.Detail.Reason == ReasonHashScheme)
}
