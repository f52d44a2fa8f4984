package workspace

import (
	"github.com/clew-lsp/clew-lsp/internal/anchors"
	"github.com/clew-lsp/clew-lsp/internal/claims"
)

// Severity, as verify and the editor show it.
type Severity = anchors.Severity

const (
	SeverityError       = anchors.SeverityError
	SeverityWarning     = anchors.SeverityWarning
	SeverityInformation = anchors.SeverityInformation
)

// CodeConfigInvalid marks a broken `.clew.yml` (docs/server.md).
const CodeConfigInvalid = "config/invalid"

// Diagnostic is one finding in a doc or config file, in the JSON shape of
// docs/json.md. StartByte/EndByte locate it for the editor; they are not printed.
type Diagnostic struct {
	Doc      string   `json:"doc"`
	Line     int      `json:"line"`
	Severity Severity `json:"severity"`
	Code     string   `json:"code"`
	Message  string   `json:"message"`

	StartByte int `json:"-"`
	EndByte   int `json:"-"`
}

// AnchorReport is one anchor's verdict (docs/json.md `anchors[]`).
type AnchorReport struct {
	ID            string         `json:"id"`
	Doc           string         `json:"doc"`
	Line          int            `json:"line"`
	Claim         string         `json:"claim"`
	Kind          string         `json:"kind"`
	QualifiedName string         `json:"qualified_name"`
	Path          string         `json:"path"`
	State         anchors.State  `json:"state"`
	Detail        anchors.Detail `json:"detail"`
	Gating        bool           `json:"-"` // docs/json.md has no such field; Exit carries it

	Anchor anchors.Anchor   `json:"-"`
	Found  *anchors.Binding `json:"-"`
}

// BudgetReport says what a check spent and which limit stopped it, if any.
type BudgetReport struct {
	FilesRead int     `json:"files_read"` // files read and parsed; what max_files and max_bytes limit
	BytesRead int64   `json:"bytes_read"`
	ElapsedMS int64   `json:"elapsed_ms"`
	Limit     *string `json:"limit"`
}

// FallbackShare is how many anchors are line ranges or docs (docs/anchors.md).
type FallbackShare struct {
	Total    int     `json:"total"`
	Fallback int     `json:"fallback"`
	Share    float64 `json:"share"`
}

// Coverage counts claims and how many have at least one leg.
type Coverage = claims.Coverage

// Report is the whole answer of one check: what `verify --json` prints and
// what the server turns into diagnostics.
type Report struct {
	Complete           bool           `json:"complete"`
	UncheckedAnchorIDs []string       `json:"unchecked_anchor_ids"`
	Budget             BudgetReport   `json:"budget"`
	Anchors            []AnchorReport `json:"anchors"`
	FallbackShare      FallbackShare  `json:"fallback_share"`
	Claims             []ClaimReport  `json:"claims"`
	Coverage           Coverage       `json:"coverage"`
	// MentionCoverage is how much of the prose that names code is anchored
	// (docs/anchors.md#mention-coverage); null when the check was not asked
	// for it (CheckOptions.Mentions).
	MentionCoverage *MentionCoverage `json:"mention_coverage"`
	Diagnostics     []Diagnostic     `json:"diagnostics"`
	Exit            int              `json:"exit"`

	// Skipped lists files left out of the check and why (binary,
	// file_too_large); printed by the text report.
	Skipped []SkippedFile `json:"-"`

	// index holds the declarations the check read, so a refused confirm
	// can name the declarations that do exist.
	index *anchors.Index
	// claimsReport is the claims section of the text report.
	claimsReport string
	// claims is the claims engine's whole result (matches, edits, rows).
	claims *claims.Result
	// claimFindings are the legs' and rows' editor diagnostics.
	claimFindings map[string][]Finding
}

// SkippedFile is a file the check did not read, with the reason.
type SkippedFile struct {
	Path   string `json:"path"`
	Reason string `json:"reason"`
}

// ClaimReport is one claim's verdict (docs/json.md `claims[]`), as the claims
// engine reports it.
type ClaimReport = claims.ClaimResult

// LegReport is one evaluated claim leg.
type LegReport = claims.LegResult
