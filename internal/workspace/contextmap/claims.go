package contextmap

import (
	"context"
	"strconv"
	"strings"

	"github.com/clew-lsp/clew-lsp/internal/devcontext"
	"github.com/clew-lsp/clew-lsp/internal/workspace"
)

// Claim is one claims row as the context compiler needs it (docs/context.md:
// governance = claims covering the file, required when a gating leg covers
// it). The claims engine fills it; the compiler only maps it onto the world.
type Claim struct {
	ID        string // row id; "ID@n" for an older revision
	Statement string
	State     string // the row's state word: active, proposed, drift, retired, …
	Authority string
	Date      string
	Doc       string // where the row is
	Line      int
	// Text is the row plus its @anchor leg lines: what reading it costs.
	Text  string
	Worst string // the worst leg state (ok < pending < … < broken); "" if unknown
	Legs  []Leg
	// Cites are commits the row names (e.g. its source column).
	Cites []devcontext.Cite
}

// Leg is one leg of a claim, already evaluated.
type Leg struct {
	Mode   string
	State  string
	Gating bool
	// Files are the workspace files the leg's glob matches.
	Files []string
	// Matches are where the leg's regex matched (workspace path, 1-based line).
	Matches []Match
}

// Match is one regex match of a leg.
type Match struct {
	Path string
	Line int
}

// contextClaims is the hook for the claims of a snapshot, given the Check
// the context compiler ran on it. While it is nil, claimsFromReport maps
// the claims that Check evaluated (brain scope: legs over this workspace);
// the claims wiring can set it (from an init function in its own file) to
// serve consumer scopes or siblings. No claims means no claim entries.
var contextClaims func(ctx context.Context, s *workspace.Snapshot, rep *workspace.Report) ([]Claim, error)

// addClaims maps claims onto the world: one node per row, `covers` edges to
// the file nodes a leg's glob matches, `pins` edges to the declarations a
// leg's regex hits; both carry the leg's gating.
func (w *worldBuilder) addClaims(claims []Claim) {
	for _, c := range claims {
		if strings.TrimSpace(c.ID) == "" {
			continue
		}
		uri := devcontext.ClaimURI(c.ID)
		facts := map[string]string{}
		for k, v := range map[string]string{"state": c.State, "authority": c.Authority, "worst_leg": c.Worst} {
			if v != "" {
				facts[k] = v
			}
		}
		gating := false
		var modes []string
		for _, l := range c.Legs {
			gating = gating || l.Gating
			if l.Mode != "" && !containsString(modes, l.Mode) {
				modes = append(modes, l.Mode)
			}
		}
		if len(modes) > 0 {
			facts["mode"] = strings.Join(modes, ",")
		}
		title := c.ID
		if c.Statement != "" {
			title += ": " + c.Statement
		}
		path := c.Doc
		if path == "" {
			path = ".multivac/invariants.md"
		}
		section := ""
		if c.Line > 0 {
			section = "line " + strconv.Itoa(c.Line)
		}
		w.node(devcontext.Node{URI: uri, Kind: devcontext.KindClaim, Title: title, Path: path, Section: section,
			Status: c.State, Version: c.Date, Text: c.Text, Gating: gating, Facts: facts, Cites: c.Cites})
		for _, l := range c.Legs {
			for _, f := range l.Files {
				if fu := devcontext.FileURI(f); w.has(fu) {
					w.edgeGating(devcontext.EdgeCovers, uri, fu, l.Gating)
				}
			}
			for _, m := range l.Matches {
				if d := w.declAt(m.Path, m.Line); d != nil {
					w.edgeGating(devcontext.EdgePins, uri, d.uri, l.Gating)
				}
			}
		}
	}
}

func containsString(xs []string, x string) bool {
	for _, y := range xs {
		if y == x {
			return true
		}
	}
	return false
}
