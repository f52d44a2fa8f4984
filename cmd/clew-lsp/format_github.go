package main

import (
	"fmt"
	"io"
	"strings"
)

// writeGitHub prints one GitHub Actions workflow command per finding:
// ::error for what gates (verify exits 1), ::warning for problems that do
// not, ::notice for information. GitHub turns them into annotations on the
// pull request's diff.
func writeGitHub(w io.Writer, fs []ciFinding) {
	for _, f := range fs {
		level := "notice"
		switch {
		case f.gates():
			level = "error"
		case f.Severity == "warning":
			level = "warning"
		}
		fmt.Fprintf(w, "::%s file=%s,line=%d,endLine=%d,col=%d,endColumn=%d,title=%s::%s\n", level,
			ghProperty(f.Path), f.Region.StartLine, f.Region.EndLine, f.Region.StartCol, f.Region.EndCol,
			ghProperty(f.Code), ghData(f.Message))
	}
}

// ghData escapes a workflow command's message (GitHub's toolkit rules).
func ghData(s string) string {
	return strings.NewReplacer("%", "%25", "\r", "%0D", "\n", "%0A").Replace(s)
}

// ghProperty escapes a workflow command's property value, where ':' and
// ',' are separators too.
func ghProperty(s string) string {
	return strings.NewReplacer("%", "%25", "\r", "%0D", "\n", "%0A", ":", "%3A", ",", "%2C").Replace(s)
}

// githubSummary is the job summary: the exit in words and a Markdown table
// of the findings, appended to $GITHUB_STEP_SUMMARY.
func githubSummary(fs []ciFinding, exit int, headline string) string {
	var b strings.Builder
	b.WriteString("### clew-lsp verify\n\n")
	fmt.Fprintf(&b, "**exit %d** — %s\n\n", exit, mdCell(headline))
	if len(fs) == 0 {
		b.WriteString("No findings: every anchor is fresh and every claim holds.\n")
		return b.String()
	}
	var gating int
	for _, f := range fs {
		if f.gates() {
			gating++
		}
	}
	fmt.Fprintf(&b, "%d findings, %d gating.\n\n", len(fs), gating)
	b.WriteString("| where | severity | code | message |\n| --- | --- | --- | --- |\n")
	for _, f := range fs {
		fmt.Fprintf(&b, "| `%s:%d` | %s | `%s` | %s |\n", f.Path, f.Region.StartLine, f.Severity, f.Code, mdCell(f.Message))
	}
	return b.String()
}

// mdCell keeps a message inside one Markdown table cell.
func mdCell(s string) string {
	return strings.NewReplacer("|", `\|`, "\r\n", " ", "\n", " ", "\r", " ").Replace(s)
}
