package contextmap

import (
	"bytes"
	"encoding/binary"
	"path"
	"reflect"
	"runtime"
	"slices"
	"strconv"
	"testing"

	"github.com/clew-lsp/clew-lsp/internal/anchors/symbols"
	"github.com/clew-lsp/clew-lsp/internal/devcontext"
)

const packTestSrc = `// Package p is p.
package p

import "testing"

// Server serves.
type Server struct{ n int }

func init() { _ = 1 }

func init() { _ = 2 }

var _ = 3

// Serve serves.
//
// Twice.
func (s *Server) Serve() error { return s.listen(s.n) }

func (s *Server) listen(n int) error { helper(n); return nil }

func helper(n int) { _ = n + 1; _ = "str ing" }

func TestServer_Serve(t *testing.T) { var s Server; s.Serve(); helper(2) }

func TestHelperMiss(t *testing.T) { helper(3) }

func BenchmarkHelper(b *testing.B) {}
`

func packTestFile() (cxFile, []byte, symbols.Table) {
	src := []byte(packTestSrc)
	f := cxFile{path: "p/p_test.go", dir: "p", lang: symbols.Go, code: true, test: true, blob: gitBlobID(src)}
	return f, src, symbols.Parse(symbols.Go, src, symbols.Options{KeepBodyTokens: true})
}

// TestContentPackIsTheTable: a content decoded from its pack holds, per
// declaration, what the table and the source say (the fields the search
// reads, the body tokens) and what the rules derive from them (URI with
// an init's suffix, doc-comment start, node range, text and outline, test
// and tested names), computed here without the pack.
func TestContentPackIsTheTable(t *testing.T) {
	f, src, tab := packTestFile()
	c := newContent(f, "example.com/p", src, tab)
	if c.text != string(src) || c.pkg != "p" || len(c.decls) != len(tab.Decls) || len(tab.Decls) < 9 {
		t.Fatalf("content: pkg %q, %d declarations of %d, text equal %v", c.pkg, len(c.decls), len(tab.Decls), c.text == string(src))
	}
	lines := lineStarts(src)
	tests := 0
	for i := range tab.Decls {
		d := &tab.Decls[i]
		x := &c.decls[i]
		want := cxSym{Kind: d.Kind, Name: d.Name, QualifiedName: d.QualifiedName, Container: d.Container, Signature: d.Signature,
			StartLine: d.StartLine, EndLine: d.EndLine, StartByte: d.StartByte, EndByte: d.EndByte}
		got := *x.d
		if !reflect.DeepEqual(got.Body.Strings(), d.Body.Strings()) {
			t.Errorf("%s: body %q, want %q", d.QualifiedName, got.Body.Strings(), d.Body.Strings())
		}
		got.Body = cxTokens{}
		if !reflect.DeepEqual(got, want) {
			t.Errorf("declaration %d: %+v, want %+v", i, got, want)
		}
		test := isTestDecl(f.lang, d)
		kind := devcontext.KindSymbol
		var tested []string
		if test {
			tests++
			kind = devcontext.KindTest
			tested = testedNames(f.lang, d)
		}
		uri := symbolURI(kind, "example.com/p", d.QualifiedName)
		if d.QualifiedName == "init" || d.QualifiedName == "_" {
			uri += "#" + path.Base(f.path) + ":" + strconv.Itoa(d.StartLine)
		}
		start := docCommentStart(src, lines, d.StartByte, d.StartLine)
		sl, sc := linePos(lines, start)
		el, ec := linePos(lines, max(d.EndByte-1, start))
		wantNode := devcontext.Node{URI: uri, Kind: kind, Title: d.QualifiedName, Name: d.QualifiedName, Path: f.path,
			Range: &devcontext.Range{StartLine: sl, StartCol: sc, EndLine: el, EndCol: ec},
			Text:  string(src[start:d.EndByte]), Outline: OutlineOf(d, src), Facts: map[string]string{"declaration": d.Kind}}
		if !reflect.DeepEqual(x.node, wantNode) {
			t.Errorf("%s: node %+v, want %+v", d.QualifiedName, x.node, wantNode)
		}
		if x.uri != uri || x.start != start || x.test != test || !reflect.DeepEqual(x.tested, tested) ||
			x.base != cxBaseName(d.Name) || x.kc != classOf(d.Kind) || d.Container != "" && x.cbase != cxBaseName(d.Container) {
			t.Errorf("%s: uri %q start %d test %v tested %q base %q cbase %q", d.QualifiedName, x.uri, x.start, x.test, x.tested, x.base, x.cbase)
		}
	}
	if tests != 3 {
		t.Errorf("%d tests, want 3", tests)
	}
}

// TestDamagedContentPackIsRefused: a pack cut short, extended, made for
// another file or version, or with any byte changed decodes to an error
// or to a content whose spans lie inside its source, never a panic.
func TestDamagedContentPackIsRefused(t *testing.T) {
	f, src, tab := packTestFile()
	data := encodeContent(f, "example.com/p", src, tab)
	if _, err := decodeContent(data, f); err != nil {
		t.Fatal(err)
	}
	for n := range len(data) {
		if _, err := decodeContent(data[:n], f); err == nil {
			t.Fatalf("a pack cut to %d of %d bytes decodes", n, len(data))
		}
	}
	if _, err := decodeContent(append(data[:len(data):len(data)], 0), f); err == nil {
		t.Error("a pack with a trailing byte decodes")
	}
	other := f
	other.path = "p/q_test.go"
	if _, err := decodeContent(data, other); err == nil {
		t.Error("a pack decodes for another path")
	}
	other = f
	other.blob = gitBlobID(append(src[:len(src):len(src)], ' '))
	if _, err := decodeContent(data, other); err == nil {
		t.Error("a pack decodes for another blob")
	}
	for i := range data {
		for _, b := range []byte{data[i] ^ 1, data[i] ^ 0x80, 0xff} {
			d := append([]byte(nil), data...)
			d[i] = b
			checkDecoded(t, d, f)
		}
	}
}

// TestPackCountsBoundTheAllocation: a pack claiming more declarations
// than its bytes could hold records for is refused before the
// declarations are allocated (a damaged count must not cost hundreds of
// times the entry's size).
func TestPackCountsBoundTheAllocation(t *testing.T) {
	f, src, _ := packTestFile()
	data := encodeContent(f, "example.com/p", src, symbols.Table{Language: symbols.Go})
	if !bytes.HasSuffix(data, []byte{0, 0, 0}) { // no declarations, tokens nor tested names
		t.Fatal("the pack of an empty table does not end in three zero counts")
	}
	const n = 1 << 16
	bad := binary.AppendUvarint(slices.Clone(data[:len(data)-3]), n)
	bad = append(bad, 0, 0)
	bad = append(bad, make([]byte, n)...) // as many bytes as declarations: a count that passes, records that cannot
	var before, after runtime.MemStats
	runtime.ReadMemStats(&before)
	if _, err := decodeContent(bad, f); err == nil {
		t.Fatal("the pack decodes")
	}
	runtime.ReadMemStats(&after)
	if got := after.TotalAlloc - before.TotalAlloc; got > 4*uint64(len(bad)) {
		t.Errorf("refusing a %d-byte pack allocated %d bytes", len(bad), got)
	}
}

func checkDecoded(t *testing.T, data []byte, f cxFile) {
	t.Helper()
	c, err := decodeContent(data, f)
	if err != nil {
		return
	}
	for i := range c.decls {
		x := &c.decls[i]
		if x.start > x.d.StartByte || x.d.EndByte > len(c.text) || x.node.Text != c.text[x.start:x.d.EndByte] {
			t.Fatalf("declaration %d spans %d–%d of %d bytes", i, x.start, x.d.EndByte, len(c.text))
		}
		for k := range x.d.Body.Len() {
			x.d.Body.At(k)
		}
	}
}

// TestContentPackKeyNamesItsInputs: a pack's key changes with each thing
// the content depends on.
func TestContentPackKeyNamesItsInputs(t *testing.T) {
	k := cxContentKey{path: "p/a.go", blob: "b1", importPath: "example.com/p", lang: symbols.Go}
	seen := map[[32]byte]string{contentPackKey(k, false): "base"}
	for name, v := range map[string]func(*cxContentKey){
		"path":   func(k *cxContentKey) { k.path = "p/b.go" },
		"blob":   func(k *cxContentKey) { k.blob = "b2" },
		"import": func(k *cxContentKey) { k.importPath = "example.com/q" },
		"lang":   func(k *cxContentKey) { k.lang = symbols.Python },
		"split":  func(k *cxContentKey) { k.importPath, k.path = "example.com/pp", "/a.go" },
	} {
		c := k
		v(&c)
		key := contentPackKey(c, false)
		if was, ok := seen[key]; ok {
			t.Errorf("%s: the key of %s", name, was)
		}
		seen[key] = name
	}
	if _, ok := seen[contentPackKey(k, true)]; ok {
		t.Error("test flag: the same key")
	}
}

func FuzzDecodeContent(f *testing.F) {
	file, src, tab := packTestFile()
	f.Add(encodeContent(file, "example.com/p", src, tab))
	f.Add([]byte{})
	f.Fuzz(func(t *testing.T, data []byte) { checkDecoded(t, data, file) })
}

// TestUsesByIDIsTheScan: uses and bodyHas, comparing token ids, answer as
// the scans of the tokens' strings, for names a file has and has not (no
// "p" among r's strings: p's id is where "p" would sort); and a pack whose
// strings do not ascend is refused (a binary search could not find ids).
func TestUsesByIDIsTheScan(t *testing.T) {
	files := map[string]string{
		"p/p.go": "package p\n\nfunc Serve() { helper() }\n\nfunc helper() {}\n\ntype Server struct{}\n\nfunc (s *Server) Close() { Serve(); s.Close() }\n",
		"q/q.go": "package q\n\nimport \"p\"\n\nfunc Use() { p.Serve(); var s p.Server; s.Close(); Serve() }\n\nfunc Other() { x.Serve(); Close(); p.helper() }\n\nfunc Serve() { . }\n",
		"r/r.go": "package r\n\nfunc R() { r.Serve() }\n",
	}
	var decls []*cxDecl
	swaps := 0
	for _, p := range []string{"p/p.go", "q/q.go", "r/r.go"} {
		src := []byte(files[p])
		f := cxFile{path: p, dir: path.Dir(p), lang: symbols.Go, code: true}
		tab := symbols.Parse(symbols.Go, src, symbols.Options{KeepBodyTokens: true})
		c := newContent(f, "example.com/"+f.dir, src, tab)
		pf := &cxParsed{path: p, dir: f.dir, lang: f.lang, c: c, pkg: c.pkg}
		for i := range c.decls {
			decls = append(decls, &cxDecl{cxContentDecl: &c.decls[i], f: pf, uri: c.decls[i].uri})
		}
		// The same pack with two strings swapped is refused.
		f.blob = gitBlobID(src)
		data := encodeContent(f, "example.com/"+f.dir, src, tab)
		for k := 1; k < len(c.strs); k++ {
			a, b := c.strs[k-1], c.strs[k]
			i := bytes.Index(data, []byte(string(rune(len(a)))+a+string(rune(len(b)))+b))
			if len(a) == len(b) && len(a) > 0 && len(a) < 0x80 && i >= 0 {
				i++ // past a's length
				swapped := bytes.Clone(data)
				copy(swapped[i:], b)
				copy(swapped[i+len(a)+1:], a)
				swaps++
				if _, err := decodeContent(swapped, f); err == nil {
					t.Errorf("%s: a pack whose strings %q, %q are out of order is trusted", p, b, a)
				}
				break
			}
		}
	}
	if len(decls) < 7 || swaps == 0 {
		t.Fatalf("%d declarations, %d packs with strings swapped", len(decls), swaps)
	}
	hits := 0
	for _, y := range decls {
		for _, x := range decls {
			want := usesByString(y, x)
			if got := uses(y, x); got != want {
				t.Errorf("uses(%s, %s) = %v, want %v", y.uri, x.uri, got, want)
			}
			if want {
				hits++
			}
			for _, n := range []string{x.base, ".", "nothere", "p"} {
				if got, want := bodyHas(y, n), bodyHasByString(y, n); got != want {
					t.Errorf("bodyHas(%s, %q) = %v, want %v", y.uri, n, got, want)
				}
			}
		}
	}
	if hits < 5 {
		t.Errorf("only %d uses", hits)
	}
}

// usesByString and bodyHasByString are uses and bodyHas by the tokens'
// strings: the reference of the ids.
func usesByString(y, x *cxDecl) bool {
	if y.f.dir == x.f.dir || x.f.lang != symbols.Go && x.d.Container == "" {
		return bodyHasByString(y, x.base)
	}
	body := y.d.Body
	for i := range body.Len() {
		if body.At(i) != x.base || i == 0 || body.At(i-1) != "." {
			continue
		}
		if x.d.Container != "" || (i >= 2 && body.At(i-2) == x.f.pkg) {
			return true
		}
	}
	return false
}

func bodyHasByString(x *cxDecl, name string) bool {
	for i := range x.d.Body.Len() {
		if x.d.Body.At(i) == name {
			return true
		}
	}
	return false
}

// TestDecodedContentKeepsNothingOfItsInput: a content decoded from a
// buffer that is overwritten after (the store reads every pack into one
// reused buffer) is the content decoded from an untouched copy.
func TestDecodedContentKeepsNothingOfItsInput(t *testing.T) {
	f, src, tab := packTestFile()
	data := encodeContent(f, "example.com/p", src, tab)
	want, err := decodeContent(bytes.Clone(data), f)
	if err != nil {
		t.Fatal(err)
	}
	got, err := decodeContent(data, f)
	if err != nil {
		t.Fatal(err)
	}
	for i := range data {
		data[i] = 0xff
	}
	if got.text != want.text || got.pkg != want.pkg || !reflect.DeepEqual(got.strs, want.strs) || len(got.decls) != len(want.decls) {
		t.Fatal("the content changed with its input")
	}
	for i := range got.decls {
		g, w := got.decls[i], want.decls[i]
		if !reflect.DeepEqual(*g.d, *w.d) || !reflect.DeepEqual(g.node, w.node) || g.uri != w.uri || !reflect.DeepEqual(g.tested, w.tested) {
			t.Fatalf("declaration %d changed with its input", i)
		}
	}
}
