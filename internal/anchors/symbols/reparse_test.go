package symbols

import (
	"bytes"
	"math/rand"
	"os"
	"path/filepath"
	"reflect"
	"runtime"
	"testing"
)

// editStep makes the next version of cur from four program bytes: insert a
// line of the text itself at a line start, delete lines, insert a fragment
// at any byte (mostly broken code, which the Reparser parses whole), insert
// a blank line (still valid), or go back to an earlier version (undo).
func editStep(cur []byte, history [][]byte, op, x, y, z byte) []byte {
	lines := bytes.SplitAfter(cur, []byte("\n"))
	at := func(v byte, n int) int {
		if n <= 0 {
			return 0
		}
		return int(v) * 131 % n
	}
	join := func(ls [][]byte) []byte { return bytes.Join(ls, nil) }
	switch op % 6 {
	case 0, 1: // duplicate line y before line x
		i, j := at(x, len(lines)+1), at(y, len(lines))
		if len(lines) == 0 {
			return append([]byte("x\n"), cur...)
		}
		out := append([][]byte{}, lines[:i]...)
		out = append(out, lines[j])
		return join(append(out, lines[i:]...))
	case 2: // delete 1-3 lines
		if len(lines) == 0 {
			return cur
		}
		i := at(x, len(lines))
		k := min(len(lines), i+1+int(z)%3)
		return join(append(append([][]byte{}, lines[:i]...), lines[k:]...))
	case 3: // a fragment at any byte
		frags := []string{"x", " ", "\n", "(", ")", "}", "{\n", "_ = 1\n", "// c\n", "\"", "\t", "é"}
		i := at(x, len(cur)+1)
		return append(append(append([]byte{}, cur[:i]...), frags[int(y)%len(frags)]...), cur[i:]...)
	case 4: // a blank line at a line start (valid almost everywhere)
		i := at(x, len(lines)+1)
		return join(append(append(append([][]byte{}, lines[:i]...), []byte("\n")), lines[i:]...))
	default: // undo to an earlier version
		if len(history) == 0 {
			return cur
		}
		return history[at(x, len(history))]
	}
}

// checkReparse parses every version both ways and compares the tables.
func checkReparse(t *testing.T, r *Reparser, lang Language, versions [][]byte) {
	t.Helper()
	for i, v := range versions {
		opt := Options{KeepBodyTokens: i%3 != 2}
		got := r.Parse("f", lang, v, opt)
		want := Parse(lang, v, opt)
		if got.GaveUp || want.GaveUp {
			continue // the time limit (a loaded machine), not the file: such a table is never kept
		}
		if !reflect.DeepEqual(got, want) {
			t.Errorf("%s version %d: got %d declarations, %d syntax errors; want %d, %d", lang, i, len(got.Decls), got.SyntaxErrors, len(want.Decls), want.SyntaxErrors)
			if d := os.Getenv("CLEW_REPARSE_DUMP"); d != "" {
				_ = os.WriteFile(d+".new", v, 0o644)
				_ = os.WriteFile(d+".old", versions[max(0, i-1)], 0o644)
			}
			t.Fatalf("%s version %d (keep body tokens %v): the reparsed table differs from a fresh parse\ntext:\n%s\ngot  %+v\nwant %+v",
				lang, i, opt.KeepBodyTokens, v, got, want)
		}
	}
}

// TestReparseMatchesParse: after random edits of real sources in every
// tree-sitter language (the samples, testdata, and on a Go machine large
// files of GOROOT), a version parsed incrementally from the previous one's
// tree has exactly a fresh parse's table. The edits are valid often
// enough that most parses of valid text are incremental, which the counts
// check (a Reparser that always parsed whole would pass the comparison).
func TestReparseMatchesParse(t *testing.T) {
	sources := map[string][]byte{}
	for lang, src := range samples {
		if !IsKeyLanguage(lang) {
			sources["sample."+string(lang)] = []byte(src)
		}
	}
	files, _ := filepath.Glob(filepath.Join("testdata", "*"))
	for _, p := range files {
		if b, err := os.ReadFile(p); err == nil {
			sources[p] = b
		}
	}
	for _, p := range []string{"fmt/print.go", "net/http/server.go", "go/types/expr.go"} {
		if b, err := os.ReadFile(filepath.Join(runtime.GOROOT(), "src", p)); err == nil {
			sources[p] = b
		}
	}
	steps := 40
	if testing.Short() {
		steps = 8
	}
	total := 0
	for name, src := range sources {
		lang, ok := LanguageForPath(name)
		if name[:7] == "sample." {
			lang, ok = Language(name[7:]), true
		}
		if !ok || IsKeyLanguage(lang) || !incrementalLanguages[lang] {
			continue // the others are parsed whole: Parse against Parse (checked below)
		}
		t.Run(name, func(t *testing.T) {
			rng := rand.New(rand.NewSource(int64(len(src))))
			r := NewReparser(2)
			versions := [][]byte{src}
			if rng.Intn(2) == 0 {
				versions[0] = append(append([]byte{}, bom...), src...)
			}
			for len(versions) < steps {
				cur := versions[len(versions)-1]
				// Mostly edits that keep valid code valid (blank lines,
				// undo), so that many parses are incremental.
				op := []byte{4, 4, 4, 5, 5, 0, 1, 2, 3}[rng.Intn(9)]
				versions = append(versions, editStep(cur, versions, op, byte(rng.Intn(256)), byte(rng.Intn(256)), byte(rng.Intn(256))))
			}
			checkReparse(t, r, lang, versions)
			inc, whole := r.Counts()
			total += inc
			t.Logf("%d versions: %d incremental parses, %d whole", len(versions), inc, whole)
			if inc+whole != len(versions) {
				t.Errorf("%d incremental + %d whole parses for %d versions", inc, whole, len(versions))
			}
		})
	}
	if total == 0 {
		t.Error("no parse was incremental: the comparison tested nothing")
	}
	// Parsed whole, as Parse does: languages not in incrementalLanguages.
	for _, lang := range Languages() {
		if src, ok := samples[lang]; ok && !incrementalLanguages[lang] {
			r := NewReparser(2)
			r.Parse("f", lang, []byte(src), Options{})
			r.Parse("f", lang, []byte(src+"\n"), Options{})
			if inc, _ := r.Counts(); inc != 0 {
				t.Errorf("%s was parsed incrementally", lang)
			}
		}
	}
}

// TestReparseIsIncremental: one statement added to a large valid Go file
// and removed again are both incremental parses (the tree is kept across
// them), a file of another key is not, and a tree pushed out by max keys
// or forgotten is parsed whole.
func TestReparseIsIncremental(t *testing.T) {
	src := []byte(samples[Go])
	edited := bytes.Replace(src, []byte("\treturn"), []byte("\t_ = 2\n\treturn"), 1)
	r := NewReparser(1)
	want := func(step string, inc, whole int) {
		t.Helper()
		if i, w := r.Counts(); i != inc || w != whole {
			t.Fatalf("%s: %d incremental, %d whole; want %d, %d", step, i, w, inc, whole)
		}
	}
	r.Parse("a", Go, src, Options{})
	want("first parse", 0, 1)
	r.Parse("a", Go, edited, Options{})
	r.Parse("a", Go, src, Options{})
	want("edit and undo", 2, 1)
	r.Parse("b", Go, edited, Options{}) // pushes a's tree out
	r.Parse("a", Go, edited, Options{})
	want("a after b (max 1)", 2, 3)
	r.Parse("b", Go, src, Options{}) // its tree was pushed out: whole; pushes a's out again
	r.Parse("a", Go, src, Options{})
	want("a after b again", 2, 5)
	r.Parse("a", Go, append(append([]byte{}, src...), "func (\n"...), Options{})
	want("a syntax error: parsed whole", 2, 6)
	r.Parse("a", Python, src, Options{})
	want("another language: parsed whole", 2, 7)
}

// FuzzReparseMatchesParse: any text in a language parsed incrementally
// (incrementalLanguages), edited by
// any program of editStep's four-byte steps, reparses to a fresh parse's
// tables.
func FuzzReparseMatchesParse(f *testing.F) {
	var langs []Language
	for _, l := range Languages() {
		if incrementalLanguages[l] {
			langs = append(langs, l)
		}
	}
	for i, l := range langs {
		if s, ok := samples[l]; ok {
			f.Add(uint8(i), []byte(s), []byte{0, 1, 2, 3, 3, 5, 6, 7, 4, 1, 1, 1, 0, 9, 8, 7})
		}
	}
	for _, p := range []string{"fmt/print.go", "strings/strings.go"} {
		if b, err := os.ReadFile(filepath.Join(runtime.GOROOT(), "src", p)); err == nil {
			f.Add(uint8(0), b, []byte{4, 7, 0, 0, 0, 9, 200, 1, 3, 50, 6, 0, 5, 1, 0, 0, 2, 99, 0, 1})
		}
	}
	f.Fuzz(func(t *testing.T, which uint8, src, prog []byte) {
		if len(prog) > 64 || len(src) > 1<<16 {
			return
		}
		lang := langs[int(which)%len(langs)]
		versions := [][]byte{src}
		for i := 0; i+4 <= len(prog); i += 4 {
			cur := versions[len(versions)-1]
			versions = append(versions, editStep(cur, versions, prog[i], prog[i+1], prog[i+2], prog[i+3]))
		}
		checkReparse(t, NewReparser(1), lang, versions)
	})
}

// TestReparseStatementEdits: a statement added at the end of every
// function of a large Go file (of more than one line: `_ = 1` before the
// brace of a one-line body is a syntax error), then removed, one function at a time (the
// edits a typist makes, and those of the server's benchmark): every parse
// after the first is incremental and gives a fresh parse's table.
func TestReparseStatementEdits(t *testing.T) {
	src, err := os.ReadFile(filepath.Join(runtime.GOROOT(), "src", "net", "http", "server.go"))
	if err != nil {
		if src, err = os.ReadFile(filepath.Join("testdata", "shop.go")); err != nil {
			t.Fatal(err)
		}
	}
	r := NewReparser(1)
	opt := Options{KeepBodyTokens: true}
	r.Parse("f", Go, src, opt)
	n := 0
	for _, d := range Parse(Go, src, opt).Decls {
		if d.Kind != "function" && d.Kind != "method" || src[d.EndByte-1] != '}' || d.StartLine == d.EndLine {
			continue
		}
		if testing.Short() && n == 10 || n == 60 {
			break
		}
		n++
		at := int(d.EndByte) - 1
		edited := append(append(append([]byte{}, src[:at]...), "\t_ = 1\n"...), src[at:]...)
		for _, v := range [][]byte{edited, src} {
			if got, want := r.Parse("f", Go, v, opt), Parse(Go, v, opt); !want.GaveUp && !reflect.DeepEqual(got, want) {
				t.Fatalf("%s: a statement added or removed: the reparsed table differs from a fresh parse", d.QualifiedName)
			}
		}
	}
	if inc, whole := r.Counts(); whole != 1 || inc != 2*n {
		t.Errorf("%d incremental and %d whole parses; want %d and 1", inc, whole, 2*n)
	}
}

// TestReparseKeepsItsOwnText: a caller that reuses its buffer after Parse
// (writes the next version over the last) still gets fresh parses' tables:
// the edit is found against the Reparser's own copy of the last text.
func TestReparseKeepsItsOwnText(t *testing.T) {
	a := []byte(samples[Go])
	b := bytes.Replace(a, []byte("a + b"), []byte("g(b) "), 1) // same length, another tree
	buf := append([]byte{}, a...)
	r := NewReparser(1)
	r.Parse("f", Go, buf, Options{KeepBodyTokens: true})
	copy(buf, b) // same length: the caller's bytes now hold b
	if got, want := r.Parse("f", Go, buf, Options{KeepBodyTokens: true}), Parse(Go, b, Options{KeepBodyTokens: true}); !reflect.DeepEqual(got, want) {
		t.Fatalf("after the caller overwrote its buffer:\ngot  %+v\nwant %+v", got, want)
	}
	if inc, _ := r.Counts(); inc != 1 {
		t.Errorf("%d incremental parses, want 1", inc)
	}
}
