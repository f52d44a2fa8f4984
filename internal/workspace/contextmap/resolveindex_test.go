package contextmap

import (
	"context"
	"slices"
	"testing"

	"github.com/clew-lsp/clew-lsp/internal/devcontext"
	"github.com/clew-lsp/clew-lsp/internal/workspace"
	"github.com/clew-lsp/clew-lsp/internal/workspace/wstest"
)

// resolveFixture is a module whose directories interleave in path order
// (p/sub's files sort among p's, pa's after them) and whose files declare
// one base name more than once (a method and a function, two methods).
func resolveFixture(t *testing.T) (*workspace.Snapshot, *ctxBase) {
	t.Helper()
	return committedBase(t, map[string]string{
		"go.mod":       "module example.com/m\n\ngo 1.22\n",
		"p/a.go":       "package p\n\ntype T struct{}\n\ntype U struct{}\n\nfunc (T) Run() {}\n\nfunc Run() {}\n\nfunc (U) Run() {}\n\nfunc Stop() {}\n",
		"p/sub/b.go":   "package sub\n\nfunc Run() {}\n\nfunc Stop() {}\n",
		"p/sub/c.go":   "package sub\n\ntype T int\n\nfunc (T) Run() {}\n",
		"p/z.go":       "package p\n\nfunc Stop() {}\n\nfunc Other() {}\n",
		"pa/x.go":      "package pa\n\nfunc Run() {}\n",
		"q.go":         "package m\n\nfunc Run() {}\n",
		"docs/read.md": "# R\n",
	})
}

// committedBase commits files as one repository and returns its
// snapshot and context base.
func committedBase(t *testing.T, files map[string]string) (*workspace.Snapshot, *ctxBase) {
	t.Helper()
	r := wstest.New(t)
	r.Write(files)
	r.Commit("m")
	s := loadDir(t, r.Dir)
	b, err := contextBase(context.Background(), s)
	if err != nil {
		t.Fatal(err)
	}
	return s, b
}

// TestDeclsNamedIsTheWalk: a file's declarations by base name are the
// walk of all its declarations filtered by base name, in order — for every
// name the file declares and for names it does not.
func TestDeclsNamedIsTheWalk(t *testing.T) {
	s, b := resolveFixture(t)
	w := newWorldBuilder(context.Background(), s, b, 3, 0.1)
	repeated := false
	for _, f := range b.files {
		pf := w.parse(f.path, false)
		if pf == nil {
			continue
		}
		names := []string{"Absent", ""}
		for _, x := range pf.decls {
			names = append(names, x.base)
		}
		for _, n := range names {
			var want []int32
			for i, x := range pf.decls {
				if x.base == n {
					want = append(want, int32(i))
				}
			}
			got := pf.c.declsNamed(n)
			if !slices.Equal(got, want) {
				t.Fatalf("%s: declsNamed(%q) = %v, the walk finds %v", f.path, n, got, want)
			}
			repeated = repeated || len(want) > 2
		}
	}
	if !repeated {
		t.Fatal("no file declares a base name three times: the order is not checked")
	}
}

// TestInDirIsTheFilter: narrowing a posting list to a directory's span
// keeps every file of that directory, in order — for every directory and
// every name's postings, and for the list of all files.
func TestInDirIsTheFilter(t *testing.T) {
	_, b := resolveFixture(t)
	all := make([]int32, len(b.files))
	for i := range all {
		all[i] = int32(i)
	}
	dirs := map[string]bool{"nowhere": true}
	posts := [][]int32{all, nil}
	for _, f := range b.files {
		dirs[f.dir] = true
	}
	for _, n := range []string{"Run", "Stop", "T", "Other"} {
		posts = append(posts, b.lex.declaredIn(n), b.lex.occursIn(n))
	}
	inDir := func(post []int32, dir string) []int32 {
		var out []int32
		for _, i := range post {
			if b.files[i].dir == dir {
				out = append(out, i)
			}
		}
		return out
	}
	narrowed := false
	for dir := range dirs {
		for _, post := range posts {
			span := b.inDir(post, dir)
			if got, want := inDir(span, dir), inDir(post, dir); !slices.Equal(got, want) {
				t.Fatalf("inDir(%v, %q) keeps %v of the directory's files, want %v", post, dir, got, want)
			}
			narrowed = narrowed || len(span) < len(post)
		}
	}
	if !narrowed || len(b.lex.declaredIn("Run")) < 4 {
		t.Fatal("no posting list was narrowed: the fixture checks nothing")
	}
}

// TestLookupFindsEveryNode: a world's nodes are found by URI at their
// index — the file nodes through the base's map, the others through the
// world's — and a URI that is no node (a doc's path as a file URI, a
// symbol nothing declares) is not found.
func TestLookupFindsEveryNode(t *testing.T) {
	s, b := resolveFixture(t)
	w := newWorldBuilder(context.Background(), s, b, 3, 0.1)
	w.parse("p/a.go", false) // the cursor's file comes before the files
	w.addFiles()
	w.addDocs()
	for _, f := range b.files {
		w.parse(f.path, false)
	}
	files, decls := 0, 0
	for i, n := range w.nodes {
		if j, ok := w.lookup(n.URI); !ok || j != i {
			t.Fatalf("lookup(%q) = %d, %v; the node is at %d", n.URI, j, ok, i)
		}
		switch n.Kind {
		case devcontext.KindFile:
			files++
		case devcontext.KindSymbol:
			decls++
		}
	}
	if files < 6 || decls < 10 || w.filesAt == 0 {
		t.Fatalf("%d file nodes, %d declarations, files at %d: the fixture checks nothing", files, decls, w.filesAt)
	}
	for _, u := range []string{devcontext.FileURI("docs/read.md"), devcontext.FileURI("nowhere.go"), devcontext.SymbolURI("example.com/m/p", "Nothing")} {
		if _, ok := w.lookup(u); ok || w.has(u) {
			t.Fatalf("lookup(%q) found a node", u)
		}
	}
	fresh := newWorldBuilder(context.Background(), s, b, 3, 0.1)
	defer func() {
		if recover() == nil {
			t.Fatal("a file node added before addFiles was taken")
		}
	}()
	fresh.node(devcontext.Node{URI: devcontext.FileURI("p/a.go"), Kind: devcontext.KindFile})
}

// TestPlainTestedNameIsNamesTested: a test's tested name that is its own
// base name (testedPlain) names every declaration of that base name, so
// linkParsed asks only where the test sits — the same verdict as
// namesTested for every such (test, declaration) pair, in a module whose
// tests name plain names (Run), qualified ones (T_Run) and sit in the
// same directory, another one and a conventional test file.
func TestPlainTestedNameIsNamesTested(t *testing.T) {
	s, b := committedBase(t, map[string]string{
		"go.mod":          "module example.com/m\n\ngo 1.22\n",
		"p/a.go":          "package p\n\ntype T struct{}\n\nfunc (T) Run() {}\n\nfunc Run() {}\n\nfunc Stop() {}\n",
		"p/a_test.go":     "package p\n\nimport \"testing\"\n\nfunc TestRun(t *testing.T) {}\n\nfunc TestT_Run(t *testing.T) {}\n\nfunc TestStop_twice(t *testing.T) {}\n",
		"p/b.go":          "package p\n\nfunc Other() {}\n",
		"q/q.go":          "package q\n\nfunc Run() {}\n\nfunc Stop() {}\n",
		"q/q_test.go":     "package q\n\nimport \"testing\"\n\nfunc TestRun(t *testing.T) {}\n",
		"r/r_test.go":     "package r\n\nimport \"testing\"\n\nfunc TestStop(t *testing.T) {}\n",
		"docs/read.md":    "# R\n",
		"p/sub/s.go":      "package sub\n\nfunc Run() {}\n",
		"p/sub/x_test.go": "package sub\n\nimport \"testing\"\n\nfunc TestT_Run(t *testing.T) {}\n",
	})
	w := newWorldBuilder(context.Background(), s, b, 3, 0.1)
	var tests []*cxDecl
	for _, f := range b.files {
		if pf := w.parse(f.path, false); pf != nil {
			for _, x := range pf.decls {
				if x.test {
					tests = append(tests, x)
				}
			}
		}
	}
	plainPairs, notPlain, held := 0, 0, 0
	for _, x := range tests {
		for k, n := range x.tested {
			plain := x.testedPlain>>k&1 != 0
			if plain != (cxBaseName(n) == n) {
				t.Fatalf("%s: tested name %q marked plain %v", x.uri, n, plain)
			}
			if !plain {
				notPlain++
				continue
			}
			for _, y := range w.named(x.testedIDs[k]) {
				if y.test {
					continue
				}
				plainPairs++
				got, want := w.testSitsFor(x, y), w.namesTested(x, y)
				if got != want {
					t.Fatalf("%s tests %s: testSitsFor %v, namesTested %v", x.uri, y.uri, got, want)
				}
				if got {
					held++
				}
			}
		}
	}
	if plainPairs < 4 || notPlain == 0 || held == 0 || held == plainPairs {
		t.Fatalf("%d plain pairs (%d held), %d names not plain: the fixture checks nothing", plainPairs, held, notPlain)
	}
}
