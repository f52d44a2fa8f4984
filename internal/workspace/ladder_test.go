package workspace_test

import (
	"context"
	"flag"
	"fmt"
	"go/format"
	"os"
	"path/filepath"
	"sort"
	"strconv"
	"strings"
	"testing"

	"golang.org/x/tools/txtar"

	"github.com/clew-lsp/clew-lsp/internal/anchors"
	"github.com/clew-lsp/clew-lsp/internal/workspace"
	"github.com/clew-lsp/clew-lsp/internal/workspace/disk"
	"github.com/clew-lsp/clew-lsp/internal/workspace/wstest"
)

var update = flag.Bool("update", false, "rewrite the want sections of testdata fixtures")

// TestLadder runs every testdata/ladder/*.txtar fixture through a real git
// repository:
//
//  1. the files under before/ and docs/ are committed;
//  2. every anchor is pinned with Confirm, exactly as `clew-lsp confirm --all`;
//  3. the tree is replaced by after/ (files of before/ missing from after/
//     are deleted; an after/ file whose content is the single line GOFMT is
//     before/'s content run through gofmt) and committed;
//  4. the check's verdicts are compared with the want section;
//  5. when a want-rebound section exists, verify's self-heal is applied and
//     the check runs again;
//  6. when a want-confirmed section exists, every anchor is confirmed again
//     (`confirm --all`) and the verdicts and the anchor lines are compared.
//
// An optional flags section holds key=value lines: max_files=N starves the
// budget; refuse=N expects N anchors to be refused at pin time, and
// refuse_confirmed=N at the confirm of step 6.
func TestLadder(t *testing.T) {
	paths, err := filepath.Glob("testdata/ladder/*.txtar")
	if err != nil || len(paths) == 0 {
		t.Fatalf("no fixtures: %v", err)
	}
	for _, p := range paths {
		t.Run(strings.TrimSuffix(filepath.Base(p), ".txtar"), func(t *testing.T) {
			runLadder(t, p)
		})
	}
}

// openLadder builds a ladder fixture's repository and the check options
// its flags ask for (max_files: a budget of that many files).
func openLadder(t *testing.T, fixture string) (*txtar.Archive, *wstest.Repo, map[string]string, workspace.CheckOptions) {
	t.Helper()
	ar, err := txtar.ParseFile(fixture)
	if err != nil {
		t.Fatal(err)
	}
	r, flags := buildLadderRepo(t, ar)
	opt := workspace.CheckOptions{}
	if v, ok := flags["max_files"]; ok {
		b := workspace.DefaultBudget()
		b.MaxFiles, _ = strconv.Atoi(v)
		opt.Budget = &b
	}
	return ar, r, flags, opt
}

func runLadder(t *testing.T, fixture string) {
	ar, r, flags, opt := openLadder(t, fixture)
	rep := check(t, r.Dir, opt)
	got := describe(rep)
	if _, ok := wstest.File(ar, "want-rebound"); ok {
		files, _, err := disk.Open(r.Dir)
		if err != nil {
			t.Fatal(err)
		}
		for _, de := range rep.Rebinds() {
			if err := files.WriteFile(de.Doc, de.Apply([]byte(r.Read(de.Doc)))); err != nil {
				t.Fatal(err)
			}
		}
		compare(t, fixture, ar, "want-rebound", describe(check(t, r.Dir, opt)))
	}
	compare(t, fixture, ar, "want", got)
	if _, ok := wstest.File(ar, "want-confirmed"); ok {
		pin(t, r, map[string]string{"refuse": flags["refuse_confirmed"]})
		confirmed := describe(check(t, r.Dir, opt))
		for _, doc := range wstest.Keys(wstest.Section(ar, "docs/")) {
			confirmed += anchorLines("docs/"+doc, r.Read("docs/"+doc))
		}
		compare(t, fixture, ar, "want-confirmed", confirmed)
	}
}

// anchorLines lists a doc's anchor comments with their hashes elided, so a
// want-confirmed section shows what confirm wrote (kind, name, path).
func anchorLines(doc, text string) string {
	var b strings.Builder
	for i, l := range strings.Split(text, "\n") {
		if j := strings.Index(l, "<!-- @code"); j >= 0 {
			if k := strings.Index(l, " sha="); k >= 0 {
				l = l[:k] + " sha=… -->"
			}
			fmt.Fprintf(&b, "%s:%d %s\n", doc, i+1, strings.TrimSpace(l[j:]))
		}
	}
	return b.String()
}

// buildLadderRepo commits a fixture's before/ and docs/, pins every anchor,
// then commits after/ (steps 1–3 of TestLadder). It returns the repository
// before the final check, and the fixture's flags.
func buildLadderRepo(t *testing.T, ar *txtar.Archive) (*wstest.Repo, map[string]string) {
	t.Helper()
	flags := map[string]string{}
	if f, ok := wstest.File(ar, "flags"); ok {
		for _, l := range strings.Split(strings.TrimSpace(f), "\n") {
			if k, v, ok := strings.Cut(strings.TrimSpace(l), "="); ok {
				flags[k] = v
			}
		}
	}
	r := wstest.New(t)
	before := wstest.Section(ar, "before/")
	r.Write(before)
	docs := map[string]string{}
	for name, content := range wstest.Section(ar, "docs/") {
		docs["docs/"+name] = content
	}
	r.Write(docs)
	r.Commit("before")

	pin(t, r, flags)
	r.Commit("pin")

	after := wstest.Section(ar, "after/")
	for _, p := range wstest.Keys(before) {
		if _, ok := after[p]; !ok {
			r.Remove(p)
		}
	}
	for p, content := range after {
		if content == "GOFMT\n" {
			src, err := format.Source([]byte(before[p]))
			if err != nil {
				t.Fatalf("gofmt %s: %v", p, err)
			}
			after[p] = string(src)
		}
	}
	r.Write(after)
	r.Commit("after")
	return r, flags
}

// pin confirms every anchor, as `clew-lsp confirm --all` does.
func pin(t *testing.T, r *wstest.Repo, flags map[string]string) {
	t.Helper()
	refused := r.ConfirmAll()
	want, _ := strconv.Atoi(flags["refuse"])
	if len(refused) != want {
		for _, x := range refused {
			t.Log(x.Message)
		}
		t.Fatalf("pinning refused %d anchors, want %d", len(refused), want)
	}
}

func check(t *testing.T, dir string, opt workspace.CheckOptions) *workspace.Report {
	t.Helper()
	snap, err := disk.Load(dir)
	if err != nil {
		t.Fatal(err)
	}
	rep, err := snap.Check(context.Background(), opt)
	if err != nil {
		t.Fatal(err)
	}
	return rep
}

// describe prints one line per anchor with every detail a fixture pins down.
func describe(rep *workspace.Report) string {
	var b strings.Builder
	for _, d := range rep.Diagnostics {
		fmt.Fprintf(&b, "diag %s:%d %s\n", d.Doc, d.Line, d.Code)
	}
	for _, a := range rep.Anchors {
		d := a.Detail
		parts := []string{a.ID, string(a.State), d.Reason}
		if a.State != anchors.StateLost && a.State != anchors.StateUnchecked && d.Path != "" {
			parts = append(parts, fmt.Sprintf("at=%s:%d", d.Path, d.LineStart))
		}
		if d.MovedTo != "" {
			parts = append(parts, "moved_to="+d.MovedTo)
		}
		if d.RenamedTo != "" {
			parts = append(parts, "renamed_to="+d.RenamedTo)
		}
		if d.OldKind != "" || d.NewKind != "" {
			parts = append(parts, "kind="+d.OldKind+"->"+d.NewKind)
		}
		if d.BodyChanged != nil {
			parts = append(parts, "body_changed="+strconv.FormatBool(*d.BodyChanged))
		}
		if d.SignatureChanged != nil {
			parts = append(parts, "signature_changed="+strconv.FormatBool(*d.SignatureChanged))
		}
		switch {
		case d.Note == anchors.NoteNoHistory:
			parts = append(parts, "note=no_history")
		case d.Note != "":
			parts = append(parts, "note="+d.Note)
		}
		for _, c := range d.Candidates {
			parts = append(parts, "candidate="+c.QualifiedName+"@"+c.Path)
		}
		for _, c := range d.Suggestions {
			parts = append(parts, "suggestion="+c.QualifiedName+"@"+c.Path)
		}
		b.WriteString(strings.Join(parts, " ") + "\n")
	}
	if !rep.Complete {
		ids := append([]string(nil), rep.UncheckedAnchorIDs...)
		sort.Strings(ids)
		fmt.Fprintf(&b, "incomplete limit=%s unchecked=%s\n", *rep.Budget.Limit, strings.Join(ids, ","))
	}
	return b.String()
}

func compare(t *testing.T, fixture string, ar *txtar.Archive, section, got string) {
	t.Helper()
	want, _ := wstest.File(ar, section)
	if got == want {
		return
	}
	if *update {
		wstest.SetFile(ar, section, got)
		if err := os.WriteFile(fixture, txtar.Format(ar), 0o644); err != nil {
			t.Fatal(err)
		}
		return
	}
	t.Errorf("%s mismatch (run with -update to accept)\n--- got\n%s--- want\n%s", section, got, want)
}
