package symbols

import (
	"go/parser"
	gotoken "go/token"
	"os"
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
