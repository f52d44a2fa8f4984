package claims

import (
	"fmt"
	"strings"
)

// LawFile is the only file claim rows are read from (docs/claims.md).
const LawFile = ".multivac/invariants.md"

// LegacyLawFile is where multivac's old layout kept the law.
const LegacyLawFile = "invariants.md"

// LooksLikeLaw reports whether a file holds a claim table header or an
// `@anchor` leg, so that a root `invariants.md` that is only prose is not
// mistaken for a legacy law.
func LooksLikeLaw(content []byte) bool {
	for _, line := range strings.Split(string(content), "\n") {
		t := jsTrim(line)
		if openerRe().MatchString(t) {
			return true
		}
		if p := strings.Split(t, "|"); len(p) > 2 && strings.HasPrefix(t, "|") && jsTrim(p[1]) == "ID" {
			return true
		}
	}
	return false
}

// Row states with a meaning in code (docs/claims.md). Anything else reads as active.
const (
	StateActive   = "active"
	StateProposed = "proposed"
	StateDrift    = "drift"
	StateRetired  = "retired"
)

// Row is one claim row of the law table.
type Row struct {
	ID        string
	Statement string
	Authority string
	State     string // trimmed cell, verbatim
	Date      string
	Source    string
	Line      int  // 1-based line in LawFile
	Short     bool // fewer than six columns: the row claims nothing
}

// Effective is the state evaluation acts on: proposed, drift, retired or active.
func (r Row) Effective() string {
	switch r.State {
	case StateProposed, StateDrift, StateRetired:
		return r.State
	}
	return StateActive
}

// ParseRows reads the law table. Fences are not tracked and the trailing
// columns are counted from the end, so a `|` inside a statement never shifts
// the state column (MV-119). Unknown states earn a warning (docs/claims.md).
func ParseRows(content []byte) ([]Row, []Diagnostic) {
	return parseRows(string(content))
}

// parseRows is ParseRows over the law as one string (ParseDoc's copy of
// it: the rows' cells are slices of it, not another copy).
func parseRows(text string) ([]Row, []Diagnostic) {
	var rows []Row
	var diags []Diagnostic
	for i, start := 0, 0; start <= len(text); i++ {
		end := lineEnd(text, start)
		line := text[start:end]
		start = end + 1
		t := strings.TrimFunc(line, isJSSpace) // JavaScript's trim: a BOM is space too
		if !strings.HasPrefix(t, "|") || isSeparatorRow(t) {
			continue
		}
		pieces := strings.Split(t, "|")
		id := jsTrim(pieces[1])
		if id == "" || id == "ID" {
			continue
		}
		row := Row{ID: id, Line: i + 1}
		if n := len(pieces); n < 8 {
			row.Short = true
		} else {
			row.Source = jsTrim(pieces[n-2])
			row.Date = jsTrim(pieces[n-3])
			row.State = jsTrim(pieces[n-4])
			row.Authority = jsTrim(pieces[n-5])
			row.Statement = jsTrim(strings.Join(pieces[2:n-5], "|"))
		}
		switch {
		case row.Short:
			diags = append(diags, warning(LawFile, row.Line, fmt.Sprintf("row %s has fewer than six columns — it claims nothing and reads as active; write | ID | statement | authority | state | date | source |", id)))
		case !knownState(row.State):
			diags = append(diags, warning(LawFile, row.Line, fmt.Sprintf("%q is not a state — treated as active; use proposed, active, drift or retired", row.State)))
		}
		rows = append(rows, row)
	}
	return rows, diags
}

func isSeparatorRow(t string) bool {
	return strings.Trim(t, "|:- \t\r") == ""
}

func knownState(s string) bool {
	switch s {
	case StateActive, StateProposed, StateDrift, StateRetired:
		return true
	}
	return false
}

func jsTrim(s string) string { return strings.TrimFunc(s, isJSSpace) }
