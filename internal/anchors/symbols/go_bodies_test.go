package symbols

import (
	"bytes"
	"go/parser"
	gotoken "go/token"
	"os"
	"slices"
	"testing"
)

// missingBodies lists the body hashes Parse gives for src that
// GoBodyHashes does not (nil when ok is false: the caller parses), and
// how many syntax errors tree-sitter saw: its error recovery can split a
// token the lexer reads as one (`new("A")`, valid Go it does not know,
// comes out as `"`, `A`, `"`), so the promise is for the files it parses
// cleanly.
func missingBodies(src []byte) (missing []Decl, listed, syntaxErrors int, ok bool) {
	got, ok := GoBodyHashes(src)
	if !ok {
		return nil, 0, 0, false
	}
	have := map[string]bool{}
	for _, h := range got {
		have[h] = true
	}
	t := Parse(Go, src, Options{})
	for _, d := range t.Decls {
		if d.BodyHash != "" && !have[d.BodyHash] {
			missing = append(missing, d)
		}
	}
	return missing, len(got), t.SyntaxErrors, true
}

// Every body hash of every declaration Parse finds in GOROOT's Go files
// (a sample; all of them with CLEW_TEST_GOROOT_ALL=1) is among the hashes
// GoBodyHashes lists, unless it refuses the file.
func TestGoBodyHashesCoverParse(t *testing.T) {
	files, refused, bodies, recovered := 0, 0, 0, 0
	for _, f := range goFilesForChunkTest(t) {
		src, err := os.ReadFile(f)
		if err != nil || len(src) > 1000000 {
			continue
		}
		files++
		missing, n, errs, ok := missingBodies(src)
		if !ok {
			refused++
			continue
		}
		bodies += n
		for _, d := range missing {
			if errs > 0 {
				recovered++
				t.Logf("%s: %s %s (line %d): not listed, in a file tree-sitter parses with %d syntax errors", f, d.Kind, d.QualifiedName, d.StartLine, errs)
				continue
			}
			t.Errorf("%s: %s %s (line %d): body hash %s not listed", f, d.Kind, d.QualifiedName, d.StartLine, d.BodyHash)
		}
	}
	t.Logf("%d files, %d refused, %d groups hashed, %d bodies missed beside a syntax error", files, refused, bodies, recovered)
	if files-refused < 200 || refused*10 > files {
		t.Fatalf("only %d of %d files read", files-refused, files)
	}
}

func TestGoBodyHashes(t *testing.T) {
	for _, c := range []struct {
		name, src string
		ok        bool
	}{
		{"function", "package p\nfunc F(a int) int {\n\tif a > 1 { return a * 2 }\n\treturn a\n}\n", true},
		{"method and struct", "package p\ntype T struct {\n\ta, b int\n\tc struct{ x, y, z string }\n}\nfunc (t *T) M() int { return t.a + t.b + len(t.c.x) }\n", true},
		{"interface", "package p\ntype I interface {\n\tM(a int) (int, error)\n\tN()\n}\n", true},
		{"literals", "package p\nfunc F() []string {\n\treturn []string{\"a\\x41\", `r\r\n`, '\\'', 0X1P-2, 1E3, 0x1e+2,\n\t}\n}\n", true},
		{"generic", "package p\nfunc F[T any, U ~int | ~string](x T) (r U) { var m map[T]U; r = m[x]; return r }\n", true},
		{"bom", "\ufeffpackage p\nfunc F(a int) int { a++; a <<= 2; a &^= 1; return a }\n", true},
		{"unterminated string", "package p\nfunc F() { x := \"abc\n}\n", false},
		{"unbalanced", "package p\nfunc F() { if x { }\n", false},
		{"non-ASCII names", "package p\nfunc Fé(θ float64) float64 { µ := θ * 2; return µ + θ }\n", true},
		{"a rune no identifier holds", "package p\nfunc F() { x☹ := 1; _ = x☹ }\n", false},
		{"a letter tree-sitter does not start with", "package p\nfunc F() { \u037a := 1; _ = \u037a }\n", false},
		{"no-break space", "package p\nfunc F() {\u00a0return }\n", false},
	} {
		t.Run(c.name, func(t *testing.T) {
			missing, n, _, ok := missingBodies([]byte(c.src))
			if ok != c.ok {
				t.Fatalf("ok = %v, want %v", ok, c.ok)
			}
			if !ok {
				return
			}
			if n == 0 {
				t.Error("no group hashed")
			}
			for _, d := range missing {
				t.Errorf("%s %s: body hash %s not listed", d.Kind, d.QualifiedName, d.BodyHash)
			}
		})
	}
}

// On whatever go/parser accepts and tree-sitter parses without a syntax
// error, GoBodyHashes either refuses the file or lists every body hash
// Parse gives (and it never panics on anything).
func FuzzGoBodyHashes(f *testing.F) {
	for _, s := range []string{
		"package p\nfunc A() { x := 1; y := x + 2; _ = y }\n",
		"package p; type T struct{ x, y, z int; w string }; func (T) M() int { return 1 + 2 + 3 }",
		"package p\ntype I interface { M(int) error; N() }\nvar v = struct{ a, b int }{1, 2,}\n",
		"package p\nfunc F() { s := \"\\u00e9\\t\"; r := '\\n'; n := 0X1P+2i; _, _, _ = s, r, n }\n",
		"package p\nfunc F() {\n\tfor i := range 10 {\n\t\tgo func() { ch <- i }()\n\t}\n}\n",
		"package p\nfunc Rect(r, θ float64) complex128 { s, c := math.Sincos(θ); return complex(r*c, r*s) }\n",
	} {
		f.Add([]byte(s))
	}
	f.Fuzz(func(t *testing.T, src []byte) {
		if _, err := parser.ParseFile(gotoken.NewFileSet(), "f.go", src, parser.SkipObjectResolution); err != nil {
			GoBodyHashes(src)
			return
		}
		missing, _, errs, ok := missingBodies(src)
		if !ok || errs > 0 {
			return
		}
		for _, d := range missing {
			t.Errorf("%s %s: body hash %s not listed", d.Kind, d.QualifiedName, d.BodyHash)
		}
	})
}

// Every body Parse hashes lies in one of the spans GoBodySpans gives for
// its hash, offsets counted in src with its BOM.
func TestGoBodySpansHoldEveryBody(t *testing.T) {
	srcs := [][]byte{
		[]byte("\ufeffpackage p\nfunc F(a int) int { a++; a <<= 2; a &^= 1; return a }\n"),
		[]byte("package p\ntype I interface {\n\tM(a int) (int, error)\n\tN()\n}\ntype S struct {\n\ta, b int\n\tc struct{ x, y, z string }\n}\n"),
	}
	for _, f := range goFilesForChunkTest(t) {
		if src, err := os.ReadFile(f); err == nil && len(src) < 1000000 {
			srcs = append(srcs, src)
		}
	}
	bodies := 0
	for i, src := range srcs {
		tab := Parse(Go, src, Options{})
		if tab.SyntaxErrors > 0 {
			continue
		}
		for _, d := range tab.Decls {
			if d.BodyHash == "" {
				continue
			}
			spans, ok := GoBodySpans(src, d.BodyHash)
			if !ok {
				break // refused: the caller parses
			}
			bodies++
			in := false
			for _, sp := range spans {
				in = in || d.StartByte <= sp[0] && sp[1] <= d.EndByte
				// The span is the group itself: alone, it hashes the same.
				g := src[sp[0]:sp[1]]
				if hs, _ := GoBodyHashes(g); !slices.Contains(hs, d.BodyHash) || g[len(g)-1] != '}' || g[0] != '{' && !bytes.HasPrefix(g, []byte("interface")) {
					t.Errorf("source %d: span %v (%.40q) does not hash as %s", i, sp, src[sp[0]:sp[1]], d.QualifiedName)
				}
			}
			if !in {
				t.Errorf("source %d: %s %s [%d,%d): body not in %v", i, d.Kind, d.QualifiedName, d.StartByte, d.EndByte, spans)
			}
		}
	}
	if bodies < 1000 {
		t.Fatalf("only %d bodies checked", bodies)
	}
	if spans, ok := GoBodySpans(srcs[0], "no such hash"); !ok || len(spans) != 0 {
		t.Errorf("a hash no group has: %v %v", spans, ok)
	}
}

// GoHashTokens of a body's own text are the tokens Parse keeps for it.
func TestGoHashTokensAreTheBody(t *testing.T) {
	srcs := [][]byte{[]byte("package p\nfunc F() []string {\n\treturn []string{\"a\\x41\", `r\r\n`, '\\'', 0X1P-2, 1E3, 0x1e+2, // c\n\t}\n}\ntype S struct{ a, b int; c struct{ x, y string } }\n")}
	for _, f := range goFilesForChunkTest(t)[:40] {
		if src, err := os.ReadFile(f); err == nil {
			srcs = append(srcs, src)
		}
	}
	bodies := 0
	for i, src := range srcs {
		tab := Parse(Go, src, Options{KeepBodyTokens: true})
		if tab.SyntaxErrors > 0 {
			continue
		}
		for _, d := range tab.Decls {
			if d.Body.Len() == 0 || d.BodyHash == "" {
				continue
			}
			spans, ok := GoBodySpans(src, d.BodyHash)
			if !ok || len(spans) == 0 {
				continue
			}
			got, ok := GoHashTokens(src[spans[0][0]:spans[0][1]])
			if !ok || !slices.Equal(got, d.Body.Strings()) {
				t.Errorf("source %d: %s %s: tokens %q, Parse's %q", i, d.Kind, d.QualifiedName, got, d.Body.Strings())
				continue
			}
			bodies++
		}
	}
	if bodies < 300 {
		t.Fatalf("only %d bodies compared", bodies)
	}
}
