package symbols

import (
	"unicode"
	"unicode/utf8"
)

// Go identifiers may hold letters and digits beyond ASCII (θ, µ, ŝ, λ in
// GOROOT's own code). The small Go lexers (the body hasher, the
// declaration lexer) read such a rune as part of an identifier only where
// Go and tree-sitter's Go grammar agree that it is one, and refuse the
// file elsewhere (tree-sitter then parses it). Go's letters are Unicode's category L; the grammar's are XID_Start
// and XID_Continue, which leave out a few of them. Below goUniLimit
// (Latin, Greek, Cyrillic, Armenian, Hebrew, Arabic, the Indic scripts…)
// the two differ only by goUniNotStart; a rune at or above it, or any
// other rune outside ASCII in code, still refuses the file.
// TestGoUniIdentAgreesWithTreeSitter parses every rune below the limit.
const goUniLimit = 0x2000

// goUniNotStart are letters (category L) that XID_Start leaves out.
func goUniNotStart(r rune) bool { return r == 0x037A || r == 0x0E33 || r == 0x0EB3 }

// goUniIdentRune is the length of the rune at src[i] when it is a letter
// beyond ASCII (or, when cont, a letter or digit) that both read as part
// of an identifier; 0 otherwise.
func goUniIdentRune(src []byte, i int, cont bool) int {
	r, size := utf8.DecodeRune(src[i:])
	if r < utf8.RuneSelf || r >= goUniLimit || goUniNotStart(r) {
		return 0 // also utf8.RuneError: not a letter, and ≥ the limit
	}
	if unicode.IsLetter(r) || cont && unicode.IsDigit(r) {
		return size
	}
	return 0
}

// goIdentEnd is where the identifier whose first rune ends at j ends.
func goIdentEnd(src []byte, j int) int {
	for {
		for j < len(src) && identPart[src[j]] {
			j++
		}
		if j >= len(src) || src[j] < utf8.RuneSelf {
			return j
		}
		n := goUniIdentRune(src, j, true)
		if n == 0 {
			return j
		}
		j += n
	}
}
