package workspace_test

import (
	"fmt"
	"os"
	"path/filepath"
	"reflect"
	"runtime"
	"strings"
	"testing"
	"time"

	"github.com/clew-lsp/clew-lsp/internal/anchors"
	"github.com/clew-lsp/clew-lsp/internal/anchors/symbols"
	"github.com/clew-lsp/clew-lsp/internal/workspace"
	"github.com/clew-lsp/clew-lsp/internal/workspace/disk"
	"github.com/clew-lsp/clew-lsp/internal/workspace/wstest"
)

// With the mention prefilter, every mention resolves exactly as with the
// word test alone: same resolution, candidates, targets and anchor lines,
// same counts and coverage; and verify's MentionCoverage, which settles
// some mentions without parsing every file and reads Go files with the
// declaration lexer, counts as the whole scan. The workspace is every
// language's symbols testdata, Go's net/http and the parser's and type
// checker's test inputs (go/parser/testdata, internal/types/testdata/spec
// and examples), and its doc mentions every declaration they
// hold, by name, qualified name and call, some passages anchored.
func TestMentionPrefilterResolvesAsTheWordTest(t *testing.T) {
	files := map[string]string{}
	var doc strings.Builder
	doc.WriteString("# Every declaration\n\n")
	add := func(rel string, src []byte) {
		lang, ok := symbols.LanguageForPath(rel)
		if !ok || symbols.IsKeyLanguage(lang) {
			return
		}
		files[rel] = string(src)
		fmt.Fprintf(&doc, "## %s\n\n", rel)
		for i, d := range symbols.Parse(lang, src, symbols.Options{}).Decls {
			fmt.Fprintf(&doc, "- `%s` and `%s`", anchors.BaseName(d.QualifiedName), d.QualifiedName)
			if d.Kind == "function" || d.Kind == "method" {
				fmt.Fprintf(&doc, " and `%s()`", anchors.BaseName(d.QualifiedName))
			}
			doc.WriteString("\n")
			if i%7 == 0 {
				// Anchored passages: the coverage reads the anchors too.
				fmt.Fprintf(&doc, "\n%s\n\n", anchors.FormatAnchor(anchors.Binding{Form: anchors.FormSymbol, Kind: d.Kind,
					QualifiedName: d.QualifiedName, Path: rel}, false))
			}
		}
		doc.WriteString("\n")
	}
	testdata, _ := filepath.Glob("../anchors/symbols/testdata/*")
	for _, f := range testdata {
		if src, err := os.ReadFile(f); err == nil {
			add("lang/"+strings.TrimSuffix(filepath.Base(f), ".txt"), src)
		}
	}
	http, _ := filepath.Glob(filepath.Join(runtime.GOROOT(), "src", "net", "http", "*.go"))
	// Generic and odd Go, and Go that is not valid: the parser's and the
	// type checker's test inputs (the coverage reads Go files with the
	// declaration lexer, the full scan with tree-sitter).
	for _, dir := range []string{"go/parser/testdata", "internal/types/testdata/spec", "internal/types/testdata/examples"} {
		more, _ := filepath.Glob(filepath.Join(runtime.GOROOT(), "src", dir, "*.go"))
		http = append(http, more...)
	}
	for _, f := range http {
		if src, err := os.ReadFile(f); err == nil {
			add(strings.TrimPrefix(filepath.ToSlash(f), filepath.ToSlash(filepath.Join(runtime.GOROOT(), "src"))+"/"), src)
		}
	}
	files["docs/all.md"] = doc.String()
	r := wstest.New(t)
	r.Write(files)
	r.Commit("all")

	scan := func(filtered bool) workspace.MentionScan {
		defer workspace.SetMentionPrefilter(filtered)()
		snap, err := disk.Load(r.Dir)
		if err != nil {
			t.Fatal(err)
		}
		return snap.ScanMentions(nil, nil)
	}
	want, got := scan(false), scan(true)
	// verify's coverage parses less, and counts the same.
	for _, filtered := range []bool{false, true} {
		restore := workspace.SetMentionPrefilter(filtered)
		snap, err := disk.Load(r.Dir)
		if err != nil {
			t.Fatal(err)
		}
		cov, settled := snap.MentionCoverageSettled(nil)
		restore()
		if cov != want.Coverage {
			t.Errorf("MentionCoverage (prefilter %v) = %+v, want %+v", filtered, cov, want.Coverage)
		}
		if settled < 100 {
			t.Errorf("only %d mentions settled early (prefilter %v): the test does not exercise it", settled, filtered)
		}
		t.Logf("prefilter %v: %d mentions settled early", filtered, settled)
	}
	// With mention records (a persistent store): the cold run records
	// every file, the warm run reads only those a record cannot answer
	// for (here every file of another language or that the lexer refuses
	// holds a mentioned name), and both count as the whole scan.
	defer workspace.SetMentionPackWriteEvery(0)()
	store, err := disk.OpenTableStoreAt(t.TempDir(), "test-version")
	if err != nil {
		t.Fatal(err)
	}
	time.Sleep(2 * workspace.RacyWindow)
	coldRead := 0
	for _, run := range []string{"cold", "warm"} {
		snap, err := disk.Load(r.Dir)
		if err != nil {
			t.Fatal(err)
		}
		snap.UseTableStore(store)
		cov, read := snap.MentionCoverageReads(nil)
		if cov != want.Coverage {
			t.Errorf("MentionCoverage with records (%s) = %+v, want %+v", run, cov, want.Coverage)
		}
		if run == "cold" {
			coldRead = read
		} else if read > coldRead {
			t.Errorf("warm run read %d code files, more than the cold run's %d", read, coldRead)
		}
		t.Logf("%s run with records: %d code files read", run, read)
	}
	if want.Stats.Found < 5000 || want.Stats.Unique < 1000 || want.Stats.Ambiguous < 100 || want.Coverage.Anchored == 0 {
		t.Fatalf("the workload is too thin to tell: %+v, coverage %+v", want.Stats, want.Coverage)
	}
	if got.Stats != want.Stats || got.Coverage != want.Coverage {
		t.Errorf("counts: got %+v %+v, want %+v %+v", got.Stats, got.Coverage, want.Stats, want.Coverage)
	}
	if len(got.Mentions) != len(want.Mentions) {
		t.Fatalf("%d mentions, want %d", len(got.Mentions), len(want.Mentions))
	}
	for i := range want.Mentions {
		if !reflect.DeepEqual(got.Mentions[i], want.Mentions[i]) {
			t.Errorf("mention %d: got %+v\nwant %+v", i, got.Mentions[i], want.Mentions[i])
		}
	}
	t.Logf("%+v", want.Stats)
}
