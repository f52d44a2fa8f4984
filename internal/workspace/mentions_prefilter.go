package workspace

import (
	"bytes"

	"github.com/clew-lsp/clew-lsp/internal/anchors/symbols"
)

// The mention prefilter: which code files must be parsed to resolve a set
// of mentioned names. A file matters only when its table declares one of
// the names, so a file the test rejects must never declare one; a file it
// keeps costs a parse. Go files get a test that reads the file's layout;
// every other language keeps the word test (the name occurs as a word).

// mayDeclareAny reports whether a file of language lang may declare one of
// the names (set holds them; names is the same, as bytes, for the word
// test of few names).
func mayDeclareAny(lang symbols.Language, text []byte, names [][]byte, set map[string]bool) bool {
	if lang == symbols.Go && mentionPrefilter {
		if keep, ok := goMayDeclareAny(text, set); ok {
			return keep
		}
	}
	return holdsAnyWord(text, names, set)
}

// mentionPrefilter turns the Go layout test on; the soundness tests turn
// it off to compare with the word test alone.
var mentionPrefilter = true

// goMayDeclareAny: the Go walker indexes top-level declarations (functions,
// methods, types, consts, vars) and the fields and methods of struct and
// interface types; it never enters a function body. So a declared name
// sits outside every brace block but struct and interface bodies, and in a
// name's place there: right after `func`, `type`, `var` or `const`, after
// a method's receiver, or leading a line (a grouped spec, a field, an
// interface method), with the names of a list (`a, b int`) and the type
// name of an embedded field (`*pkg.T`) after it. goMayDeclareAny lexes the
// file (comments, strings and runes skipped, brackets matched) and tests
// only the identifiers in those places; keywords are never names there.
// ok is false when the file does not lex cleanly (an unterminated comment,
// string or rune, unmatched brackets, non-ASCII bytes or bytes no Go token
// holds outside strings and comments): a parser's error recovery may then
// read it in ways the layout cannot tell, and the caller falls back to the
// word test.
func goMayDeclareAny(text []byte, set map[string]bool) (keep, ok bool) {
	ok = goNamePlaces(text, func(name []byte, _ bool) bool {
		keep = set[string(name)]
		return !keep
	})
	return keep, ok || keep
}

// goNamePlaces calls visit with every identifier of a Go file that stands
// in a declared name's place (goMayDeclareAny), and whether it is a
// top-level name (not a method's, a field's or an interface method's),
// until visit returns false. ok is false when the file does not lex
// cleanly; visit may have been called before that is known.
func goNamePlaces(text []byte, visit func(name []byte, top bool) bool) (ok bool) {
	// stack holds the open brackets: '(' and '[' ('r' for a receiver's
	// parenthesis), and for braces 't' (a struct or interface body) or '{'
	// (any other block).
	var stack []byte
	other, types := 0, 0 // how many '{' blocks, and type bodies, are open
	var prevWord []byte  // the previous token when it was a word
	declFunc := false    // prevWord is a `func` that declares (it leads a line)
	lead, top := leadName, true
	newline := true // a line break since the previous token
	for i := 0; i < len(text); {
		c := text[i]
		switch {
		case c == ' ' || c == '\t' || c == '\r':
			i++
			continue
		case c == '\n':
			newline = true
			i++
			continue
		case c == '/' && i+1 < len(text) && text[i+1] == '/':
			for i < len(text) && text[i] != '\n' {
				i++
			}
			continue
		case c == '/' && i+1 < len(text) && text[i+1] == '*':
			end := indexFrom(text, i+2, "*/")
			if end < 0 {
				return false
			}
			if bytes.IndexByte(text[i+2:end], '\n') >= 0 {
				newline = true
			}
			i = end + 2
			continue
		}
		if newline && other == 0 {
			lead, top = leadName, types == 0 // a line's first token
		}
		newline = false
		var word []byte
		next, nextTop := leadNone, false
		switch {
		case c == '"' || c == '\'':
			j := i + 1
			for j < len(text) && text[j] != c {
				if text[j] == '\n' {
					return false
				}
				if text[j] == '\\' {
					j++
				}
				j++
			}
			if j >= len(text) {
				return false
			}
			i = j + 1
		case c == '`':
			end := indexFrom(text, i+1, "`")
			if end < 0 {
				return false
			}
			i = end + 1
		case c >= '0' && c <= '9':
			end, clean := symbols.ScanGoNumber(text, i)
			if !clean {
				return false
			}
			i = end
		case c == '#' || c == '$' || c == '?' || c == '@' || c == '\\' || c < ' ':
			return false // no Go token holds these: a parser recovers from them its way
		case c >= 0x80:
			// Non-ASCII outside strings and comments: where a Unicode
			// identifier ends is the parser's call (invalid UTF-8 too).
			return false
		case isWordByte(c):
			j := i
			for j < len(text) && isWordByte(text[j]) {
				if text[j] >= 0x80 {
					return false
				}
				j++
			}
			word = text[i:j]
			i = j
			switch {
			case goKeywords[string(word)]:
				switch string(word) {
				case "func", "type", "var", "const":
					next, nextTop = leadName, types == 0
				}
				if string(word) == "func" {
					declFunc = lead == leadName && other == 0
				}
			case other == 0 && lead == leadName:
				if !visit(word, top) {
					return true
				}
				next, nextTop = leadAfter, top
			}
		case c == ',' || c == '.':
			if lead == leadAfter {
				next, nextTop = leadName, top
			}
			i++
		case c == '*':
			if lead == leadName {
				next, nextTop = leadName, top
			}
			i++
		case c == ';':
			next, nextTop = leadName, types == 0
			i++
		case c == '(' || c == '[':
			pw := string(prevWord)
			switch {
			case c == '(' && pw == "func" && declFunc:
				stack = append(stack, 'r')
			case c == '(' && (pw == "var" || pw == "const" || pw == "type" || pw == "import"):
				stack = append(stack, c)
				next, nextTop = leadName, types == 0
			default:
				stack = append(stack, c)
			}
			i++
		case c == '{':
			if pw := string(prevWord); pw == "struct" || pw == "interface" {
				stack = append(stack, 't')
				types++
				next = leadName
			} else {
				stack = append(stack, '{')
				other++
			}
			i++
		case c == ')' || c == ']' || c == '}':
			if len(stack) == 0 {
				return false
			}
			switch open := stack[len(stack)-1]; {
			case c == ')' && open == 'r':
				next = leadName // a method's name follows its receiver
			case c == ')' && open == '(', c == ']' && open == '[':
			case c == '}' && open == 't':
				types--
			case c == '}' && open == '{':
				other--
			default:
				return false
			}
			stack = stack[:len(stack)-1]
			i++
		default:
			i++
		}
		prevWord, lead, top = word, next, nextTop
	}
	return len(stack) == 0
}

// Where the next identifier stands for goNamePlaces.
const (
	leadNone  = iota // not in a name's place
	leadName         // in a name's place
	leadAfter        // right after a name: a ',' or '.' leads to another
)

// goKeywords are Go's reserved words.
var goKeywords = map[string]bool{
	"break": true, "case": true, "chan": true, "const": true, "continue": true, "default": true,
	"defer": true, "else": true, "fallthrough": true, "for": true, "func": true, "go": true,
	"goto": true, "if": true, "import": true, "interface": true, "map": true, "package": true,
	"range": true, "return": true, "select": true, "struct": true, "switch": true, "type": true, "var": true,
}

func indexFrom(text []byte, from int, s string) int {
	if i := bytes.Index(text[from:], []byte(s)); i >= 0 {
		return from + i
	}
	return -1
}
