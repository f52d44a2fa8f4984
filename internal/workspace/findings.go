package workspace

import (
	"sort"

	"github.com/clew-lsp/clew-lsp/internal/anchors"
)

// DocsURL is where every diagnostic code is explained (codeDescription).
const DocsURL = "https://github.com/clew-lsp/clew-lsp/blob/main/docs/diagnostics.md"

// Finding is one diagnostic of one file, located by byte offsets into the
// snapshot's content of that file. The server converts it to LSP once.
type Finding struct {
	Path      string
	StartByte int
	EndByte   int
	Severity  Severity
	Code      string
	Message   string
	// AnchorID links the finding to its anchor report (code actions look
	// the anchor up again in the current snapshot by it).
	AnchorID string
}

// CodeHref is the documentation link of a diagnostic code.
func CodeHref(code string) string {
	anchor := ""
	for _, c := range code {
		if c == '/' {
			anchor += "-"
		} else {
			anchor += string(c)
		}
	}
	return DocsURL + "#" + anchor
}

// Findings turns a report into per-file diagnostics with docs/server.md's codes
// and severities: whatever makes verify exit 1 is an Error; other problems
// are Warnings; unpinned and unchecked are Information. Fresh anchors have
// none. The result is keyed by workspace-relative path and sorted.
func (r *Report) Findings() map[string][]Finding { return r.findings(TextOptions{editor: true}) }

// CommandFindings are the Findings phrased for a terminal or a CI log: what
// to do is a command (`clew-lsp confirm DOC:LINE`), not an editor action.
func (r *Report) CommandFindings() map[string][]Finding { return r.findings(TextOptions{}) }

func (r *Report) findings(opt TextOptions) map[string][]Finding {
	out := map[string][]Finding{}
	for _, d := range r.Diagnostics {
		out[d.Doc] = append(out[d.Doc], Finding{Path: d.Doc, StartByte: d.StartByte, EndByte: d.EndByte,
			Severity: d.Severity, Code: d.Code, Message: d.Message})
	}
	for _, a := range r.Anchors {
		code, sev, ok := anchorSeverity(a)
		if !ok {
			continue
		}
		out[a.Doc] = append(out[a.Doc], Finding{
			Path: a.Doc, StartByte: a.Anchor.CommentStart, EndByte: a.Anchor.CommentEnd + len("-->"),
			Severity: sev, Code: code, Message: AnchorSubject(a) + ": " + explain(a, opt), AnchorID: a.ID,
		})
	}
	for p, fs := range r.claimFindings {
		out[p] = append(out[p], fs...)
	}
	for p := range out {
		fs := out[p]
		sort.SliceStable(fs, func(i, j int) bool {
			if fs[i].StartByte != fs[j].StartByte {
				return fs[i].StartByte < fs[j].StartByte
			}
			return fs[i].Code < fs[j].Code
		})
	}
	return out
}

func anchorSeverity(a AnchorReport) (code string, sev Severity, ok bool) {
	gate := func(c string) (string, Severity, bool) {
		if a.Gating {
			return c, SeverityError, true
		}
		return c, SeverityWarning, true
	}
	switch a.State {
	case anchors.StateFresh:
		return "", "", false
	case anchors.StateStale:
		return gate(anchors.CodeAnchorStale)
	case anchors.StateLost:
		if a.Detail.Reason == anchors.ReasonAmbiguous {
			return gate(anchors.CodeAnchorAmbiguous)
		}
		return gate(anchors.CodeAnchorLost)
	case anchors.StateMovedRenamed:
		return gate(anchors.CodeAnchorMoved)
	case anchors.StateUnpinned:
		if a.Gating {
			return anchors.CodeAnchorUnpinned, SeverityError, true
		}
		return anchors.CodeAnchorUnpinned, SeverityInformation, true
	case anchors.StateUnchecked:
		return anchors.CodeAnchorUnchecked, SeverityInformation, true
	}
	return "", "", false
}

// AnchorSubject names what an anchor binds, so a diagnostic read out of
// context (a problems list) says what moved: "method Cache.Lookup",
// "lines resolver/x.go#L3-L9", "doc docs/api.md".
func AnchorSubject(a AnchorReport) string {
	switch a.Anchor.Form {
	case anchors.FormLines:
		return "lines " + anchors.LinesRef(a.Path, a.Anchor.StartLine, a.Anchor.EndLine)
	case anchors.FormDoc:
		return "doc " + anchors.DocRef(a.Path, a.Anchor.Section)
	}
	return a.Kind + " " + a.QualifiedName
}
