package devcontext

import "strings"

// Status words that retire a record (docs/context.md); a claim row is retired by
// its own word.
var staleWords = map[string]bool{"deprecated": true, "superseded": true, "rejected": true}

// staleness says whether a candidate is repository-bound excluded: a passage
// whose anchor is stale (the code changed since it was reviewed) or lost (it
// documents nothing any more), a record whose status retires it, a retired
// claim with no gating leg over the scope. A seed is kept and gets a
// diagnostic instead: it was asked for by name.
func (s *selection) staleness(c *candidate) (ExclusionReason, string) {
	n := c.node
	reason, detail := ExclusionReason(""), ""
	status := strings.ToLower(strings.TrimSpace(n.Status))
	switch {
	case n.Kind == KindPassage:
		reason, detail = passageStaleness(n)
	case n.Kind == KindClaim && status == "retired" && !c.required:
		reason, detail = ReasonStale, "a retired claim with no gating leg over the file"
	case n.Kind != KindClaim && staleWords[status]:
		reason, detail = ReasonStale, "its declared status is "+status
	}
	if reason == "" || !c.seed {
		return reason, detail
	}
	code := CodeStaleSeed
	if reason == ReasonUnresolved {
		code = CodeUnresolvedReference
	}
	s.diags = append(s.diags, Diagnostic{Severity: SeverityWarning, Code: code, Path: n.Path,
		Message: n.URI + " was asked for and is kept, but " + detail})
	return "", ""
}

func why(detail string) string {
	if detail == "" {
		return ""
	}
	return " (" + detail + ")"
}
