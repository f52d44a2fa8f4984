package workspace

import (
	"bytes"

	"github.com/clew-lsp/clew-lsp/internal/anchors/symbols"
)

// A file of a language without a declaration lexer is parsed for the
// mentioned names it holds as words. A name it holds only on line-comment
// lines cannot be a declaration's there (the line is a comment; inside a
// block comment or a multi-line string it is no code either), so such
// lines are not read for them: a C file whose comments mention `GOROOT`
// is not parsed for it. The marker is the language's line comment alone
// (`#` is not one in C, where it starts a macro; PHP's `#[` is an
// attribute, so PHP lines are read past `#`).

// lineComment is the line-comment marker of lang, "" when none is known
// (then every line is read).
func lineComment(lang symbols.Language) string {
	switch lang {
	case symbols.C, symbols.CPP, symbols.CSharp, symbols.Java, symbols.JavaScript, symbols.TypeScript, symbols.TSX,
		symbols.Kotlin, symbols.Swift, symbols.Rust, symbols.Scala, symbols.PHP, symbols.Protobuf:
		return "//"
	case symbols.Bash, symbols.Python, symbols.Ruby, symbols.Elixir:
		return "#"
	case symbols.Lua, symbols.SQL:
		return "--"
	}
	return ""
}

// eachCodeWord is eachWord over the lines of text that are not line
// comments of lang (their first bytes after white space are its marker).
func eachCodeWord(lang symbols.Language, text []byte, fn func(word []byte) bool) {
	marker := lineComment(lang)
	if marker == "" {
		eachWord(text, fn)
		return
	}
	stop := false
	for len(text) > 0 && !stop {
		line, rest, _ := bytes.Cut(text, []byte("\n"))
		text = rest
		if bytes.HasPrefix(bytes.TrimLeft(line, " \t\r\f\v"), []byte(marker)) {
			continue
		}
		eachWord(line, func(w []byte) bool {
			if !fn(w) {
				stop = true
				return false
			}
			return true
		})
	}
}
