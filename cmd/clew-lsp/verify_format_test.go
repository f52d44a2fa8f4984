package main

import (
	"encoding/json"
	"os"
	"path/filepath"
	"regexp"
	"sort"
	"strconv"
	"strings"
	"testing"

	"github.com/clew-lsp/clew-lsp/internal/workspace/wstest"
)

// tourRepo is a fresh repository holding examples/tour: stale, moved,
// renamed, lost, ambiguous and unpinned anchors, and claims.
func tourRepo(t *testing.T) *wstest.Repo {
	t.Helper()
	return wstest.NewFrom(t, "../../examples/tour")
}

type jsonAnchor struct {
	Doc   string `json:"doc"`
	Line  int    `json:"line"`
	State string `json:"state"`
}

func tourAnchors(t *testing.T, dir string) []jsonAnchor {
	t.Helper()
	out, _, _ := runCLI(t, "verify", dir, "--check", "--json")
	var rep struct {
		Anchors []jsonAnchor `json:"anchors"`
	}
	if err := json.Unmarshal([]byte(out), &rep); err != nil {
		t.Fatalf("verify --json: %v\n%s", err, out)
	}
	return rep.Anchors
}

var ghLine = regexp.MustCompile(`^::(error|warning|notice) file=([^,]+),line=(\d+),endLine=\d+,col=\d+,endColumn=\d+,title=([^:]+)::(.+)$`)

// Every non-fresh anchor is one workflow command on its doc line; what
// gates is an error, moved is a warning, unpinned a notice; the job summary
// lands in $GITHUB_STEP_SUMMARY as a table with the same rows.
func TestVerifyFormatGitHub(t *testing.T) {
	r := tourRepo(t)
	summary := filepath.Join(t.TempDir(), "summary.md")
	t.Setenv("GITHUB_STEP_SUMMARY", summary)
	out, errOut, code := runCLI(t, "verify", r.Dir, "--check", "--format", "github")
	if code != 1 {
		t.Fatalf("exit %d, want 1 (the tour gates)\n%s", code, errOut)
	}
	got := map[string]string{} // doc:line → level title
	for _, l := range strings.Split(strings.TrimSpace(out), "\n") {
		m := ghLine.FindStringSubmatch(l)
		if m == nil {
			t.Fatalf("not a workflow command: %q", l)
		}
		got[m[2]+":"+m[3]] += m[1] + " " + m[4] + ";"
	}
	wantLevel := map[string]string{"stale": "error anchor/stale", "moved-renamed": "warning anchor/moved",
		"lost": "error anchor/", "unpinned": "notice anchor/unpinned"}
	n := 0
	for _, a := range tourAnchors(t, r.Dir) {
		w, ok := wantLevel[a.State]
		if !ok {
			continue
		}
		n++
		key := a.Doc + ":" + strconv.Itoa(a.Line)
		if !strings.Contains(got[key], w) {
			t.Errorf("%s (%s): workflow commands %q, want %q", key, a.State, got[key], w)
		}
	}
	if n < 6 {
		t.Fatalf("the tour has only %d non-fresh anchors", n)
	}
	if !strings.Contains(out, "title=anchor/stale::method Cache.Lookup: code changed since it was reviewed") ||
		!strings.Contains(out, "`clew-lsp confirm docs/architecture.md:15`") {
		t.Errorf("the stale anchor's message does not say what to run:\n%s", out)
	}
	md, err := os.ReadFile(summary)
	if err != nil {
		t.Fatal(err)
	}
	s := string(md)
	if !strings.Contains(s, "### clew-lsp verify") || !strings.Contains(s, "**exit 1**") ||
		!strings.Contains(s, "| `docs/architecture.md:15` | error | `anchor/stale` |") {
		t.Errorf("job summary:\n%s", s)
	}
	if rows := strings.Count(s, "\n| `"); rows != strings.Count(strings.TrimSpace(out), "\n")+1 {
		t.Errorf("summary has %d rows for %d workflow commands", rows, strings.Count(out, "\n"))
	}
}

func TestGitHubEscapes(t *testing.T) {
	var b strings.Builder
	writeGitHub(&b, []ciFinding{{Path: "a,b:c.md", Region: ciRegion{2, 1, 2, 5}, Severity: "warning", Code: "claim/moved",
		Message: "50% done\nsecond line"}})
	want := "::warning file=a%2Cb%3Ac.md,line=2,endLine=2,col=1,endColumn=5,title=claim/moved::50%25 done%0Asecond line\n"
	if b.String() != want {
		t.Errorf("got %q\nwant %q", b.String(), want)
	}
	if c := mdCell("a | b\nc"); c != `a \| b c` {
		t.Errorf("mdCell = %q", c)
	}
}

// The SARIF log has one rule per documented code, every result on its
// anchor's doc line, and the fixes of moved anchors are exactly what verify
// without --check writes: applying them reproduces the self-healed doc.
func TestVerifyFormatSARIF(t *testing.T) {
	r := tourRepo(t)
	out, errOut, code := runCLI(t, "verify", r.Dir, "--check", "--format", "sarif")
	if code != 1 {
		t.Fatalf("exit %d\n%s", code, errOut)
	}
	var log sarifLog
	if err := json.Unmarshal([]byte(out), &log); err != nil {
		t.Fatal(err)
	}
	if log.Version != "2.1.0" || len(log.Runs) != 1 {
		t.Fatalf("version %q, %d runs", log.Version, len(log.Runs))
	}
	run := log.Runs[0]
	if len(run.Tool.Driver.Rules) != len(diagnosticRules) {
		t.Errorf("%d rules, want one per documented code (%d)", len(run.Tool.Driver.Rules), len(diagnosticRules))
	}
	for _, rule := range run.Tool.Driver.Rules {
		if rule.ID == "anchor/moved" && (!strings.Contains(rule.Help.Text, "Rebind") || rule.DefaultConfig.Level != "warning") {
			t.Errorf("anchor/moved rule: %+v", rule)
		}
	}
	lines := map[string]int{}
	for _, a := range tourAnchors(t, r.Dir) {
		if a.State != "fresh" {
			lines[a.Doc+":"+strconv.Itoa(a.Line)]++
		}
	}
	fixed := map[string][]sarifReplacement{}
	for _, res := range run.Results {
		if run.Tool.Driver.Rules[res.RuleIndex].ID != res.RuleID {
			t.Errorf("result %s points at rule %d", res.RuleID, res.RuleIndex)
		}
		loc := res.Locations[0].PhysicalLocation
		if strings.HasPrefix(res.RuleID, "anchor/") {
			key := loc.ArtifactLocation.URI + ":" + strconv.Itoa(loc.Region.StartLine)
			if lines[key] == 0 {
				t.Errorf("result %s at %s: no non-fresh anchor there", res.RuleID, key)
			}
		}
		if fixable(res.RuleID) != (len(res.Fixes) == 1) {
			t.Errorf("%s at line %d: %d fixes", res.RuleID, loc.Region.StartLine, len(res.Fixes))
		}
		for _, f := range res.Fixes {
			for _, c := range f.ArtifactChanges {
				fixed[c.ArtifactLocation.URI] = append(fixed[c.ArtifactLocation.URI], c.Replacements...)
			}
		}
	}
	if len(fixed) == 0 {
		t.Fatal("no fixes in the SARIF log")
	}
	before := map[string]string{}
	for doc := range fixed {
		before[doc] = r.Read(doc)
	}
	runCLI(t, "verify", r.Dir) // the self-heal
	for doc, reps := range fixed {
		if got, want := applySARIF(t, before[doc], reps), r.Read(doc); got != want {
			t.Errorf("%s: SARIF fixes give\n%s\nverify wrote\n%s", doc, got, want)
		}
	}
}

// applySARIF applies replacements (1-based lines, UTF-16 columns; the tour
// is ASCII on these lines) from the last to the first.
func applySARIF(t *testing.T, text string, reps []sarifReplacement) string {
	t.Helper()
	lines := strings.SplitAfter(text, "\n")
	offset := func(line, col int) int {
		o := 0
		for _, l := range lines[:line-1] {
			o += len(l)
		}
		return o + col - 1
	}
	sort.Slice(reps, func(i, j int) bool {
		a, b := reps[i].DeletedRegion, reps[j].DeletedRegion
		return a.StartLine > b.StartLine || a.StartLine == b.StartLine && a.StartColumn > b.StartColumn
	})
	for _, rp := range reps {
		d := rp.DeletedRegion
		s, e := offset(d.StartLine, d.StartColumn), offset(d.EndLine, d.EndColumn)
		text = text[:s] + rp.InsertedContent.Text + text[e:]
	}
	return text
}

// GitLab's code-quality report: a JSON array, one issue per finding with
// the severity words GitLab knows and a fingerprint that is stable.
func TestVerifyFormatGitLab(t *testing.T) {
	r := tourRepo(t)
	out1, _, code := runCLI(t, "verify", r.Dir, "--check", "--format", "gitlab")
	out2, _, _ := runCLI(t, "verify", r.Dir, "--check", "--format", "gitlab")
	if code != 1 || out1 != out2 {
		t.Fatalf("exit %d; stable across runs: %v", code, out1 == out2)
	}
	var issues []gitlabIssue
	if err := json.Unmarshal([]byte(out1), &issues); err != nil {
		t.Fatal(err)
	}
	sev := map[string]string{}
	for _, is := range issues {
		sev[is.CheckName] = is.Severity
		if is.Location.Path == "" || is.Location.Lines.Begin < 1 || len(is.Fingerprint) != 32 {
			t.Errorf("issue %+v", is)
		}
	}
	if sev["anchor/stale"] != "major" || sev["anchor/moved"] != "minor" || sev["anchor/unpinned"] != "info" {
		t.Errorf("severities %v", sev)
	}
}

func TestVerifyFormatFlag(t *testing.T) {
	r := tourRepo(t)
	if _, errOut, code := runCLI(t, "verify", r.Dir, "--check", "--format", "xml"); code != 2 || !strings.Contains(errOut, "unknown --format") {
		t.Errorf("unknown format: exit %d %q", code, errOut)
	}
	j1, _, _ := runCLI(t, "verify", r.Dir, "--check", "--json")
	j2, _, _ := runCLI(t, "verify", r.Dir, "--check", "--format", "json")
	strip := regexp.MustCompile(`"elapsed_ms": \d+`)
	if strip.ReplaceAllString(j1, "") != strip.ReplaceAllString(j2, "") || !strings.Contains(j1, `"anchors"`) {
		t.Error("--json is not --format json")
	}
}
