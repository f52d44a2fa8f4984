package symbols

// A third of GOROOT's Go bytes are the values of top-level var and const
// declarations (tables: 30 of 90 MB), and the walker gives their names no
// body: none of their brace groups is a body GoBodyHashes must list. So
// the hasher steps over a bracket group that opens at the top level of a
// var or const declaration at byte speed (skipGoGroup), hashing nothing
// in it. The mode starts at a top-level `var` or `const` and ends at a
// top-level `func`, `type`, `import` or `package`: a function's or a
// type's declaration, the only ones with bodies, is always read.

// skipGoGroup is the end of the bracket group that opens at src[i] (just
// after its closing bracket), found without making tokens: string, rune
// and raw literals and comments are stepped over, brackets are matched.
// ok is false, and the caller reads the group token by token, wherever
// the lexers could decide otherwise: an unterminated literal or comment,
// a mismatched bracket, a byte outside ASCII or one no Go token holds
// outside literals and comments.
func skipGoGroup(src []byte, i int) (end int, ok bool) {
	var stack [32]byte // deeper nests are read token by token
	depth := 0
	for i < len(src) {
		c := src[i]
		// The declaration lexer's classes: its bad bytes are the ones no
		// Go token holds outside literals and comments.
		switch gnClass[c] {
		case gnOpen:
			if depth == len(stack) {
				return 0, false
			}
			stack[depth] = c
			depth++
			i++
		case gnClose:
			if depth == 0 || stack[depth-1] != opener(c) {
				return 0, false
			}
			depth--
			i++
			if depth == 0 {
				return i, true
			}
		case gnQuote:
			j, ok := literalEnd(src, i) // a string, a rune or a raw string
			if !ok {
				return 0, false
			}
			i = j
		case gnSlash:
			j, ok := skipGoComment(src, i)
			if !ok {
				return 0, false
			}
			i = max(j, i+1)
		case gnBadByte:
			return 0, false
		default: // plain bytes, line breaks, `~`
			i++
		}
	}
	return 0, false
}

// goValueMode is the skip mode after the top-level word w: 1 on (var,
// const), 0 off (func, type, import, package), -1 unchanged.
func goValueMode(w []byte) int {
	switch string(w) { // no allocation
	case "var", "const":
		return 1
	case "func", "type", "import", "package":
		return 0
	}
	return -1
}
