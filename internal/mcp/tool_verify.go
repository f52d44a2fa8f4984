package mcp

import (
	"context"
	"encoding/json"
	"fmt"
	"path"
	"sort"
	"strings"

	sdk "github.com/modelcontextprotocol/go-sdk/mcp"

	"github.com/clew-lsp/clew-lsp/internal/workspace"
)

const (
	defaultMaxFindings = 50
	maxMaxFindings     = 500
	// defaultToolBudget bounds the answers of verify and doc_passages (in
	// the compiler's tokens), so a workspace with thousands of findings
	// cannot flood an agent's context.
	defaultToolBudget = 4000
)

type verifyIn struct {
	Doc         string `json:"doc,omitempty" jsonschema:"only findings in this doc, or in docs under this directory (workspace-relative)"`
	MaxFindings int    `json:"max_findings,omitempty" jsonschema:"list at most this many findings (default 50, at most 500)"`
	Budget      int    `json:"budget,omitempty" jsonschema:"token budget of the answer (default 4000); findings past it are cut and complete is false"`
}

type verifyOut struct {
	// Exit is what `clew-lsp verify --check` exits with: 0 nothing gates,
	// 1 something gates, 2 a configuration error.
	Exit          int            `json:"exit"`
	CheckComplete bool           `json:"check_complete" jsonschema:"false when the check's own budget stopped the search (anchors left unchecked)"`
	Anchors       map[string]int `json:"anchors" jsonschema:"anchors by state (fresh, stale, moved-renamed, lost, unpinned, unchecked)"`
	Claims        map[string]int `json:"claims" jsonschema:"claims by state (ok, pending, unevaluated, moved, vacuous, broken)"`
	// Findings are the non-fresh anchors, failing legs and diagnostics,
	// gating ones first.
	Findings []workspace.HealthItem `json:"findings"`
	Shown    int                    `json:"shown"`
	Total    int                    `json:"total" jsonschema:"findings matching the filter, listed or not"`
	Complete bool                   `json:"complete" jsonschema:"true when every matching finding is listed and the check finished"`
	Note     string                 `json:"note,omitempty"`
}

func (h *handlers) verify(ctx context.Context, _ *sdk.CallToolRequest, in verifyIn) (*sdk.CallToolResult, verifyOut, error) {
	var out verifyOut
	limit, budget, err := bounds(in.MaxFindings, in.Budget)
	if err != nil {
		return nil, out, err
	}
	snap, rep, err := h.ws.Report(ctx)
	if err != nil {
		return nil, out, err
	}
	filter := ""
	if strings.TrimSpace(in.Doc) != "" {
		if filter, err = workspacePath(snap.Root(), in.Doc); err != nil {
			return nil, out, err
		}
	}
	hl := rep.Health()
	out = verifyOut{Exit: hl.Exit, CheckComplete: hl.CheckComplete, Anchors: hl.Anchors, Claims: hl.Claims,
		Findings: []workspace.HealthItem{}}
	var matching []workspace.HealthItem
	for _, f := range hl.Findings {
		if docFilterMatches(filter, f.Doc) {
			matching = append(matching, f)
		}
	}
	sort.SliceStable(matching, func(i, j int) bool { return matching[i].Gating && !matching[j].Gating })
	out.Total = len(matching)

	head := verifyHead(out)
	spent := workspace.TokensFor(len(head))
	var lines []string
	cutBy := ""
	for _, f := range matching {
		if len(out.Findings) == limit {
			cutBy = fmt.Sprintf("max_findings %d", limit)
			break
		}
		line := findingLine(f)
		js, _ := json.Marshal(f)
		cost := workspace.TokensFor(max(len(line), len(js)))
		if spent+cost > budget {
			cutBy = fmt.Sprintf("the budget of %d tokens", budget)
			break
		}
		spent += cost
		out.Findings = append(out.Findings, f)
		lines = append(lines, line)
	}
	out.Shown = len(out.Findings)
	out.Complete = out.Shown == out.Total && out.CheckComplete
	switch {
	case cutBy != "":
		out.Note = fmt.Sprintf("showing %d of %d findings, cut by %s (gating findings first); narrow with doc or raise the limit", out.Shown, out.Total, cutBy)
	case !out.CheckComplete:
		out.Note = "the check's budget stopped the search: unchecked anchors are not verdicts; raise budget in .clew.yml"
	}

	var b strings.Builder
	b.WriteString(head)
	if filter != "" {
		fmt.Fprintf(&b, "findings in %s: %d\n", filter, out.Total)
	}
	for _, l := range lines {
		b.WriteString(l)
	}
	if out.Note != "" {
		fmt.Fprintf(&b, "\n%s\n", out.Note)
	}
	if out.Total == 0 {
		b.WriteString("\nno findings: every anchor is fresh and every claim holds\n")
	}
	return &sdk.CallToolResult{Content: []sdk.Content{&sdk.TextContent{Text: b.String()}}}, out, nil
}

// bounds validates a tool's max_findings and budget, applying defaults.
func bounds(maxFindings, budget int) (int, uint64, error) {
	switch {
	case maxFindings < 0 || maxFindings > maxMaxFindings:
		return 0, 0, fmt.Errorf("max_findings %d: want 1 to %d (default %d)", maxFindings, maxMaxFindings, defaultMaxFindings)
	case maxFindings == 0:
		maxFindings = defaultMaxFindings
	}
	switch {
	case budget < 0:
		return 0, 0, fmt.Errorf("budget %d: want a whole number of tokens above 0 (default %d)", budget, defaultToolBudget)
	case budget == 0:
		budget = defaultToolBudget
	}
	return maxFindings, uint64(budget), nil
}

func verifyHead(o verifyOut) string {
	var b strings.Builder
	words := map[int]string{0: "nothing gates", 1: "something gates (verify would fail)", 2: "configuration error"}
	fmt.Fprintf(&b, "clew verify: exit %d — %s\n", o.Exit, words[o.Exit])
	fmt.Fprintf(&b, "anchors: %s\n", counts(o.Anchors, "fresh", "stale", "moved-renamed", "lost", "unpinned", "unchecked"))
	fmt.Fprintf(&b, "claims: %s\n", counts(o.Claims, "ok", "pending", "unevaluated", "moved", "vacuous", "broken"))
	return b.String()
}

func counts(m map[string]int, order ...string) string {
	if len(m) == 0 {
		return "none"
	}
	var parts []string
	seen := map[string]bool{}
	for _, k := range order {
		if m[k] > 0 {
			parts = append(parts, fmt.Sprintf("%s %d", k, m[k]))
		}
		seen[k] = true
	}
	var rest []string
	for k := range m {
		if !seen[k] {
			rest = append(rest, k)
		}
	}
	sort.Strings(rest)
	for _, k := range rest {
		parts = append(parts, fmt.Sprintf("%s %d", k, m[k]))
	}
	return strings.Join(parts, " · ")
}

func findingLine(f workspace.HealthItem) string {
	gate := ""
	if f.Gating {
		gate = " [gating]"
	}
	return fmt.Sprintf("- %s:%d %s%s %s — %s\n", f.Doc, f.Line, f.State, gate, f.Target, f.Todo)
}

// docFilterMatches reports whether doc is the filter or lies under it.
func docFilterMatches(filter, doc string) bool {
	return filter == "" || doc == filter || strings.HasPrefix(doc, path.Clean(filter)+"/")
}
