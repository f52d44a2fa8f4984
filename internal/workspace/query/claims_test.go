package query_test

import (
	"context"
	"fmt"
	"strings"
	"testing"

	"github.com/clew-lsp/clew-lsp/internal/claims"
	"github.com/clew-lsp/clew-lsp/internal/workspace"
	"github.com/clew-lsp/clew-lsp/internal/workspace/disk"
	"github.com/clew-lsp/clew-lsp/internal/workspace/query"
	"github.com/clew-lsp/clew-lsp/internal/workspace/wstest"
)

// brainFiles is a brain checkout whose law has one claim of each kind the
// editor treats differently: INV-1 broken on its second leg (a forbidden
// pattern), INV-2 moved (its file was renamed), INV-3 ok over two legs,
// INV-4 refused by the dialect gate, INV-5 held by a `@code` leg and an
// `@anchor` leg in the root README, INV-6 with no leg at all.
var brainFiles = map[string]string{
	".multivac/config.yml": "repos:\n  api:\n    path: ../api\n",
	".multivac/invariants.md": `# Law

| ID | statement | authority | state | date | source |
| --- | --- | --- | --- | --- | --- |
| INV-1 | Run is defined and never logs | team | active | 2026-01-10 | |
| INV-2 | the retry loop exists | team | active | 2026-01-10 | |
| INV-3 | lib is one package with one retry loop | team | active | 2026-01-10 | |
| INV-4 | Run doubles | team | active | 2026-01-10 | |
| INV-5 | Run is reviewed | team | active | 2026-01-10 | |
| INV-6 | nobody anchored this | team | active | 2026-01-10 | |

<!-- @anchor INV-1 brain:lib/run.go /func Run/ -->
<!-- @anchor INV-1 brain:lib/*.go /log\.Print/ absent -->
<!-- @anchor INV-2 brain:lib/old_retry.go /func retryLoop/ -->
<!-- @anchor INV-3 brain:lib/run.go /^package lib$/ -->
<!-- @anchor INV-3 brain:lib/retry.go /func retryLoop/ unique -->
<!-- @anchor INV-4 brain:lib/*.go /n \* \d+/ -->
`,
	"README.md":     "# Brain\n\nRun returns.\n<!-- @anchor INV-5 brain:lib/run.go /return/ -->\n",
	"docs/guide.md": "# Guide\n\nRun is the entry point.\n<!-- @code INV-5 function Run lib/run.go -->\n",
	"lib/run.go": `package lib

import "log"

// Run runs the job.
func Run(n int) int {
	log.Printf("run %d", n)
	return n * 2
}
`,
	"lib/retry.go": `package lib

// retryLoop retries f.
func retryLoop(f func() error) error {
	for i := 0; i < 3; i++ {
		if err := f(); err == nil {
			return nil
		}
	}
	return f()
}
`,
}

type brainQ struct {
	t    *testing.T
	snap *workspace.Snapshot
	rep  *workspace.Report
}

// newBrain commits brainFiles, pins the `@code` leg and checks.
func newBrain(t *testing.T) *brainQ {
	t.Helper()
	r := wstest.New(t)
	r.Write(brainFiles)
	r.Commit("brain")
	rep := check(t, r.Dir, workspace.CheckOptions{})
	snap, err := disk.Load(r.Dir)
	if err != nil {
		t.Fatal(err)
	}
	for _, de := range rep.Confirm(nil, true).Edits {
		b, _ := snap.Text(de.Doc)
		r.Write(map[string]string{de.Doc: string(de.Apply(b))})
	}
	r.Commit("pin")
	snap, err = disk.Load(r.Dir)
	if err != nil {
		t.Fatal(err)
	}
	rep, err = snap.Check(context.Background(), workspace.CheckOptions{})
	if err != nil {
		t.Fatal(err)
	}
	return &brainQ{t: t, snap: snap, rep: rep}
}

// at is the byte offset of the first sub in rel (plus delta).
func (b *brainQ) at(rel, sub string, delta int) int {
	b.t.Helper()
	text, _ := b.snap.Text(rel)
	i := strings.Index(string(text), sub)
	if i < 0 {
		b.t.Fatalf("%s lacks %q", rel, sub)
	}
	return i + delta
}

// where renders locations as path:line.
func (b *brainQ) where(locs []query.Location) string {
	var out []string
	for _, l := range locs {
		text, _ := b.snap.Text(l.Path)
		out = append(out, fmt.Sprintf("%s:%d", l.Path, 1+strings.Count(string(text[:l.StartByte]), "\n")))
	}
	return strings.Join(out, " ")
}

func TestClaimLenses(t *testing.T) {
	b := newBrain(t)
	got := map[string]string{}
	var order []string
	for _, l := range query.Lenses(b.rep, b.snap, claims.LawFile) {
		text, _ := b.snap.Text(claims.LawFile)
		id := string(text[l.StartByte:l.EndByte])
		var locs []query.Location
		for _, a := range l.Anchors {
			locs = append(locs, a.Location)
		}
		got[id] = l.Title + " → " + b.where(locs)
		order = append(order, id)
	}
	want := map[string]string{
		"INV-1": "broken · leg 2 → lib/run.go:7",
		"INV-2": "moved · leg 1 → lib/retry.go:4",
		"INV-3": "ok · 2 legs → lib/run.go:1 lib/retry.go:4",
		"INV-4": "no legs → ",
		"INV-5": "ok · 2 legs → lib/run.go:8 lib/run.go:6",
		"INV-6": "no legs → ",
	}
	if strings.Join(order, " ") != "INV-1 INV-2 INV-3 INV-4 INV-5 INV-6" {
		t.Errorf("lens order %v", order)
	}
	for id, w := range want {
		if got[id] != w {
			t.Errorf("%s: lens %q, want %q", id, got[id], w)
		}
	}
	if ls := query.Lenses(b.rep, b.snap, "README.md"); len(ls) != 0 {
		t.Errorf("lenses outside the law: %+v", ls)
	}
	// The lens's command (a click on the row) shows the same locations.
	if got := b.where(query.ShowAnchors(b.rep, b.snap, claims.LawFile, b.at(claims.LawFile, "| INV-1", 2))); got != "lib/run.go:7" {
		t.Errorf("showAnchors on INV-1's row: %s", got)
	}
}

func TestClaimDefinition(t *testing.T) {
	b := newBrain(t)
	law := claims.LawFile
	cases := []struct {
		name, rel string
		off       int
		want      string
	}{
		{"row ID", law, b.at(law, "| INV-1 |", 3), "lib/run.go:6 lib/run.go:7"},
		{"row ID end", law, b.at(law, "| INV-3 |", 7), "lib/run.go:1 lib/retry.go:4"},
		{"row prose", law, b.at(law, "never logs", 0), ""},
		{"leg ID: every leg of the claim", law, b.at(law, "@anchor INV-1 brain:lib/*.go", 9), "lib/run.go:6 lib/run.go:7"},
		{"leg body: that leg", law, b.at(law, "/log", 2), "lib/run.go:7"},
		{"moved leg: where it matches now", law, b.at(law, "old_retry", 0), "lib/retry.go:4"},
		{"leg ID across docs, with the @code leg", "README.md", b.at("README.md", "INV-5", 1), "lib/run.go:8 lib/run.go:6"},
		// On the @code leg itself: its declaration, as for any anchor.
		{"@code leg", "docs/guide.md", b.at("docs/guide.md", "INV-5", 1), "lib/run.go:6"},
		{"refused leg", law, b.at(law, `\d+`, 0), ""},
	}
	for _, c := range cases {
		if got := b.where(query.Definition(b.rep, b.snap, c.rel, c.off)); got != c.want {
			t.Errorf("%s: %q, want %q", c.name, got, c.want)
		}
	}
}

func TestClaimFixes(t *testing.T) {
	b := newBrain(t)
	law := claims.LawFile
	text, _ := b.snap.Text(law)
	findings := b.rep.Findings()[law]
	finding := func(code, sub string) query.FixRequest {
		t.Helper()
		off := b.at(law, sub, 0)
		for _, f := range findings {
			if f.Code == code && f.StartByte <= off && off <= f.EndByte {
				return query.FixRequest{Code: f.Code, StartByte: f.StartByte, EndByte: f.EndByte}
			}
		}
		t.Fatalf("no %s on the line of %q among %+v", code, sub, findings)
		return query.FixRequest{}
	}
	apply := func(f query.Fix) string {
		t.Helper()
		if len(f.Edits) != 1 || f.Edits[0].Doc != law || f.Kind != query.FixQuick {
			t.Fatalf("fix %+v", f)
		}
		return string(f.Edits[0].Apply(text))
	}

	moved := query.Fixes(b.rep, b.snap, law, []query.FixRequest{finding(claims.CodeMoved, "old_retry")})
	if len(moved) != 1 || moved[0].Title != "Rewrite the moved glob to brain:lib/retry.go" || !moved[0].Preferred || moved[0].Request != 0 {
		t.Fatalf("moved: %+v", moved)
	}
	if got, want := apply(moved[0]), strings.Replace(string(text), "brain:lib/old_retry.go", "brain:lib/retry.go", 1); got != want {
		t.Errorf("moved rewrite:\n%s", got)
	}
	// The row's diagnostic offers the same rewrite, naming the leg.
	row := query.Fixes(b.rep, b.snap, law, []query.FixRequest{finding(claims.CodeMoved, "| INV-2")})
	if len(row) != 1 || !strings.HasSuffix(row[0].Title, "(.multivac/invariants.md:14)") {
		t.Errorf("moved row: %+v", row)
	}

	dialect := query.Fixes(b.rep, b.snap, law, []query.FixRequest{finding(claims.CodeParse, `\d+`)})
	if len(dialect) != 1 || dialect[0].Title != `Fix the regex dialect: \d → [[:digit:]]` {
		t.Fatalf("dialect: %+v", dialect)
	}
	if got, want := apply(dialect[0]), strings.Replace(string(text), `/n \* \d+/`, `/n \* [[:digit:]]+/`, 1); got != want {
		t.Errorf("dialect rewrite:\n%s", got)
	}

	// Nothing for a broken leg, nor for a diagnostic that is no longer there.
	if fs := query.Fixes(b.rep, b.snap, law, []query.FixRequest{finding(claims.CodeBroken, "/log")}); len(fs) != 0 {
		t.Errorf("broken: %+v", fs)
	}
	gone := finding(claims.CodeMoved, "old_retry")
	gone.StartByte++
	if fs := query.Fixes(b.rep, b.snap, law, []query.FixRequest{gone}); len(fs) != 0 {
		t.Errorf("a request that matches nothing: %+v", fs)
	}
}

func TestClaimCompletion(t *testing.T) {
	labels := func(line string) string {
		t.Helper()
		r := wstest.New(t)
		files := map[string]string{}
		for k, v := range brainFiles {
			files[k] = v
		}
		files["notes.md"] = "# Notes\n" + line + "\n"
		r.Write(files)
		snap, err := disk.Load(r.Dir)
		if err != nil {
			t.Fatal(err)
		}
		c := query.Complete(snap, "notes.md", len("# Notes\n")+len(line), nil)
		var out []string
		for _, it := range c.Items {
			out = append(out, it.Label)
		}
		return strings.Join(out, " ")
	}
	kinds := "function … doc" // the `@code` completion's kinds
	cases := []struct{ line, want string }{
		{"<!-- @anchor ", "INV-1 INV-2 INV-3 INV-4 INV-5 INV-6"},
		{"<!-- @anchor inv-", "INV-1 INV-2 INV-3 INV-4 INV-5 INV-6"},
		{"| x | <!-- @anchor INV-5", "INV-5"},
		{"<!-- @anchor INV-1 ", "brain: *: api:"},
		{"<!-- @anchor INV-1 a", "api:"},
		{"<!-- @anchor INV-1 brain:lib/", ""},
		{"<!-- @anchor INV-1 brain:lib/*.go /x/ ", ""},
		{"<!-- @anchor INV-1 brain:x /x/ --> <!-- @code ", kinds},
		{"<!-- @code INV-1 ", kinds},
		{"<!-- @anchorX ", ""},
	}
	for _, c := range cases {
		got := labels(c.line)
		if c.want == kinds && strings.HasPrefix(got, "function ") && strings.HasSuffix(got, " doc") {
			continue
		}
		if got != c.want {
			t.Errorf("%q: %q, want %q", c.line, got, c.want)
		}
	}
}
