package symbols

import (
	"strings"
	"unicode/utf8"

	sitter "github.com/smacker/go-tree-sitter"
)

// token is one hash token with the byte span (in the parsed, BOM-less source)
// of the node it came from.
type token struct {
	text       string
	start, end int
	v2         bool // shaped by a rule of hash scheme 2 (see Decl.SchemeSensitive)
}

// langSpec is what the generic machinery needs to know about a grammar.
type langSpec struct {
	comments   set                        // node types dropped with their subtree
	atoms      set                        // node types that are one token (string literals)
	dropLeaves set                        // leaf texts dropped: optional statement terminators
	oneTuple   set                        // parents in which a lone element's trailing comma is meaning, not format
	blocks     bool                       // Python: a block's end is a token (indentation is structure)
	values     set                        // scheme 2: string literal types compared by value (escapes resolved)
	docstrings bool                       // Python: drop the first string statement of a body
	ecmascript bool                       // JS/TS: undo prettier's arrow parens, quoted keys, `,` member separators
	compound   set                        // expressions that get canonical parentheses as operands (see operand)
	norm       func(typ, s string) string // per-language token normalisation; may be nil
	walk       func(w *walker, root *tsNode)
}

type set map[string]bool

func newSet(items ...string) set {
	s := make(set, len(items))
	for _, it := range items {
		s[it] = true
	}
	return s
}

// Node classes, precomputed per grammar symbol so the hot loop needs no
// type-name strings.
const (
	clsPlain uint8 = iota
	clsComment
	clsAtom
	clsStatement // Python expression_statement: may be a docstring
)

// errorSymbol is tree-sitter's ts_builtin_sym_error.
const errorSymbol = 0xFFFF

// symbolTable maps every symbol of a grammar to its class and type name.
type symbolTable struct {
	id      uint8 // index in symbolTables, what a flattened node carries
	class   []uint8
	name    []string
	fields  []string          // field names by id, see buildFields
	fieldID map[string]uint16 // and back
	value   []bool            // by symbol: the spec compares its tokens by value (langSpec.values)
	dropMax int               // the longest of the spec's dropLeaves: longer leaves skip the lookup
	drop1   [256]bool         // the one-byte dropLeaves
}

func buildSymbols(spec *langSpec, g *sitter.Language) *symbolTable {
	n := int(g.SymbolCount())
	st := &symbolTable{class: make([]uint8, n), name: make([]string, n), value: make([]bool, n)}
	st.fields, st.fieldID = buildFields(g)
	for leaf := range spec.dropLeaves {
		st.dropMax = max(st.dropMax, len(leaf))
		if len(leaf) == 1 {
			st.drop1[leaf[0]] = true
		}
	}
	for i := 0; i < n; i++ {
		sym := sitter.Symbol(i)
		name := g.SymbolName(sym)
		st.name[i] = name
		st.value[i] = spec.values[name]
		if g.SymbolType(sym) != sitter.SymbolTypeRegular {
			continue // an anonymous keyword `string` is not a string literal
		}
		switch {
		case spec.comments[name]:
			st.class[i] = clsComment
		case spec.atoms[name]:
			st.class[i] = clsAtom
		case spec.docstrings && name == "expression_statement":
			st.class[i] = clsStatement
		}
	}
	return st
}

// frame is an ancestor of the node the cursor is on. Asking tree-sitter for
// a parent or a previous sibling is linear in the width of the tree, so the
// walk keeps what it needs on its own stack.
type frame struct {
	node    *tsNode
	typ     string
	docHost bool // Python: a module, or the block of a def or class
	seen    bool // a statement (not a comment) has been seen among the children
	arrow   bool // JS: the `=>` of this arrow function has been passed
	idx     int  // children visited so far
	closeAt int  // JS: ≥ 0 when a canonical ")" is due at this byte on leaving the node
	inside  bool // scheme 2: inside a string with interpolations, tokenised piece by piece
}

// tokenArrays keeps token arrays of up to 64Ki tokens (2.5 MiB) between
// parses; releaseTokens gives one back.
var tokenArrays = freeList[token]{maxKept: 1 << 16}

// releaseTokens gives the array of toks (collectTokens') back; nothing of
// it may be used afterwards. Cleared, it holds no text of this file.
func releaseTokens(toks []token) {
	clear(toks)
	tokenArrays.put(toks)
}

// collectTokens walks the whole tree once, iteratively (deeply nested input
// must not exhaust the stack), and returns the hash tokens in source order
// plus the number of ERROR and MISSING nodes seen. releaseTokens may
// recycle the array once the tokens are no longer used.
func collectTokens(spec *langSpec, tree *flatTree, src string) ([]token, int) {
	toks := tokenArrays.get(len(src)/4 + 16)
	keep := map[int]bool{} // indexes of commas that must survive trailing-comma removal
	errs := 0
	st := tree.root().symbols()
	stack := make([]frame, 0, 64)
	n := tree.root()
	for {
		sym := int(n.Symbol())
		class, typ, value := clsPlain, "", false
		if sym < len(st.class) {
			class, typ, value = st.class[sym], st.name[sym], st.value[sym]
		} else {
			if sym == errorSymbol {
				errs++
			}
			value = spec.values[typ]
		}
		var parent *frame
		if len(stack) > 0 {
			parent = &stack[len(stack)-1]
		}
		idx := 0
		if parent != nil {
			idx = parent.idx
			parent.idx++
		}
		docstring := false
		if parent != nil && parent.docHost && class != clsComment {
			docstring = !parent.seen && class == clsStatement && isLoneString(n)
			parent.seen = true
		}
		inside := -1 // scheme 2: where this node's tokens start, inside an interpolated string
		if parent != nil && parent.inside {
			inside = len(toks)
		}
		switch {
		case class == clsComment, docstring:
		case class == clsAtom && spec.blocks || class == clsAtom && spec.ecmascript:
			if hasInterpolation(n) {
				// Scheme 2: an f-string or template literal is tokenised
				// inside, so re-spacing or re-quoting an expression in it is
				// layout, as it is anywhere else.
				stack = append(stack, frame{node: n, typ: typ, closeAt: -1, inside: true})
				n = n.firstChild()
				continue
			}
			fallthrough
		case class == clsAtom:
			if s, e := clampSpan(int(n.StartByte()), int(n.EndByte()), len(src)); s < e {
				text := src[s:e]
				if spec.ecmascript && idx == 0 && parent != nil && parent.typ == "pair" {
					text = unquoteKey(text) // {'a': 1} is {a: 1}
				}
				toks = appendTok(toks, spec, typ, value, text, s, e)
			}
		case n.hasKids():
			host := false
			if spec.docstrings {
				host = typ == "module" || typ == "block" && parent != nil &&
					(parent.typ == "function_definition" || parent.typ == "class_definition")
			}
			f := frame{node: n, typ: typ, docHost: host, closeAt: -1, inside: parent != nil && parent.inside}
			if spec.compound[typ] && operand(stack) {
				s, e := clampSpan(int(n.StartByte()), int(n.EndByte()), len(src))
				if s < e {
					// The canonical ")" is placed just past the node, so it
					// never counts inside a body that ends where the node
					// ends (an arrow function's block, clewwiki D-08).
					toks = append(toks, token{text: "(", start: s, end: s + 1})
					f.closeAt = e
				}
			}
			stack = append(stack, f)
			n = n.firstChild()
			continue
		default: // a leaf
			s, e := clampSpan(int(n.StartByte()), int(n.EndByte()), len(src))
			if s >= e {
				if n.IsMissing() {
					errs++
				}
				break
			}
			text := src[s:e]
			if parent != nil && parent.inside && (typ == "string_content" || typ == "string_fragment") {
				// A literal piece of an interpolated string: every byte is
				// meaning, spaces included; the marker keeps it a token.
				toks = append(toks, token{text: "\x00str" + text, start: s, end: e}) // insideMark is added below
				break
			}
			if typ != "jsx_text" && !asciiSolid(text) {
				// Some lexers (JSX, Lua) fold the layout before a token into
				// it; the token starts where its text does.
				trimmed := strings.TrimLeft(text, " \t\r\n\f\v")
				s += len(text) - len(trimmed)
				text = strings.TrimSpace(trimmed)
			}
			if len(text) == 1 && st.drop1[text[0]] || len(text) > 1 && len(text) <= st.dropMax && spec.dropLeaves[text] {
				break
			}
			// `(a,)` is a one-element tuple, not `(a)`: that comma is meaning.
			if text == "," && parent != nil && spec.oneTuple[parent.typ] && parent.node.NamedChildCount() == 1 {
				keep[len(toks)] = true
			}
			// Scheme 2: `x[1,]` indexes with the tuple (1,), not with 1.
			if text == "," && parent != nil && spec.blocks && parent.typ == "subscript" && parent.node.NamedChildCount() == 2 {
				keep[len(toks)] = true
				toks = append(toks, token{text: ",", start: s, end: e, v2: true})
				break
			}
			if spec.ecmascript && parent != nil {
				if (text == "(" || text == ")") && parent.typ == "parenthesized_expression" && shortCircuits(stack) {
					// Scheme 2: `(a?.b).c` is not `a?.b.c` — the parentheses end
					// what the optional chain short-circuits.
					toks = append(toks, token{text: text, start: s, end: e, v2: true})
					break
				}
				toks = ecmaLeaf(toks, spec, parent, typ, value, text, s, e)
				break
			}
			if spec.compound != nil && parent != nil && parent.typ == "parenthesized_expression" && (text == "(" || text == ")") {
				break // see operand
			}
			toks = appendTok(toks, spec, typ, value, text, s, e)
		}
		for i := max(inside, 0); inside >= 0 && i < len(toks); i++ {
			// Marked as inside a string: text scans (the rename prefilter)
			// skip string literals, so these are not words of the code.
			toks[i].v2, toks[i].text = true, insideMark+toks[i].text
		}
		for !n.hasNext() {
			if n.isRoot() {
				return dropTrailingCommas(toks, keep), errs
			}
			n = n.parent()
			if f := stack[len(stack)-1]; f.closeAt >= 0 {
				toks = append(toks, token{text: ")", start: f.closeAt, end: f.closeAt + 1})
			} else if spec.blocks && f.typ == "block" {
				// Scheme 2: where a block ends is meaning. `if c: a` then `b`
				// is not `if c: a; b`, though the leaves are the same.
				e := min(int(f.node.EndByte()), len(src))
				toks = append(toks, token{text: dedentToken, start: e, end: e, v2: true})
			}
			stack = stack[:len(stack)-1]
		}
		n = n.nextSibling()
	}
}

// prettier and black print parentheses from the syntax tree alone: they drop
// redundant ones, `(x) + (y)`, and add clarifying or wrapping ones,
// `(a && b) || c`. So the parentheses of a parenthesized_expression are not
// tokens; instead every compound expression that is an operand of another
// expression is wrapped in a canonical pair, which keeps `(a + b) * c` apart
// from `a + b * c`.
var ecmaCompound = newSet("binary_expression", "unary_expression", "update_expression",
	"ternary_expression", "assignment_expression", "augmented_assignment_expression",
	"sequence_expression", "arrow_function", "function_expression", "function",
	"await_expression", "yield_expression", "as_expression", "satisfies_expression",
	"object", "class", "new_expression")

var pyCompound = newSet("binary_operator", "boolean_operator", "comparison_operator",
	"not_operator", "unary_operator", "conditional_expression", "lambda", "await",
	"named_expression")

// operand: the node about to be entered sits inside an expression, looking
// through source parentheses.
func operand(stack []frame) bool {
	for i := len(stack) - 1; i >= 0; i-- {
		t := stack[i].typ
		if t == "parenthesized_expression" {
			continue
		}
		return !(strings.HasSuffix(t, "_statement") || t == "program" || t == "statement_block" ||
			t == "module" || t == "block" || t == "ERROR")
	}
	return false
}

// hasInterpolation: a Python f-string or a JS template literal with an
// embedded expression.
func hasInterpolation(n *tsNode) bool {
	for c := n.firstChild(); c != nil; c = c.nextSibling() {
		switch c.Type() {
		case "interpolation", "template_substitution":
			return true
		}
	}
	return false
}

// insideMark prefixes the tokens of an interpolated string.
const insideMark = "\x00in:"

// dedentToken marks the end of a Python block; it cannot be a source token.
const dedentToken = "\x00dedent"

// shortCircuits: the innermost frame is a parenthesized expression that is
// the object of a member access, call or subscript, and holds an optional
// chain at its top: its parentheses stop the short-circuit, so they are
// meaning, not layout.
func shortCircuits(stack []frame) bool {
	if len(stack) < 2 {
		return false
	}
	paren, outer := stack[len(stack)-1], stack[len(stack)-2]
	switch outer.typ {
	case "member_expression", "call_expression", "subscript_expression":
	default:
		return false
	}
	if outer.idx != 1 { // the parenthesized expression is not the object
		return false
	}
	inner := paren.node.firstNamedChild()
	for inner != nil {
		switch inner.Type() {
		case "member_expression", "call_expression", "subscript_expression":
		default:
			return false
		}
		for c := inner.firstChild(); c != nil; c = c.nextSibling() {
			if c.Type() == "optional_chain" {
				return true
			}
		}
		inner = inner.firstNamedChild()
	}
	return false
}

// ecmaLeaf undoes what prettier rewrites in JS/TS leaves.
func ecmaLeaf(toks []token, spec *langSpec, parent *frame, typ string, value bool, text string, s, e int) []token {
	switch {
	case parent.typ == "parenthesized_expression" && (text == "(" || text == ")"):
		return toks // grouping is re-emitted canonically, see operand
	case text == "," && (parent.typ == "object_type" || parent.typ == "interface_body"):
		return toks // a member separator: prettier prints `;`, which is dropped
	case text == "=>" && parent.typ == "arrow_function":
		parent.arrow = true
	case typ == "identifier" && parent.typ == "arrow_function" && !parent.arrow:
		// `x => …` is `(x) => …`: prettier adds the parentheses.
		return append(toks, token{text: "(", start: s, end: s + 1}, token{text: text, start: s, end: e}, token{text: ")", start: e - 1, end: e})
	}
	return appendTok(toks, spec, typ, value, text, s, e)
}

// appendTok appends the token of a leaf or atom of type typ; value is
// spec.values[typ].
func appendTok(toks []token, spec *langSpec, typ string, value bool, text string, s, e int) []token {
	if strings.IndexByte(text, '\r') >= 0 {
		text = strings.ReplaceAll(text, "\r\n", "\n")
	}
	if spec.norm != nil {
		text = spec.norm(typ, text)
	}
	if !asciiSolid(text) && strings.TrimSpace(text) == "" {
		return toks
	}
	v2 := false
	if value {
		text, v2 = decodeLiteral(text)
	}
	return append(toks, token{text: text, start: s, end: e, v2: v2})
}

// asciiSolid: s starts and ends with an ASCII byte that is not white
// space, so strings.TrimSpace and a TrimLeft of ASCII space leave it as it
// is. Most tokens are; the test saves those calls.
func asciiSolid(s string) bool {
	if s == "" {
		return false
	}
	a, z := s[0], s[len(s)-1]
	return a < utf8.RuneSelf && z < utf8.RuneSelf && !asciiSpace(a) && !asciiSpace(z)
}

func asciiSpace(b byte) bool {
	return b == ' ' || b == '\t' || b == '\n' || b == '\v' || b == '\f' || b == '\r'
}

// dropTrailingCommas removes a "," directly before a closing bracket: the
// formatters add and remove them when they wrap lines.
func dropTrailingCommas(toks []token, keep map[int]bool) []token {
	out := toks[:0]
	for i, t := range toks {
		if t.text == "," && !keep[i] && i+1 < len(toks) {
			switch toks[i+1].text {
			case ")", "]", "}":
				continue
			}
		}
		out = append(out, t)
	}
	clear(toks[len(out):]) // what was dropped holds no text of the file
	return out
}

// isLoneString: an expression statement that is only a string literal.
func isLoneString(n *tsNode) bool {
	if n.NamedChildCount() != 1 {
		return false
	}
	switch n.firstNamedChild().Type() {
	case "string", "concatenated_string":
		return true
	}
	return false
}

func clampSpan(s, e, n int) (int, int) {
	if s < 0 {
		s = 0
	}
	if e > n {
		e = n
	}
	if s > e {
		s = e
	}
	return s, e
}
