package workspace

import (
	"io/fs"
	"os"
	"path/filepath"
	"runtime"
	"strings"
	"testing"

	"github.com/clew-lsp/clew-lsp/internal/anchors"
	"github.com/clew-lsp/clew-lsp/internal/anchors/symbols"
)

// Skipping line comments never hides a declaration: over the parsers'
// sample files of every language and GOROOT's C, C++, JavaScript, shell
// and Python files, every declaration's base name the table lists is one
// placesOf finds. (With `#` taken as C's marker, a macro's name is lost.)
func TestPlacesOfSkipsOnlyComments(t *testing.T) {
	var files []string
	samples, _ := filepath.Glob(filepath.Join("..", "anchors", "symbols", "testdata", "*"))
	files = append(files, samples...)
	filepath.WalkDir(filepath.Join(runtime.GOROOT(), "src"), func(p string, d fs.DirEntry, err error) error {
		if err == nil && !d.IsDir() {
			switch filepath.Ext(p) {
			case ".c", ".h", ".cc", ".js", ".sh", ".bash", ".py":
				files = append(files, p)
			}
		}
		return nil
	})
	checked, skipped := 0, 0
	langs := map[symbols.Language]bool{}
	for _, f := range files {
		lang, ok := symbols.LanguageForPath(f)
		if !ok || lang == symbols.Go || lineComment(lang) == "" {
			continue
		}
		src, err := os.ReadFile(f)
		if err != nil || len(src) > 1<<20 {
			continue
		}
		names := map[string]bool{}
		for _, d := range symbols.Parse(lang, src, symbols.Options{}).Decls {
			if b := anchors.BaseName(d.QualifiedName); b != "" {
				names[b] = true
			}
		}
		got := placesOf(lang, src, names)
		found := map[string]bool{}
		for _, n := range got.names {
			found[n] = true
		}
		for n := range names {
			if !found[n] && wordIn(src, n) {
				t.Errorf("%s (%s): declaration %q is not among the places", f, lang, n)
			}
			checked++
		}
		// What the skip saves: words only on comment lines.
		all := map[string]bool{}
		eachWord(src, func(w []byte) bool { all[string(w)] = true; return true })
		code := map[string]bool{}
		eachCodeWord(lang, src, func(w []byte) bool { code[string(w)] = true; return true })
		skipped += len(all) - len(code)
		langs[lang] = true
	}
	t.Logf("%d declaration names in %d languages; %d words only in line comments", checked, len(langs), skipped)
	if checked < 1000 || len(langs) < 10 || skipped == 0 {
		t.Fatalf("too weak a test: %d names, %d languages, %d skipped words", checked, len(langs), skipped)
	}
}

// wordIn: the table's name is a word of the source (a name tree-sitter
// builds, such as an overload's `init()`, is not what placesOf looks for).
func wordIn(src []byte, name string) bool {
	in := false
	eachWord(src, func(w []byte) bool {
		if string(w) == name {
			in = true
			return false
		}
		return true
	})
	return in
}

func TestEachCodeWordSkipsLineComments(t *testing.T) {
	src := "int a; // x\n  // comment b\n#define c 1\n\t// d\ne\n"
	var got []string
	eachCodeWord(symbols.C, []byte(src), func(w []byte) bool { got = append(got, string(w)); return true })
	if strings.Join(got, " ") != "int a x define c 1 e" {
		t.Errorf("C words: %q", got)
	}
	got = nil
	eachCodeWord(symbols.Bash, []byte("#!/bin/sh\nf() {\n  # g\n  h\n}\n"), func(w []byte) bool { got = append(got, string(w)); return len(got) < 2 })
	if strings.Join(got, " ") != "f h" {
		t.Errorf("shell words, stopped after two: %q", got)
	}
}
