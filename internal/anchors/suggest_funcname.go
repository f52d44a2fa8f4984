package anchors

import (
	"bytes"

	"github.com/clew-lsp/clew-lsp/internal/anchors/symbols"
)

// A top-level function or method declaration holds one declaration of a
// table: itself (a function's body declares nothing a table lists). Its
// name is the only name FileSuggestions can find close there, so the
// filter asks the close-name test of that word alone, not of every word
// of the body: a body that calls traceAcquire does not make its function
// a suggestion for a lost TryAcquire, and its file need not be parsed for
// it.

// goFuncNameAt is the offset of the name of the function declaration that
// text starts with (`func Name`, `func (r T) Name`), or -1 when text does
// not start with one or its header is not read plainly here (a receiver
// holding a comment or a literal): then every word counts, as before.
func goFuncNameAt(text []byte) int {
	rest, ok := bytes.CutPrefix(text, []byte("func"))
	if !ok || len(rest) == 0 || goWordByte(rest[0]) {
		return -1
	}
	i := symbols.SkipGoSpace(text, len(text)-len(rest))
	if i >= 0 && i < len(text) && text[i] == '(' {
		depth := 0
		for ; i < len(text); i++ {
			switch text[i] {
			case '(':
				depth++
			case ')':
				depth--
			case '/', '"', '\'', '`':
				return -1
			}
			if depth == 0 {
				break
			}
		}
		if i >= len(text) {
			return -1
		}
		i = symbols.SkipGoSpace(text, i+1)
	}
	if i < 0 || i >= len(text) || !(isIdentStart(text[i]) || text[i] >= 0x80) {
		return -1
	}
	return i
}
