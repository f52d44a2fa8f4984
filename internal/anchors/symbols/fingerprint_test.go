package symbols

import (
	"crypto/sha256"
	"encoding/json"
	"fmt"
	"io/fs"
	"os"
	"path/filepath"
	"sort"
	"strings"
	"testing"
)

// TestTablesFingerprint writes one line per source file under the
// directories of $CLEW_FINGERPRINT_ROOTS (colon-separated; testdata and
// the samples are always included) to $CLEW_FINGERPRINT_OUT: the file and
// a SHA-256 of Parse's whole table (body tokens kept and not) and of
// Tokens. Run it with two builds and cmp the outputs: a change to the tree
// walk, the tokens or the hashing must leave every line equal.
//
//	CLEW_FINGERPRINT_ROOTS=$(go env GOROOT)/src CLEW_FINGERPRINT_OUT=/tmp/a.txt \
//	  go test ./internal/anchors/symbols -run TablesFingerprint -count 1
func TestTablesFingerprint(t *testing.T) {
	out := os.Getenv("CLEW_FINGERPRINT_OUT")
	if out == "" {
		t.Skip("set CLEW_FINGERPRINT_OUT (and CLEW_FINGERPRINT_ROOTS)")
	}
	type input struct {
		name string
		lang Language
		src  []byte
	}
	var inputs []input
	paths, _ := filepath.Glob(filepath.Join("testdata", "*"))
	for _, p := range paths {
		lang, ok := LanguageForPath(strings.TrimSuffix(p, ".txt"))
		if !ok {
			continue
		}
		src, err := os.ReadFile(p)
		if err != nil {
			t.Fatal(err)
		}
		inputs = append(inputs, input{p, lang, src}, input{p + "[:half]", lang, src[:len(src)/2]})
	}
	var langs []string
	for l := range samples {
		langs = append(langs, string(l))
	}
	sort.Strings(langs)
	for _, l := range langs {
		src := samples[Language(l)]
		inputs = append(inputs, input{"sample:" + l, Language(l), []byte(src)}, input{"sample-bom:" + l, Language(l), []byte("\ufeff" + src)})
	}
	for _, root := range filepath.SplitList(os.Getenv("CLEW_FINGERPRINT_ROOTS")) {
		err := filepath.WalkDir(root, func(p string, d fs.DirEntry, err error) error {
			if err != nil || d.IsDir() || !d.Type().IsRegular() {
				return nil
			}
			lang, ok := LanguageForPath(p)
			if !ok || IsKeyLanguage(lang) {
				return nil
			}
			src, err := os.ReadFile(p)
			if err == nil {
				inputs = append(inputs, input{p, lang, src})
			}
			return nil
		})
		if err != nil {
			t.Fatal(err)
		}
	}
	type declView struct {
		Decl
		BodyStrings []string
	}
	sum := func(v any) string {
		b, err := json.Marshal(v)
		if err != nil {
			t.Fatal(err)
		}
		s := sha256.Sum256(b)
		return fmt.Sprintf("%x", s[:12])
	}
	var b strings.Builder
	decls := 0
	for _, in := range inputs {
		var line []string
		for _, keep := range []bool{true, false} {
			tab := Parse(in.lang, in.src, Options{KeepBodyTokens: keep})
			for try := 0; tab.GaveUp && try < 3; try++ {
				// The parse is bounded by wall-clock time: on a loaded
				// machine it can give up on a file it parses when asked again.
				tab = Parse(in.lang, in.src, Options{KeepBodyTokens: keep})
			}
			views := make([]declView, len(tab.Decls))
			for i, d := range tab.Decls {
				views[i] = declView{d, d.Body.Strings()}
			}
			decls += len(views)
			line = append(line, sum(struct {
				T Table
				D []declView
			}{tab, views}))
		}
		toks := Tokens(in.lang, in.src)
		for try := 0; toks == nil && try < 3; try++ {
			toks = Tokens(in.lang, in.src) // as above: nil is also what a parse that gave up yields
		}
		line = append(line, sum(toks))
		fmt.Fprintf(&b, "%s %s %s\n", in.name, in.lang, strings.Join(line, " "))
	}
	if decls == 0 {
		t.Fatal("no declarations")
	}
	if err := os.WriteFile(out, []byte(b.String()), 0o644); err != nil {
		t.Fatal(err)
	}
	t.Logf("%d inputs, %d declarations", len(inputs), decls)
}
