package symbols

import (
	"slices"
	"strings"
	"testing"
)

func TestLanguageForPath(t *testing.T) {
	cases := map[string]Language{
		"main.go": Go, "a/b.TS": TypeScript, "x.mts": TypeScript, "x.cts": TypeScript, "ui/b.tsx": TSX,
		"x.js": JavaScript, "x.MJS": JavaScript, "x.cjs": JavaScript, "x.jsx": JavaScript,
		"x.py": Python, "x.pyi": Python, "x.rs": Rust, "X.java": Java, "x.kt": Kotlin, "build.gradle.kts": Kotlin,
		"x.swift": Swift, "x.c": C, "x.h": C, "x.cc": CPP, "x.cpp": CPP, "x.cxx": CPP, "x.hpp": CPP,
		"x.hh": CPP, "x.hxx": CPP, "x.cs": CSharp, `dir\win.go`: Go,
	}
	for p, want := range cases {
		if got, ok := LanguageForPath(p); !ok || got != want {
			t.Errorf("%s: %q %v, want %q", p, got, ok, want)
		}
	}
	for _, p := range []string{"README.md", "Makefile", "go", ".go/x", "x.go.txt", ""} {
		if got, ok := LanguageForPath(p); ok {
			t.Errorf("%s: %q, want none", p, got)
		}
	}
}

func TestLanguages(t *testing.T) {
	got := Languages()
	want := []Language{C, CPP, CSharp, Go, Java, JavaScript, Kotlin, Python, Rust, Swift, TSX, TypeScript, YAML, JSON, TOML, Protobuf, SQL, Terraform, Ruby, PHP, Scala, Lua, Bash, Elixir}
	slices.Sort(want)
	if !slices.Equal(got, want) {
		t.Errorf("Languages() = %q, want %q", got, want)
	}
	for _, l := range got {
		if _, ok := specs[l]; !ok && !IsKeyLanguage(l) {
			t.Errorf("%s has no declaration table", l)
		}
	}
}

// sample is a small source per language with at least one declaration.
var samples = map[Language]string{
	Go:         "package p\n\n// F adds.\nfunc F(a, b int) int {\n\treturn a + b + 1 + 2\n}\n",
	TypeScript: "export function f(a: number): number {\n  return a + 1 + 2 + 3;\n}\n",
	TSX:        "export const A = () => <div className='x'>{1 + 2}</div>;\n",
	JavaScript: "function f(a) {\n  return a + 1 + 2 + 3;\n}\n",
	Python:     "def f(a):\n    return a + 1 + 2 + 3\n",
	Java:       "class A {\n  /** F. */\n  @Deprecated\n  int f(int a) {\n    return a + 1 + 2;\n  }\n}\n",
	Kotlin:     "/** F. */\n@JvmStatic\nfun f(a: Int): Int {\n    return a + 1 + 2 + 3\n}\n",
	Swift:      "/// F.\n@inlinable\nfunc f(a: Int) -> Int {\n    return a + 1 + 2 + 3\n}\n",
	C:          "/* F. */\nstatic int f(int a) {\n    return a + 1 + 2 + 3;\n}\n",
	CPP:        "namespace n {\n// F.\nint f(int a) {\n    return a + 1 + 2 + 3;\n}\n}\n",
	CSharp:     "class A {\n    /// F.\n    [Pure]\n    int F(int a) {\n        return a + 1 + 2;\n    }\n}\n",
	Rust:       "/// F.\n#[inline]\nfn f(a: i32) -> i32 {\n    a + 1 + 2 + 3\n}\n",
	Ruby:       "# F.\ndef f(a)\n  \"#{a}\" + 'b' + a.to_s\nend\n",
	PHP:        "<?php\n/** F. */\nfunction f($a) { return \"$a\" . 'b' . 1; }\n",
	Scala:      "object O {\n  /** F. */\n  def f(a: Int): Int = a + 1 + 2 + 3\n}\n",
	Lua:        "-- F.\nlocal function f(a)\n  return a .. 'b' .. \"c\" .. 1\nend\n",
	Bash:       "# F.\nf() {\n  echo \"$1\" '$2' $'\\n'\n}\n",
	Elixir:     "defmodule M do\n  # F.\n  def f(a), do: \"#{a}\" <> 'b' <> ~s(c)\nend\n",
}

func TestBOMAndCRLF(t *testing.T) {
	for lang, src := range samples {
		plain := Parse(lang, []byte(src), Options{})
		if len(plain.Decls) == 0 {
			t.Errorf("%s: no decls in sample", lang)
			continue
		}
		withBOM := Parse(lang, append([]byte("\ufeff"), src...), Options{})
		crlf := Parse(lang, []byte(strings.ReplaceAll(src, "\n", "\r\n")), Options{})
		for i, d := range plain.Decls {
			b, c := withBOM.Decls[i], crlf.Decls[i]
			if b.DeclHash != d.DeclHash || b.BodyHash != d.BodyHash || c.DeclHash != d.DeclHash || c.BodyHash != d.BodyHash {
				t.Errorf("%s %s: hashes differ: plain %s/%s bom %s/%s crlf %s/%s", lang, d.QualifiedName,
					d.DeclHash, d.BodyHash, b.DeclHash, b.BodyHash, c.DeclHash, c.BodyHash)
			}
			if b.StartByte != d.StartByte+3 || b.NameStartByte != d.NameStartByte+3 || b.EndByte != d.EndByte+3 || b.StartLine != d.StartLine {
				t.Errorf("%s: BOM offsets not shifted: %+v vs %+v", lang, b, d)
			}
			if c.StartLine != d.StartLine || c.EndLine != d.EndLine {
				t.Errorf("%s: CRLF lines %d-%d vs %d-%d", lang, c.StartLine, c.EndLine, d.StartLine, d.EndLine)
			}
		}
		if !slices.Equal(Tokens(lang, []byte(src)), Tokens(lang, append([]byte("\ufeff"), src...))) {
			t.Errorf("%s: BOM changes Tokens", lang)
		}
	}
}

func TestInnermost(t *testing.T) {
	src := fixture(t, "rates.ts")
	tab := Parse(TypeScript, []byte(src), Options{})
	at := strings.Index(src, "Math.round")
	d, ok := Innermost(tab, at)
	if !ok || d.QualifiedName != "RateBook.record" {
		t.Errorf("Innermost at Math.round = %q %v", d.QualifiedName, ok)
	}
	d, ok = Innermost(tab, strings.Index(src, "private entries"))
	if !ok || d.QualifiedName != "RateBook.entries" {
		t.Errorf("Innermost at entries = %q %v", d.QualifiedName, ok)
	}
	d, ok = Innermost(tab, strings.Index(src, "\n\nexport class")+1)
	if ok {
		t.Errorf("Innermost between decls = %q", d.QualifiedName)
	}
	if _, ok := Innermost(tab, -1); ok {
		t.Error("negative offset matched")
	}
}

func TestKeepBodyTokens(t *testing.T) {
	src := []byte(samples[Go])
	if d := Parse(Go, src, Options{}).Decls[0]; d.Body.Len() != 0 {
		t.Errorf("Body filled without the option: %q", d.Body.Strings())
	}
	d := Parse(Go, src, Options{KeepBodyTokens: true}).Decls[0]
	want := []string{"{", "return", "a", "+", "b", "+", "1", "+", "2", "}"}
	if !slices.Equal(d.Body.Strings(), want) || d.BodyTokens != len(want) {
		t.Errorf("Body = %q (%d)", d.Body.Strings(), d.BodyTokens)
	}
}

func TestDegenerateInput(t *testing.T) {
	for _, lang := range Languages() {
		for _, src := range []string{"", "\ufeff", "\n", "\x00\xff\xfe", "{{{{", strings.Repeat("(", 5000)} {
			tab := Parse(lang, []byte(src), Options{})
			if tab.Language != lang {
				t.Errorf("%s: language %q", lang, tab.Language)
			}
			checkBounds(t, []byte(src), tab)
			_ = Tokens(lang, []byte(src))
		}
	}
	if tab := Parse("cobol", []byte("x"), Options{}); len(tab.Decls) != 0 || tab.Language != "cobol" {
		t.Errorf("unknown language: %+v", tab)
	}
	if Tokens("cobol", []byte("x")) != nil {
		t.Error("tokens for unknown language")
	}
}

func TestSyntaxErrorsStillResolve(t *testing.T) {
	src := "package p\n\nfunc Good() int {\n\treturn 1\n}\n\nfunc Bad( {\n\nfunc AlsoGood() {}\n"
	tab := Parse(Go, []byte(src), Options{})
	if tab.SyntaxErrors == 0 {
		t.Error("no syntax errors counted")
	}
	assertContains(t, tab, "function Good")
}

func TestSignatureLimit(t *testing.T) {
	long := "package p\n\nfunc F(" + strings.Repeat("a int, ", 60) + "z int) {}\n"
	d := Parse(Go, []byte(long), Options{}).Decls[0]
	if len(d.Signature) > 200 || !strings.HasPrefix(d.Signature, "func F(a int, a int,") {
		t.Errorf("signature %d bytes: %q", len(d.Signature), d.Signature)
	}
}

// A syntax error elsewhere in the file does not hide the declarations that
// still parse.
func TestSyntaxErrorsPerLanguage(t *testing.T) {
	cases := []struct {
		lang      Language
		src, want string
	}{
		{Go, "package p\nfunc Broken() { x := }\n\nfunc Good() int { return 1 }\n", "function Good"},
		{TypeScript, "function broken( {\n}\nexport function good(): number { return 1; }\n", "function good"},
		{TSX, "const x = 1 +;\nexport function Good() { return <p/>; }\n", "function Good"},
		{JavaScript, "class A { m() { return 1 } }\nfunction (\nfunction good() { return 2 }\n", "class A"},
		{Python, "def broken(:\n    pass\n\ndef good():\n    return 1\n", "function good"},
		{Rust, "fn broken( {\n}\nfn good() -> i32 { 1 }\n", "function good"},
		{Java, "class A {\n  void broken( {\n  }\n  int good() { return 1; }\n}\n", "method A.good"},
		{Kotlin, "fun broken( {\n}\nfun good(): Int = 1\n", "function good"},
		{Swift, "func broken( {\n}\nfunc good() -> Int { 1 }\n", "function good()"},
		{C, "int broken( {\n}\nint good(void) { return 1; }\n", "function good"},
		{CPP, "class A { void broken( };\nint good() { return 1; }\n", "function good"},
		{CSharp, "class A {\n  void Broken( {\n  }\n  int Good() { return 1; }\n}\n", "method A.Good"},
	}
	for _, c := range cases {
		tab := Parse(c.lang, []byte(c.src), Options{})
		if tab.SyntaxErrors == 0 {
			t.Errorf("%s: no syntax errors counted", c.lang)
		}
		if !slices.Contains(list(tab), c.want) {
			t.Errorf("%s: %q not in %q", c.lang, c.want, list(tab))
		}
		checkBounds(t, []byte(c.src), tab)
	}
}

// Parse is called from many goroutines by the workspace indexer.
func TestConcurrentParse(t *testing.T) {
	want := map[Language]string{}
	for lang, src := range samples {
		want[lang] = Parse(lang, []byte(src), Options{}).Decls[0].DeclHash
	}
	errs := make(chan string, 64)
	done := make(chan bool)
	for g := 0; g < 8; g++ {
		go func() {
			for i := 0; i < 20; i++ {
				for lang, src := range samples {
					if h := Parse(lang, []byte(src), Options{}).Decls[0].DeclHash; h != want[lang] {
						errs <- string(lang)
					}
				}
			}
			done <- true
		}()
	}
	for g := 0; g < 8; g++ {
		<-done
	}
	close(errs)
	for e := range errs {
		t.Errorf("%s: hash differs under concurrency", e)
	}
}
