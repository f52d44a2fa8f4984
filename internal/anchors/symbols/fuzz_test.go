package symbols

import (
	"fmt"
	"os"
	"path/filepath"
	"testing"
	"unicode/utf8"
)

// FuzzParse feeds any bytes to every grammar: no panic, every span inside the
// input, and Tokens agrees with Parse about the input being usable.
func FuzzParse(f *testing.F) {
	langs := Languages()
	byExt := map[Language]uint8{}
	for i, l := range langs {
		byExt[l] = uint8(i)
	}
	files, _ := filepath.Glob(filepath.Join("testdata", "*"))
	for _, p := range files {
		lang, ok := LanguageForPath(p)
		if !ok {
			continue
		}
		b, err := os.ReadFile(p)
		if err != nil {
			f.Fatal(err)
		}
		f.Add(byExt[lang], b)
		f.Add(byExt[lang], b[:len(b)/2]) // truncated
	}
	for lang, src := range samples {
		f.Add(byExt[lang], []byte(src))
		f.Add(byExt[lang], []byte("\ufeff"+src))
	}
	f.Add(uint8(0), []byte("\xff\xfe\x00garbage{"))
	f.Fuzz(func(t *testing.T, which uint8, src []byte) {
		lang := langs[int(which)%len(langs)]
		if p := os.Getenv("CLEW_FUZZ_LOG"); p != "" { // debugging a hang: the last input survives
			_ = os.WriteFile(fmt.Sprintf("%s.%d", p, os.Getpid()), append([]byte(string(lang)+"\n"), src...), 0o644)
		}
		tab := Parse(lang, src, Options{KeepBodyTokens: true})
		checkBounds(t, src, tab)
		for _, d := range tab.Decls {
			if len(d.Signature) > maxSignature || !utf8.ValidString(d.Signature) && utf8.Valid(src) {
				t.Fatalf("bad signature %q", d.Signature)
			}
			if d.BodyTokens != d.Body.Len() {
				t.Fatalf("%s: %d body tokens, %d kept", d.QualifiedName, d.BodyTokens, d.Body.Len())
			}
		}
		_ = Tokens(lang, src)
	})
}
