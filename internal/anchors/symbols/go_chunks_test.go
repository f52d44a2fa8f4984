package symbols

import (
	"bytes"
	gotoken "go/token"
	"os"
	"path/filepath"
	"reflect"
	"runtime"
	"strings"
	"testing"
)

func TestGoChunks(t *testing.T) {
	for _, c := range []struct {
		src  string
		want string // the keywords of the chunks, or "!" when not ok
	}{
		{"package p\n\nfunc A() {}\n\nfunc (r *T) B() {\n\tx := `a\n}`\n}\n", "package func func"},
		{"package p\nimport (\n\t\"fmt\"\n)\ntype (\n\tA int\n\tB struct{ x int }\n)\nvar x = func() int {\n\treturn 1\n}()\n", "package import type var"},
		{"package p; func A() {}; func B() {}", "package func func"},
		{"package p\n// func C() {}\n/* a\nb */ const c = 'x'\nvar s = \"}\"\n", "package const var"},
		{"package p\nvar x = 1 +\n\t2\nvar y = []int{\n\t1,\n}\n", "package var var"},
		{"package p\nconst c = 1.5e+3\nvar i = x++\n", "package const var"},
		{"package p\nfunc A() {\n", "!"},        // unbalanced
		{"package p\nfunc A() )\n", "!"},        // mismatched
		{"package p\nvar s = \"abc\n\"\n", "!"}, // line break in a string
		{"package p\n/* open", "!"},             // unterminated comment
		{"package p\nvar s = `open", "!"},       // unterminated raw string
		{"package p\nx := 1\n", "!"},            // a statement at the top level
		{"package p\nfunc A()\n{\n}\n", "!"},    // brace on its own line: not one declaration
		{"package p\nvar é = 1\n", "!"},         // non-ASCII code
		{"\xef\xbb\xbfpackage p\n", "!"},        // byte order mark
		{"package p\n// é in a comment\nvar s = \"é\"\n", "package var"},
	} {
		chunks, ok := goChunks([]byte(c.src))
		got := "!"
		if ok {
			var kw []string
			for _, ch := range chunks {
				kw = append(kw, ch.keyword)
			}
			got = strings.Join(kw, " ")
		}
		if got != c.want {
			t.Errorf("goChunks(%q) = %s, want %s", c.src, got, c.want)
		}
	}
}

// goFilesForChunkTest: the Go testdata, and GOROOT's large packages (every
// Go file of GOROOT/src with CLEW_TEST_GOROOT_ALL=1).
func goFilesForChunkTest(t *testing.T) []string {
	files := []string{"testdata/shop.go", "testdata/messy.go.txt"}
	src := filepath.Join(runtime.GOROOT(), "src")
	if os.Getenv("CLEW_TEST_GOROOT_ALL") != "" {
		filepath.WalkDir(src, func(p string, e os.DirEntry, err error) error {
			if err == nil && !e.IsDir() && strings.HasSuffix(p, ".go") {
				files = append(files, p)
			}
			return nil
		})
		return files
	}
	for _, dir := range []string{"net/http", "go/types", "encoding/json", "go/parser/testdata"} {
		more, _ := filepath.Glob(filepath.Join(src, dir, "*.go"))
		files = append(files, more...)
	}
	return files
}

// ParseGoDecls's table of the declarations it keeps is the whole file's
// table of those declarations, field for field: for every file, keep every
// other top-level declaration (then the rest), and compare with Parse's
// declarations that start in a kept one.
func TestParseGoDeclsMatchesParse(t *testing.T) {
	opt := Options{KeepBodyTokens: true}
	compared, fallbacks, files := 0, 0, 0
	for _, f := range goFilesForChunkTest(t) {
		src, err := os.ReadFile(f)
		if err != nil || len(src) > 1000000 {
			continue
		}
		files++
		full := Parse(Go, src, opt)
		chunks, ok := goChunks(src)
		if !ok || full.GaveUp {
			// Not lexed (parsed whole), or a whole parse that hit
			// tree-sitter's time limit on a loaded machine: no table
			// to compare with.
			fallbacks++
			continue
		}
		for parity := 0; parity < 2; parity++ {
			kept := map[int]bool{} // chunk start → kept
			var blanked [][]byte
			n := 0
			for _, c := range chunks {
				if c.keyword == "package" || c.keyword == "import" {
					continue
				}
				if n%2 == parity {
					kept[c.start] = true
				} else {
					blanked = append(blanked, src[c.start:c.end])
				}
				n++
			}
			// The promise is for a name whose every mention is kept (a
			// caller keeps each declaration that mentions it): two
			// `func init()` are suffixed only when both are parsed.
			whole := func(d Decl) bool {
				name := d.Name
				if i := strings.IndexAny(name, "(<["); i > 0 {
					name = name[:i]
				}
				for _, b := range blanked {
					if strings.Contains(string(b), name) {
						return false
					}
				}
				return true
			}
			var want []Decl
			for _, d := range full.Decls {
				if kept[chunkOf(chunks, d.StartByte)] && whole(d) {
					want = append(want, d)
				}
			}
			part, ok := ParseGoDecls(src, func(start, _ int) bool { return kept[start] }, opt)
			if !ok {
				// A syntax error, or tree-sitter's time limit on a loaded
				// machine: the caller parses the whole file.
				fallbacks++
				continue
			}
			var got []Decl
			for _, d := range part.Decls {
				if whole(d) {
					got = append(got, d)
				}
			}
			if !reflect.DeepEqual(got, want) {
				for i := range min(len(got), len(want)) {
					if !reflect.DeepEqual(got[i], want[i]) {
						t.Logf("first difference:\n got %+v\nwant %+v", got[i], want[i])
						break
					}
				}
				t.Errorf("%s (parity %d, %d syntax errors in the file): kept declarations differ\n got %d: %s\nwant %d: %s",
					f, parity, full.SyntaxErrors, len(got), declNames(got), len(want), declNames(want))
				continue
			}
			compared += len(want)
		}
	}
	t.Logf("%d files, %d declarations compared, %d fallbacks to a whole parse", files, compared, fallbacks)
	if compared < 2000 || fallbacks*10 > files {
		t.Fatalf("only %d declarations compared (%d fallbacks in %d files)", compared, fallbacks, files)
	}
}

// chunkOf is the start of the chunk holding offset, or -1.
func chunkOf(chunks []goChunk, offset int) int {
	for _, c := range chunks {
		if offset >= c.start && offset < c.end {
			return c.start
		}
	}
	return -1
}

func declNames(ds []Decl) string {
	var s []string
	for _, d := range ds {
		s = append(s, d.Kind+" "+d.QualifiedName)
	}
	if len(s) > 12 {
		s = append(s[:12], "…")
	}
	return strings.Join(s, ", ")
}

// Whatever the bytes, goChunks does not panic, its chunks are in order
// inside the input, and keeping every declaration gives Parse's table.
func FuzzGoChunks(f *testing.F) {
	for _, s := range []string{"package p\nfunc A() {}\n", "package p; type T struct{ x int }; func (T) M() {}",
		"package p\nvar x = `\n`\nconst (\n\ta = iota\n)\n", "package p\nfunc A() {\n"} {
		f.Add([]byte(s))
	}
	f.Fuzz(func(t *testing.T, src []byte) {
		chunks, ok := goChunks(src)
		if !ok {
			return
		}
		prev := 0
		for _, c := range chunks {
			if c.start < prev || c.end < c.start || c.end > len(src) {
				t.Fatalf("chunk %+v out of order or bounds (prev end %d, len %d)", c, prev, len(src))
			}
			prev = c.end
		}
		full := Parse(Go, src, Options{})
		got, ok := ParseGoDecls(src, func(int, int) bool { return true }, Options{})
		if ok && full.SyntaxErrors == 0 && !reflect.DeepEqual(got.Decls, full.Decls) {
			t.Fatalf("keeping every declaration changed the table:\n got %s\nwant %s", declNames(got.Decls), declNames(full.Decls))
		}
	})
}

// A syntax error inside one function body (brackets still balanced) stays
// in that declaration: the other declarations of the whole file's table
// are the ones ParseGoDecls gives when that function is blanked. This is
// the case the partial parse cannot see (it never parses what it blanks).
func TestParseGoDeclsBesideABrokenBody(t *testing.T) {
	checked, gaveUp := 0, 0
	var files []string
	for _, dir := range []string{"go/types", "encoding/json"} {
		more, _ := filepath.Glob(filepath.Join(runtime.GOROOT(), "src", dir, "*.go"))
		files = append(files, more...)
	}
	for _, f := range files {
		src, err := os.ReadFile(f)
		if err != nil || len(src) > 100000 {
			continue
		}
		chunks, ok := goChunks(src)
		if !ok {
			continue
		}
		for k, c := range chunks {
			if c.keyword != "func" || k%7 != 0 {
				continue
			}
			body := strings.Index(string(src[c.start:c.end]), "{\n")
			if body < 0 {
				continue
			}
			at := c.start + body + 2
			broken := append(append(append([]byte(nil), src[:at]...), "\tvar = 1\n"...), src[at:]...)
			full := Parse(Go, broken, Options{})
			if full.GaveUp {
				continue
			}
			if full.SyntaxErrors == 0 {
				t.Fatalf("%s: the planted error did not count", f)
			}
			bchunks, ok := goChunks(broken)
			if !ok {
				continue
			}
			brokenAt := chunkOf(bchunks, at)
			part, ok := ParseGoDecls(broken, func(start, _ int) bool { return start != brokenAt }, Options{})
			if !ok {
				gaveUp++ // tree-sitter's time limit on a loaded machine
				continue
			}
			// As above, a name the blanked function mentions (a second
			// `func init()`) is not promised.
			var blankedText string
			for _, c := range bchunks {
				if c.start == brokenAt {
					blankedText = string(broken[c.start:c.end])
				}
			}
			mentioned := func(d Decl) bool {
				name := d.Name
				if i := strings.IndexAny(name, "(<["); i > 0 {
					name = name[:i]
				}
				return strings.Contains(blankedText, name)
			}
			var want, got []Decl
			for _, d := range full.Decls {
				if chunkOf(bchunks, d.StartByte) != brokenAt && !mentioned(d) {
					want = append(want, d)
				}
			}
			for _, d := range part.Decls {
				if !mentioned(d) {
					got = append(got, d)
				}
			}
			if !reflect.DeepEqual(got, want) {
				t.Errorf("%s: a broken body at %d changed its neighbours' declarations", f, at)
			}
			checked++
		}
	}
	if checked < 50 || gaveUp*10 > checked {
		t.Fatalf("only %d broken bodies checked (%d gave up)", checked, gaveUp)
	}
}

// goKeyword knows Go's keywords (go/token's) and nothing else: not their
// prefixes, extensions or capitalised forms.
func TestGoKeyword(t *testing.T) {
	n := 0
	for tok := gotoken.Token(0); tok < 200; tok++ {
		if !tok.IsKeyword() {
			continue
		}
		n++
		kw := tok.String()
		if got := goKeyword([]byte(kw)); got != kw {
			t.Errorf("goKeyword(%q) = %q", kw, got)
		}
		for _, w := range []string{kw[:len(kw)-1], kw + "s", "_" + kw, strings.ToUpper(kw[:1]) + kw[1:]} {
			if got := goKeyword([]byte(w)); got != "" {
				t.Errorf("goKeyword(%q) = %q, want none", w, got)
			}
		}
	}
	if n != 25 {
		t.Fatalf("go/token lists %d keywords, Go has 25", n)
	}
	for _, w := range []string{"", "x", "fmt", "Println", "iota", "nil", "true", "int", "any"} {
		if got := goKeyword([]byte(w)); got != "" {
			t.Errorf("goKeyword(%q) = %q, want none", w, got)
		}
	}
}

// keptText allocates the text at its size, whatever keep drops: each
// dropped chunk is one byte of it, and one stretch of src follows each.
func TestKeptTextIsAllocatedAtItsSize(t *testing.T) {
	checked := 0
	for _, f := range goFilesForChunkTest(t) {
		src, err := os.ReadFile(f)
		if err != nil {
			continue
		}
		chunks, ok := goChunks(src)
		if !ok {
			continue
		}
		for mode := range 3 {
			k := 0
			buf, segs := keptText(chunks, src, func(start, end int) bool {
				k++
				return mode == 1 && k%2 == 0 || mode == 2 && k%5 == 0
			})
			if buf == nil {
				continue
			}
			checked++
			if len(buf) != cap(buf) || len(segs) != cap(segs) {
				t.Fatalf("%s: text %d of %d bytes allocated, stretches %d of %d", f, len(buf), cap(buf), len(segs), cap(segs))
			}
		}
	}
	if checked == 0 {
		t.Fatal("no file checked")
	}
}

// Once a chunk is dropped, the blank stretches between chunks (white
// space and comments: doc comments, a block comment spanning lines, one
// at the end without a line break) are dropped too, and the declarations
// kept are still Parse's, at src's offsets and lines. A stretch holding
// code (`;`) stays.
func TestKeptTextDropsBlankStretches(t *testing.T) {
	src := []byte("// Copyright doc-of-file\n\n//go:build linux\n\npackage p\n\nimport \"fmt\"\n\n" +
		"// doc-of-A says\n// more doc-of-A\nfunc A() int { return 1 } // doc-of-A trailing\n\n" +
		"/* doc-of-B\n   spans lines */\nfunc B() { fmt.Println(A()) }\n\n" +
		"// doc-of-T\ntype T struct {\n\t// a field's own comment stays\n\tX int\n}\n\n" +
		"func (T) M() {}; func C() {}\n\n// doc-of-end")
	full := Parse(Go, src, Options{KeepBodyTokens: true})
	chunks, ok := goChunks(src)
	if !ok {
		t.Fatal("no chunks")
	}
	keepName := map[string]bool{"A": true, "T": true, "C": true}
	keep := func(start, end int) bool {
		for _, d := range full.Decls {
			if d.StartByte >= start && d.StartByte < end && keepName[strings.SplitN(d.QualifiedName, ".", 2)[0]] {
				return true
			}
		}
		return false
	}
	buf, _ := keptText(chunks, src, keep)
	if buf == nil {
		t.Fatal("nothing dropped")
	}
	if bytes.Contains(buf, []byte("doc-of-")) {
		t.Errorf("a blank stretch's comment stayed in the kept text:\n%s", buf)
	}
	for _, stays := range []string{"a field's own comment stays", "func (T) M() {}; func C() {}", "package p", `import "fmt"`} {
		if !bytes.Contains(buf, []byte(stays)) {
			t.Errorf("the kept text lost %q:\n%s", stays, buf)
		}
	}
	part, ok := ParseGoDecls(src, keep, Options{KeepBodyTokens: true})
	if !ok {
		t.Fatalf("the kept text does not parse:\n%s", buf)
	}
	var want []Decl
	for _, d := range full.Decls {
		if keep(d.StartByte, d.StartByte+1) || keepName[strings.SplitN(d.QualifiedName, ".", 2)[0]] {
			want = append(want, d)
		}
	}
	if !reflect.DeepEqual(part.Decls, want) {
		t.Errorf("kept declarations differ from Parse's:\n got %+v\nwant %+v", part.Decls, want)
	}
}
