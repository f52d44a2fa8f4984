package main

import (
	"strings"

	"github.com/clew-lsp/clew-lsp/internal/workspace"
)

// diagnosticRule is one row of the code table in docs/diagnostics.md; the
// table is compiled into diagnostic_rules_gen.go (the test
// TestDiagnosticRulesMatchDocs fails when they drift; -update rewrites it).
type diagnosticRule struct {
	Code     string // anchor/stale
	Severity string // the docs' words, e.g. "error (it is `lost`)"
	Meaning  string // Markdown
	ToDo     string // Markdown
}

// level is the rule's default SARIF level: the first word of the docs'
// severity column.
func (r diagnosticRule) level() string {
	switch strings.Fields(r.Severity + " x")[0] {
	case "error":
		return "error"
	case "warning":
		return "warning"
	}
	return "note"
}

func (r diagnosticRule) sarif() sarifRule {
	var name strings.Builder
	for _, part := range strings.FieldsFunc(r.Code, func(c rune) bool { return c == '/' || c == '-' }) {
		name.WriteString(strings.ToUpper(part[:1]) + part[1:])
	}
	md := r.Meaning + ".\n\nSeverity: " + r.Severity + "."
	if r.ToDo != "" && r.ToDo != "—" {
		md += "\n\nWhat to do: " + r.ToDo + "."
	}
	return sarifRule{
		ID:               r.Code,
		Name:             name.String(),
		ShortDescription: sarifMessage{Text: plain(r.Meaning)},
		FullDescription:  sarifMessage{Text: plain(r.Meaning) + "."},
		HelpURI:          workspace.CodeHref(r.Code),
		Help:             sarifMessage{Text: plain(md), Markdown: md},
		DefaultConfig:    sarifConfig{Level: r.level()},
	}
}

// plain drops the Markdown emphasis and code marks for SARIF's text fields.
func plain(md string) string { return strings.NewReplacer("**", "", "`", "").Replace(md) }
