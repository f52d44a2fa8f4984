package contextmap

import (
	"context"
	"reflect"
	"slices"
	"strings"
	"testing"

	"github.com/clew-lsp/clew-lsp/internal/anchors/symbols"
	"github.com/clew-lsp/clew-lsp/internal/devcontext"
	"github.com/clew-lsp/clew-lsp/internal/workspace"
	"github.com/clew-lsp/clew-lsp/internal/workspace/disk"
	"github.com/clew-lsp/clew-lsp/internal/workspace/wstest"
)

// TestKeptDeclarationsBuildTheSameWorld: a world that takes its files'
// declarations from the Load (earlier requests built them, one with a
// duplicate URI taken first by another file) is, node for node and edge
// for edge, the world a fresh Load builds for the same request. The
// worlds share the kept nodes by pointer: after every request has built
// its world (and compiled over it), each earlier world still equals a
// fresh one and every kept node still carries its own URI — a world's
// suffixed URI, or any write, leaking into a shared node fails it.
func TestKeptDeclarationsBuildTheSameWorld(t *testing.T) {
	r := wstest.New(t)
	r.Write(map[string]string{
		"go.mod":         "module example.com/m\n\ngo 1.22\n",
		"p/a.go":         "package p\n\n// Run runs.\nfunc Run() int { return helper() + Other() }\n\n// Other is other.\nfunc Other() int { return 2 }\n",
		"p/h_linux.go":   "//go:build linux\n\npackage p\n\nfunc helper() int { return Other() }\n",
		"p/h_windows.go": "//go:build windows\n\npackage p\n\nfunc helper() int { return 3 }\n",
		"p/a_test.go":    "package p\n\nimport \"testing\"\n\nfunc TestRun(t *testing.T) { Run() }\n",
		"q/q.go":         "package q\n\nimport \"example.com/m/p\"\n\nfunc Use() int { return p.Run() }\n",
		"docs/README.md": "# M\n\nRun and Use.\n",
	})
	r.Commit("m")
	reqs := []devcontext.Request{devcontext.Request{Position: &devcontext.Position{Path: "p/h_windows.go", Line: 5}}, devcontext.Request{Position: &devcontext.Position{Path: "p/a.go", Line: 4}}, devcontext.Request{Position: &devcontext.Position{Path: "q/q.go", Line: 5}}, devcontext.Request{Position: &devcontext.Position{Path: "p/h_linux.go", Line: 5}}}
	warm := loadDir(t, r.Dir)
	same := func(i int, got *cxWorld) {
		t.Helper()
		want, err := contextWorld(context.Background(), loadDir(t, r.Dir), reqs[i], nil)
		if err != nil {
			t.Fatal(err)
		}
		if !reflect.DeepEqual(got.world.Shared, want.world.Shared) || !reflect.DeepEqual(got.world.Edges, want.world.Edges) {
			t.Fatalf("request %d: the world from kept declarations differs from a fresh one", i)
		}
		a, err := got.prep.Compile(reqs[i])
		if err != nil {
			t.Fatal(err)
		}
		b, err := want.prep.Compile(reqs[i])
		if err != nil {
			t.Fatal(err)
		}
		if !reflect.DeepEqual(a, b) {
			t.Fatalf("request %d: the answer over kept declarations differs", i)
		}
	}
	var worlds []*cxWorld
	suffixed := 0
	for i, req := range reqs {
		got, err := contextWorld(context.Background(), warm, req, nil)
		if err != nil {
			t.Fatal(err)
		}
		same(i, got)
		if i > 0 && len(got.world.Shared) == 0 {
			t.Fatal("empty world")
		}
		for _, n := range got.world.Shared {
			if strings.Contains(n.URI, "#p/") {
				suffixed++
			}
		}
		worlds = append(worlds, got)
	}
	if suffixed == 0 {
		t.Fatal("no world suffixed a duplicate URI: the test checks no leak")
	}
	for i, got := range worlds {
		same(i, got)
	}
	cs := loadContents(warm)
	if cs.lru.Len() == 0 {
		t.Fatal("the Load kept no declarations: the test compares nothing")
	}
	for e := cs.lru.Front(); e != nil; e = e.Next() {
		for _, d := range e.Value.(*cxContentEntry).c.decls {
			if d.node.URI != d.uri {
				t.Fatalf("a kept node carries %s, its declaration is %s", d.node.URI, d.uri)
			}
		}
	}
}

func loadDir(t *testing.T, dir string) *workspace.Snapshot {
	t.Helper()
	s, err := disk.Load(dir)
	if err != nil {
		t.Fatal(err)
	}
	return s
}

// TestHoldersNeverMissAHolder: the body-word prefilter names every
// declaration whose body holds a word (the search then checks only those),
// in ascending order, each once; a word no body holds names none or only
// hash neighbours.
func TestHoldersNeverMissAHolder(t *testing.T) {
	src := []byte(`package p

type Server struct{ n int }

func (s *Server) Serve() error { return s.listen(s.n) }

func (s *Server) listen(n int) error { helper(n); return nil }

func helper(n int) { _ = n + 1 }

func Other() { var s Server; s.Serve(); helper(2) }
`)
	f := cxFile{path: "p/p.go", dir: "p", lang: symbols.Go, code: true}
	c := newContent(f, "example.com/p", src, symbols.Parse(symbols.Go, src, symbols.Options{KeepBodyTokens: true}))
	if len(c.decls) < 4 {
		t.Fatalf("%d declarations", len(c.decls))
	}
	words := map[string]bool{"nothere": true, "Serve2": true}
	for i := range c.decls {
		b := c.decls[i].d.Body
		for k := range b.Len() {
			words[b.At(k)] = true
		}
	}
	if len(words) < 10 {
		t.Fatalf("only %d body words", len(words))
	}
	for w := range words {
		var idx []int
		for _, k := range c.holders(w) {
			idx = append(idx, int(uint32(k)))
		}
		for k := 1; k < len(idx); k++ {
			if idx[k] <= idx[k-1] {
				t.Fatalf("holders(%q) = %v: not ascending, once each", w, idx)
			}
		}
		for i := range c.decls {
			if bodyHolds(c.decls[i].d.Body, w) && !slices.Contains(idx, i) {
				t.Errorf("holders(%q) = %v leaves out declaration %d (%s)", w, idx, i, c.decls[i].d.QualifiedName)
			}
		}
	}
	var names []string
	for _, k := range c.holders("helper") {
		names = append(names, c.decls[uint32(k)].d.QualifiedName)
	}
	if !slices.Equal(names, []string{"Server.listen", "Other"}) { // helper's own body does not say it
		t.Errorf("holders(helper) = %v, want Server.listen and Other", names)
	}
}

func bodyHolds(b cxTokens, w string) bool {
	for k := range b.Len() {
		if b.At(k) == w {
			return true
		}
	}
	return false
}

// TestSortWordKeysIsTheSort: keys built as indexWords builds them (low
// halves ascending in slice order, high halves any hash) come out of
// sortWordKeys as slices.Sort orders them, at sizes on both sides of the
// small-slice cut-over and with hashes that differ only in each byte.
func TestSortWordKeysIsTheSort(t *testing.T) {
	rng := uint64(0x9e3779b97f4a7c15)
	next := func() uint64 {
		rng ^= rng << 13
		rng ^= rng >> 7
		rng ^= rng << 17
		return rng
	}
	for _, n := range []int{0, 1, 2, 127, 128, 129, 1000, 20000} {
		keys := make([]uint64, 0, n)
		decl := uint64(0)
		for len(keys) < n {
			if next()%8 == 0 {
				decl++
			}
			h := next() >> 32
			if next()%4 == 0 { // near neighbours: one byte apart
				h = 0xabcdef00 | h&0xff<<(8*(next()%4))
			}
			keys = append(keys, h<<32|decl)
		}
		want := slices.Clone(keys)
		slices.Sort(want)
		sortWordKeys(keys)
		if !slices.Equal(keys, want) {
			t.Fatalf("n=%d: sortWordKeys differs from slices.Sort", n)
		}
	}
}

// TestHoldersOfANonWord: a token that is not a word is not indexed, so
// holders names every declaration for it (never none).
func TestHoldersOfANonWord(t *testing.T) {
	src := []byte("package p\n\nfunc A() { x := (1 + 2); _ = x }\n\nfunc B() {}\n")
	f := cxFile{path: "p/p.go", dir: "p", lang: symbols.Go, code: true}
	c := newContent(f, "example.com/p", src, symbols.Parse(symbols.Go, src, symbols.Options{KeepBodyTokens: true}))
	for _, w := range []string{"(", "+", ""} {
		if got := len(c.holders(w)); got != len(c.decls) {
			t.Errorf("holders(%q) names %d of %d declarations", w, got, len(c.decls))
		}
	}
	if got := c.holders("x"); len(got) != 1 || uint32(got[0]) != 0 {
		t.Errorf("holders(x) = %v, want declaration 0 only", got)
	}
}

// TestNamedIsByBaseName: a world's declarations by name id are, for every
// base name its declarations, containers and tested names use, the
// world's declarations of that base name in parse order — what the map
// by base name held — also for contents another world named first.
func TestNamedIsByBaseName(t *testing.T) {
	s, b := committedBase(t, map[string]string{
		"go.mod":       "module example.com/m\n\ngo 1.22\n",
		"p/a.go":       "package p\n\ntype T struct{}\n\nfunc (T) Run() {}\n\nfunc Run() {}\n",
		"p/b.go":       "package p\n\nfunc (t *T) Stop() {}\n\nfunc Other() {}\n",
		"q/q.go":       "package q\n\ntype T int\n\nfunc (T) Run() {}\n",
		"p/a_test.go":  "package p\n\nimport \"testing\"\n\nfunc TestRun(t *testing.T) {}\n\nfunc TestT_Stop(t *testing.T) {}\n",
		"q/q_test.go":  "package q\n\nimport \"testing\"\n\nfunc TestRun(t *testing.T) {}\n",
		"r/r.go":       "package r\n\nfunc Run() {}\n",
		"docs/read.md": "# R\n",
	})
	paths := []string{"r/r.go", "p/a.go", "q/q.go", "p/b.go", "p/a_test.go", "q/q_test.go"}
	for round := 0; round < 2; round++ { // the second world takes the named contents
		w := newWorldBuilder(context.Background(), s, b, 3, 0.1)
		var all []*cxDecl
		for _, p := range paths {
			if pf := w.parse(p, false); pf != nil {
				all = append(all, pf.decls...)
			}
		}
		if len(all) < 10 {
			t.Fatalf("%d declarations", len(all))
		}
		byName := func(n string) []*cxDecl {
			var out []*cxDecl
			for _, x := range all {
				if x.base == n {
					out = append(out, x)
				}
			}
			return out
		}
		check := func(id int32, n string) {
			t.Helper()
			if got, want := w.named(id), byName(n); !slices.Equal(got, want) {
				t.Fatalf("round %d: named(%d) has %d declarations, base name %q %d", round, id, len(got), n, len(want))
			}
		}
		for _, x := range all {
			check(x.baseID, x.base)
			if x.d.Container != "" {
				check(x.cbaseID, x.cbase)
			}
			for k, n := range x.tested {
				check(x.testedIDs[k], cxBaseName(n))
			}
		}
		if len(byName("Run")) < 3 || len(w.named(all[0].baseID)) < 2 {
			t.Fatal("the fixture shares no base name across files: the test checks nothing")
		}
	}
}
