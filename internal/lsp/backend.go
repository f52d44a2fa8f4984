package lsp

import (
	"context"
	"encoding/json"
)

// Backend is everything the server asks of the workspace. The workspace
// façade implements it; the server never reads a file or a snapshot's
// internals itself.
//
// Paths are absolute and OS-native: the server converts file:// URIs at the
// boundary so the workspace never sees a URI (only internal/lsp knows LSP).
//
// Concurrency: Apply and Configure are called from the connection's read
// loop, one at a time and in wire order. Load runs once in the background and
// may overlap Apply. Snapshot may be called from any goroutine.
type Backend interface {
	// Load indexes the workspace folders and builds the first complete
	// snapshot. Diagnostics are not published before it returns, so a
	// half-indexed workspace never shows anchors as lost. progress reports
	// indexing to the editor; it is never nil.
	Load(ctx context.Context, folders []string, settings Settings, progress Progress) error

	// Apply records editor buffer events and makes the next snapshot. It runs
	// inline on the read loop, so it must be cheap: store the text, cancel the
	// superseded snapshot, defer the analysis to Snapshot().Diagnose.
	Apply(ctx context.Context, changes []Change) error

	// Configure replaces the settings: the "clew" section (docs/config.md keys).
	Configure(ctx context.Context, settings Settings) error

	// Snapshot returns the newest snapshot. The caller must call release when
	// done with it; the snapshot stays valid and immutable until then.
	Snapshot() (snap Snapshot, release func())
}

// Snapshot is one immutable view of the workspace. Query handlers
// take one before they go asynchronous, so they answer from the state the
// editor had when it asked.
type Snapshot interface {
	// ID increases with every snapshot the backend makes.
	ID() uint64

	// Diagnose returns the diagnostics of every file that has any, keyed by
	// absolute path; a file that is absent has none. It returns ctx.Err() if
	// cancelled, which happens as soon as a newer snapshot exists.
	Diagnose(ctx context.Context) (map[string]FileDiagnostics, error)
}

// Settings is the raw JSON object of the "clew" settings section, as the
// editor sent it (initializationOptions or workspace/configuration). It may
// be empty; the workspace validates it and applies defaults.
type Settings = json.RawMessage

// Progress reports indexing to the editor as work-done progress.
type Progress interface {
	// Report says what is being done; percentage is 0–100, or negative when
	// unknown. Calls are cheap and may be frequent.
	Report(message string, percentage int)
}

// ChangeKind says which editor event a Change records.
type ChangeKind int

const (
	// Open: the editor opened a buffer; Text is its content.
	Open ChangeKind = iota + 1
	// Edit: the buffer changed; Text is its whole new content.
	Edit
	// Save: the buffer was written to disk; Text is set when the editor sent it.
	Save
	// Close: the buffer is gone; the file on disk is the truth again.
	Close
)

func (k ChangeKind) String() string {
	switch k {
	case Open:
		return "open"
	case Edit:
		return "edit"
	case Save:
		return "save"
	case Close:
		return "close"
	}
	return "unknown"
}

// Change is one editor buffer event. Incremental edits are already applied:
// the backend always gets whole contents, never UTF-16 ranges.
type Change struct {
	Kind       ChangeKind
	Path       string
	Version    int32  // editor version; 0 for Save and Close
	LanguageID string // Open only, e.g. "markdown", "go"
	Text       []byte // Open, Edit; Save when the editor sent it; nil otherwise
}

// Severity of a diagnostic; the values are LSP's.
type Severity int

const (
	SeverityError Severity = iota + 1
	SeverityWarning
	SeverityInformation
	SeverityHint
)

// FileDiagnostics is the diagnostics of one file in one snapshot.
type FileDiagnostics struct {
	// Text is the content the offsets refer to (the editor's buffer when it
	// is open, else the file on disk). The server converts offsets to UTF-16
	// positions against it.
	Text []byte
	// Version is the editor version of Text, or 0 when Text came from disk.
	Version int32
	Items   []Diagnostic
}

// Diagnostic is one finding, positioned by byte offsets into the file's Text.
type Diagnostic struct {
	Start, End int
	Severity   Severity
	Code       string // stable, e.g. "anchor/stale"
	CodeHref   string // documentation link for Code; optional
	Source     string // defaults to "clew"
	Message    string
}
