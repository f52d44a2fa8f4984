package symbols

import (
	"bytes"
	"sort"
	"strings"
)

// GoDeclNames lists the declarations of a Go file as Parse(Go, src) names
// them — kind, name, qualified name and span — without tree-sitter: a
// small parser reads the top level (package clause, imports, the headers
// of functions and methods, type, const and var specs, struct fields and
// interface methods at any depth) and skips every function body and value
// by matching its brackets. It does not hash: a caller that needs to know
// which files declare a name, and where, pays a lexer's cost instead of a
// parse.
//
// keep, when not nil, is asked each declaration's own name (before the
// overload suffix) and only those it accepts are returned; containers are
// read either way. ok is false when the file is not one the parser is sure
// of — a byte outside ASCII or a byte no Go token holds outside literals
// and comments, an unterminated literal or comment, unbalanced brackets, a
// top level that is not package clause, imports and declarations, or a
// header shape where tree-sitter's reading could differ (`type A [N *
// M]int`, a receiver that is not `(r *T[K])`) — and the caller must parse.
// On a file go/parser accepts, an ok answer is Parse's declarations
// (TestGoDeclNamesMatchesParse over GOROOT/src, FuzzGoDeclNames).
func GoDeclNames(src []byte, keep func(name []byte) bool) (names []GoName, ok bool) {
	p := &goNames{src: src, keep: keep}
	p.next()
	if !p.file() || p.bad {
		return nil, false
	}
	if !p.suffixOverloads() {
		return nil, false
	}
	p.lines()
	return p.out, true
}

// lines fills the line numbers, counting line breaks from offset to
// offset in order.
func (p *goNames) lines() {
	if len(p.out) == 0 {
		return
	}
	type at struct {
		off  int
		line *int
	}
	ats := make([]at, 0, 2*len(p.out))
	for i := range p.out {
		n := &p.out[i]
		ats = append(ats, at{n.StartByte, &n.StartLine}, at{max(n.StartByte, n.EndByte-1), &n.EndLine})
	}
	sort.Slice(ats, func(i, j int) bool { return ats[i].off < ats[j].off })
	line, from := 1, 0
	for _, a := range ats {
		line += bytes.Count(p.src[from:a.off], []byte{'\n'})
		from = a.off
		*a.line = line
	}
}

// GoName is one declaration GoDeclNames found: Decl's fields of the same
// names, without hashes, signature or name offsets.
type GoName struct {
	Kind          string
	Name          string // overload suffix included (`init()` when a file has two)
	QualifiedName string
	Container     string
	StartByte     int
	EndByte       int
	StartLine     int
	EndLine       int
}

// goNames is the parser's state: the current token, the lexer's position
// and whether a line break now inserts a semicolon.
type goNames struct {
	src  []byte
	keep func(name []byte) bool
	out  []GoName

	pos        int
	kind       byte // the current token
	start, end int
	semi       bool // the last token lets a line break end the statement
	// prevEnd is the end of the last token before the current one that is
	// not a `;`: where a declaration the current token ends, ends.
	prevEnd     int
	bad         bool
	callables   []int // indexes into out of functions, methods and interface methods
	emptyParams []bool
	blockStack  []byte
	exprs       bool // skipTo is skipping values, not types
	// spans, when withSpans, is parallel to out: what LexGoDecls hashes.
	withSpans bool
	spans     []goNameSpan
}

// goNameSpan is where the walker's ranges of one GoName are: the name's
// always, the body's for every declaration with one (a function's
// block, a struct's or struct-typed field's field list, an interface
// type), the hash range for functions, methods and type specs only
// (hashable).
type goNameSpan struct {
	hashable           bool
	prefix             string // "type" for a type spec (the walker's prefix)
	hashStart, hashEnd int
	nameStart, nameEnd int
	bodyStart, bodyEnd int // bodyStart < 0: no body
}

// endDecl: a declaration ends with a `;` or the file.
func (p *goNames) endDecl() bool {
	switch p.kind {
	case gnSemi:
		p.next()
		return true
	case gnEOF:
		return !p.bad
	}
	return p.fail()
}

func (p *goNames) file() bool {
	if !p.is("package") {
		return p.fail()
	}
	p.next()
	if !p.ident() {
		return p.fail()
	}
	p.next()
	if !p.endDecl() {
		return false
	}
	for p.kind != gnEOF {
		switch {
		case p.is("import"):
			p.next()
			if p.kind == '(' {
				for p.next(); p.kind != ')'; p.next() {
					if p.kind == gnEOF || p.kind == '(' || p.kind == '{' {
						return p.fail()
					}
				}
				p.next()
			} else if !p.skipTo(false) {
				return false
			}
			if !p.endDecl() {
				return false
			}
		case p.is("func"):
			if !p.funcDecl() {
				return false
			}
		case p.is("type"):
			if !p.group(p.typeSpec) {
				return false
			}
		case p.is("var"), p.is("const"):
			kind := string(p.text())
			if !p.group(func() (int, bool) { return p.valueSpec(kind) }) {
				return false
			}
		default:
			return p.fail()
		}
	}
	return !p.bad
}

// group reads `type`, `var` or `const` and one spec or a parenthesized
// group of them; a lone spec's span is the whole declaration, as the
// walker gives it.
func (p *goNames) group(spec func() (int, bool)) bool {
	start := p.start
	p.next()
	if p.kind != '(' {
		first := len(p.out)
		n, ok := spec()
		if !ok {
			return false
		}
		p.spanAll(first, n, start, p.prevEnd)
		return p.endDecl()
	}
	p.next()
	firsts := []int{}
	counts := []int{}
	for p.kind != ')' {
		if p.kind == gnSemi {
			p.next()
			continue
		}
		firsts = append(firsts, len(p.out))
		n, ok := spec()
		if !ok {
			return false
		}
		counts = append(counts, n)
		if p.kind != gnSemi {
			// tree-sitter's grammar ends every spec of a group, the last
			// one too: `const (A = 1)` is an error there.
			return p.fail()
		}
		p.next()
	}
	p.next()
	if len(firsts) == 1 {
		p.spanAll(firsts[0], counts[0], start, p.prevEnd)
	}
	return p.endDecl()
}

// spanAll gives the n spec declarations recorded from out[first] (not
// their members) the declaration's span.
func (p *goNames) spanAll(first, n int, start, end int) {
	for i := first; i < len(p.out) && n > 0; i++ {
		if p.out[i].Container == "" {
			p.out[i].StartByte, p.out[i].EndByte = start, end
			n--
		}
	}
}

// funcDecl reads a function or method declaration, skipping its body.
func (p *goNames) funcDecl() bool {
	start := p.start
	p.next()
	recv := ""
	method := p.kind == '('
	if method {
		r, ok := p.receiver()
		if !ok {
			return false
		}
		recv = r
	}
	if !p.ident() {
		return p.fail()
	}
	name := p.text()
	p.next()
	if !method && p.kind == '[' {
		if !p.skipGroup() {
			return false
		}
	}
	if p.kind != '(' {
		return p.fail()
	}
	emptyParams := p.pos < len(p.src) && p.emptyParen()
	if !p.skipGroup() {
		return false
	}
	// The result, then the body: a `{` is the body's unless `struct` or
	// `interface` opens a type with it.
	for {
		switch {
		case p.kind == '{':
			body := p.start
			if !p.skipBlock() {
				return false
			}
			p.next()
			p.emitFunc(method, recv, name, start, p.prevEnd, emptyParams, body)
			return p.endDecl()
		case p.kind == gnSemi || p.kind == gnEOF:
			p.emitFunc(method, recv, name, start, p.prevEnd, emptyParams, -1)
			return p.endDecl()
		case p.is("struct") || p.is("interface"):
			p.next()
			if p.kind == '{' {
				if !p.skipBlock() {
					return false
				}
				p.next()
			}
		case p.kind == '(' || p.kind == '[':
			if !p.skipGroup() {
				return false
			}
		case p.kind == ')' || p.kind == ']' || p.kind == '}':
			return p.fail()
		default:
			p.next()
		}
	}
}

// emptyParen: the current `(` is followed by `)` (comments and spaces
// between).
func (p *goNames) emptyParen() bool {
	s := p.save()
	p.next()
	empty := p.kind == ')'
	p.restore(s)
	return empty
}

func (p *goNames) emitFunc(method bool, recv string, name []byte, start, end int, emptyParams bool, body int) {
	kind, container := "function", ""
	if method {
		kind, container = "method", recv
	}
	if p.emit(kind, container, name, start, end) {
		p.callables = append(p.callables, len(p.out)-1)
		p.emptyParams = append(p.emptyParams, emptyParams)
		if p.withSpans {
			sp := &p.spans[len(p.spans)-1]
			sp.hashable, sp.hashStart, sp.hashEnd = true, start, end
			if body >= 0 {
				sp.bodyStart, sp.bodyEnd = body, end
			}
		}
	}
}

// receiver reads `(r *T[K])`, `(T)`, `(r (*T))` and returns T; any other
// shape is refused.
func (p *goNames) receiver() (string, bool) {
	p.next()
	if p.ident() {
		s := p.save()
		p.next()
		named := p.kind == gnIdent || p.kind == '*' || p.kind == '('
		if !named {
			p.restore(s)
		}
	}
	paren := p.kind == '('
	if paren {
		p.next()
	}
	if p.kind == '*' {
		p.next()
	}
	if !p.ident() {
		return "", p.fail()
	}
	recv := string(p.text())
	p.next()
	if p.kind == '[' {
		// A receiver's type parameters: names only (`T[K, V]`).
		for {
			p.next()
			if !p.ident() {
				return "", p.fail()
			}
			p.next()
			if p.kind == ']' {
				break
			}
			if p.kind != ',' {
				return "", p.fail()
			}
		}
		p.next()
	}
	if paren {
		if p.kind != ')' {
			return "", p.fail()
		}
		p.next()
	}
	if p.kind != ')' {
		return "", p.fail()
	}
	p.next()
	return recv, true
}

// typeSpec reads `Name [params] [=] Type` and returns how many spec
// declarations it recorded (1).
func (p *goNames) typeSpec() (int, bool) {
	if !p.ident() {
		return 0, p.fail()
	}
	name, start := p.text(), p.start
	p.next()
	params := false
	if p.kind == '[' {
		var sure bool
		params, sure = p.typeParamsAhead()
		if !sure {
			return 0, p.fail()
		}
		if params && !p.skipGroup() {
			return 0, false
		}
	}
	alias := p.kind == '='
	if alias {
		if params {
			return 0, p.fail() // a generic alias: tree-sitter reads a type_spec with an error
		}
		p.next()
	}
	if !p.typeStarts() {
		return 0, p.fail()
	}
	kind := "type"
	if !alias && (p.is("struct") || p.is("interface")) && p.peekKind() == '{' {
		kind = string(p.text())
	}
	at := len(p.out)
	kept := p.emit(kind, "", name, start, 0)
	qn := string(name)
	body := -1
	switch kind {
	case "struct":
		p.next()
		body = p.start // the field list's `{`
		if !p.fields(qn) {
			return 0, false
		}
	case "interface":
		body = p.start // the interface type, from its keyword
		p.next()
		if !p.methods(qn) {
			return 0, false
		}
	default:
		if !p.skipTo(true) {
			return 0, false
		}
	}
	if kept {
		p.out[at].EndByte = p.prevEnd
		if p.withSpans {
			sp := &p.spans[at]
			sp.hashable, sp.prefix, sp.hashStart, sp.hashEnd = true, "type", start, p.prevEnd
			if body >= 0 {
				sp.bodyStart, sp.bodyEnd = body, p.prevEnd
			}
		}
		return 1, true
	}
	return 0, true
}

// typeParamsAhead tells `type A[T any] …` (type parameters) from `type A
// [N]T` (an array) at the `[`; sure is false where the two readings are
// close (`[N *M]`, `[a[i]]`, `[f(x)]`).
func (p *goNames) typeParamsAhead() (params, sure bool) {
	s := p.save()
	defer p.restore(s)
	p.next()
	if !p.ident() {
		return false, p.kind != gnEOF
	}
	p.next()
	switch p.kind {
	case gnIdent, ',', '~':
		return true, true
	case '*', '[', '(':
		return false, false
	case gnEOF:
		return false, false
	}
	return false, true
}

// typeStarts: the current token can begin a type.
func (p *goNames) typeStarts() bool {
	switch p.kind {
	case gnIdent:
		if !isKeyword(p.text()) {
			return true
		}
		return p.is("func") || p.is("map") || p.is("chan") || p.is("struct") || p.is("interface")
	case '*', '[', '(', '<':
		return true
	}
	return false
}

func (p *goNames) peekKind() byte {
	s := p.save()
	p.next()
	k := p.kind
	p.restore(s)
	return k
}

// fields reads a struct body from its `{`: each field, by name (`A, B
// int`) or, embedded, by its type's name (`*pkg.T[K]`); a field of struct
// type is the container of its own fields.
func (p *goNames) fields(container string) bool {
	if p.kind != '{' {
		return p.fail()
	}
	p.next()
	for {
		switch {
		case p.kind == '}':
			p.next()
			return true
		case p.kind == gnSemi:
			p.next()
			continue
		case p.kind == '*':
			start := p.start
			p.next()
			name, ok := p.embedded()
			if !ok {
				return false
			}
			p.emit("field", container, name, start, p.prevEnd)
		case p.ident():
			start := p.start
			first := p.text()
			p.next()
			switch p.kind {
			case ',':
				names := [][]byte{first}
				for p.kind == ',' {
					p.next()
					if !p.ident() {
						return p.fail()
					}
					names = append(names, p.text())
					p.next()
				}
				if !p.fieldType(container, names, start) {
					return false
				}
			case '.':
				p.next()
				if !p.ident() {
					return p.fail()
				}
				name := p.text()
				p.next()
				if !p.embeddedRest() {
					return false
				}
				p.emit("field", container, name, start, p.prevEnd)
			case gnSemi, '}', gnLit:
				if p.kind == gnLit && p.src[p.start] != '"' && p.src[p.start] != '`' {
					return p.fail()
				}
				if !p.embeddedRest() {
					return false
				}
				p.emit("field", container, first, start, p.prevEnd)
			case '[':
				// `A[K]` embedded or `A [N]T` a field: what follows the
				// brackets tells.
				s := p.save()
				if !p.skipGroup() {
					return false
				}
				if p.kind == gnSemi || p.kind == '}' || p.kind == gnLit {
					if !p.embeddedRest() {
						return false
					}
					p.emit("field", container, first, start, p.prevEnd)
					break
				}
				p.restore(s)
				if !p.fieldType(container, [][]byte{first}, start) {
					return false
				}
			default:
				if !p.fieldType(container, [][]byte{first}, start) {
					return false
				}
			}
		default:
			return p.fail()
		}
		if p.kind != gnSemi && p.kind != '}' {
			return p.fail()
		}
	}
}

// embedded reads an embedded type after `*`: `T`, `pkg.T`, with type
// arguments and a tag.
func (p *goNames) embedded() ([]byte, bool) {
	if !p.ident() {
		return nil, p.fail()
	}
	name := p.text()
	p.next()
	if p.kind == '.' {
		p.next()
		if !p.ident() {
			return nil, p.fail()
		}
		name = p.text()
		p.next()
	}
	return name, p.embeddedRest()
}

// embeddedRest reads an embedded field's type arguments and tag.
func (p *goNames) embeddedRest() bool {
	if p.kind == '[' && !p.skipGroup() {
		return false
	}
	if p.kind == gnLit {
		if c := p.src[p.start]; c != '"' && c != '`' {
			return p.fail()
		}
		p.next()
	}
	if p.kind != gnSemi && p.kind != '}' {
		return p.fail()
	}
	return true
}

// fieldType reads the type (and tag) of the named fields starting at
// start; a struct type's fields are read once per name, each name their
// container.
func (p *goNames) fieldType(container string, names [][]byte, start int) bool {
	if p.is("struct") && p.peekKind() == '{' {
		p.next()
		s := p.save()
		var ats []int
		for k, n := range names {
			if k > 0 {
				p.restore(s)
			}
			at := len(p.out)
			kept := p.emit("field", container, n, start, 0)
			body := p.start // the field list's `{`
			if !p.fields(qualify(container, string(n))) {
				return false
			}
			if kept {
				ats = append(ats, at)
				if p.withSpans {
					p.spans[at].bodyStart, p.spans[at].bodyEnd = body, p.prevEnd
				}
			}
		}
		if p.kind == gnLit {
			p.next()
		}
		for _, at := range ats {
			p.out[at].EndByte = p.prevEnd
		}
		return true
	}
	at := len(p.out)
	for _, n := range names {
		p.emit("field", container, n, start, 0)
	}
	if !p.skipTo(true) {
		return false
	}
	for i := at; i < len(p.out); i++ {
		p.out[i].EndByte = p.prevEnd
	}
	return true
}

// methods reads an interface body from its `{`: `Name(…) …` is a method;
// embedded types and type sets are not declarations.
func (p *goNames) methods(container string) bool {
	if p.kind != '{' {
		return p.fail()
	}
	p.next()
	for {
		switch {
		case p.kind == '}':
			p.next()
			return true
		case p.kind == gnSemi:
			p.next()
			continue
		case p.ident() && p.peekKind() == '(':
			name, start := p.text(), p.start
			p.next()
			empty := p.emptyParen()
			at := len(p.out)
			kept := p.emit("method", container, name, start, 0)
			if !p.skipGroup() || !p.skipTo(true) {
				return false
			}
			if kept {
				p.out[at].EndByte = p.prevEnd
				p.callables = append(p.callables, at)
				p.emptyParams = append(p.emptyParams, empty)
			}
		default:
			if !p.skipTo(true) {
				return false
			}
		}
		if p.kind != gnSemi && p.kind != '}' {
			return p.fail()
		}
	}
}

// valueSpec reads `a, b [Type] [= values]` of a const or var declaration;
// `_` is no name.
func (p *goNames) valueSpec(kind string) (int, bool) {
	if !p.ident() {
		return 0, p.fail()
	}
	start := p.start
	at := len(p.out)
	for {
		if name := p.text(); string(name) != "_" {
			p.emit(kind, "", name, start, 0)
		}
		p.next()
		if p.kind != ',' {
			break
		}
		if kind == "const" {
			// tree-sitter labels a const name list's commas as names too,
			// and the walker indexes them.
			p.emit(kind, "", p.text(), start, 0)
		}
		p.next()
		if !p.ident() {
			return 0, p.fail()
		}
	}
	if kind == "const" && p.kind != gnSemi && p.kind != '=' && p.kind != ')' {
		// A typed const has a value in tree-sitter's grammar: `const A T`
		// is an error there.
		if !p.skipType() || p.kind != '=' {
			return 0, p.fail()
		}
	}
	p.exprs = true
	ok := p.skipTo(true)
	p.exprs = false
	if !ok {
		return 0, false
	}
	for i := at; i < len(p.out); i++ {
		p.out[i].EndByte = p.prevEnd
	}
	return len(p.out) - at, true
}

// emit records a declaration keep accepts.
func (p *goNames) emit(kind, container string, name []byte, start, end int) bool {
	if p.keep != nil && !p.keep(name) {
		return false
	}
	n := string(name)
	p.out = append(p.out, GoName{Kind: kind, Name: n, QualifiedName: qualify(container, n), Container: container,
		StartByte: start, EndByte: end})
	if p.withSpans {
		// name is always a slice of src: where it starts is how much
		// shorter its capacity is.
		at := cap(p.src) - cap(name)
		p.spans = append(p.spans, goNameSpan{nameStart: at, nameEnd: at + len(name), bodyStart: -1})
	}
	return true
}

func qualify(container, name string) string {
	if container == "" {
		return name
	}
	return container + "." + name
}

// suffixOverloads gives same-kind, same-name callables their parameter
// types as the walker does; only an empty list (`init()`) is known here,
// so other overloads are refused.
func (p *goNames) suffixOverloads() bool {
	count := map[string]int{}
	for _, i := range p.callables {
		count[p.out[i].Kind+" "+p.out[i].QualifiedName]++
	}
	for k, i := range p.callables {
		n := &p.out[i]
		if count[n.Kind+" "+n.QualifiedName] < 2 {
			continue
		}
		if !p.emptyParams[k] {
			return false
		}
		n.Name += "()"
		n.QualifiedName += "()"
	}
	return true
}

// SortGoNames orders names as Table.Decls are ordered (by start, then
// end, kind and qualified name), for comparisons.
func SortGoNames(names []GoName) {
	sort.Slice(names, func(i, j int) bool {
		a, b := names[i], names[j]
		if a.StartByte != b.StartByte {
			return a.StartByte < b.StartByte
		}
		if a.EndByte != b.EndByte {
			return a.EndByte < b.EndByte
		}
		if a.Kind != b.Kind {
			return a.Kind < b.Kind
		}
		return strings.Compare(a.QualifiedName, b.QualifiedName) < 0
	})
}
