package symbols

import (
	"strings"
)

// One table serves TypeScript, TSX and JavaScript: the grammars share node
// names, JavaScript just lacks the type-only ones.
func newTSSpec() *langSpec {
	return &langSpec{
		comments: newSet("comment", "html_comment"),
		atoms:    newSet("string", "template_string", "regex"),
		values:   newSet("string"),
		// prettier adds the semicolons automatic insertion leaves out.
		dropLeaves: newSet(";"),
		ecmascript: true,
		compound:   ecmaCompound,
		norm: func(typ, s string) string {
			switch typ {
			case "string":
				return normQuoted(s)
			case "number":
				return normJSNumber(s)
			case "jsx_text":
				return jsxText(s)
			}
			return s
		},
		walk: func(w *walker, root *tsNode) { w.tsStatements(root, -1) },
	}
}

var tsSpec, tsxSpec, jsSpec = newTSSpec(), newTSSpec(), newTSSpec()

// tsStatements indexes the declarations of a program or namespace body.
func (w *walker) tsStatements(n *tsNode, parent int) {
	for _, c := range w.named(n) {
		w.tsStatement(c, parent)
	}
}

func (w *walker) tsStatement(n *tsNode, parent int) {
	switch n.Type() {
	case "export_statement":
		// `export` is transparent: adding it must not change the hash.
		if d := n.ChildByFieldName("declaration"); d != nil {
			w.tsStatement(d, parent)
		} else if v := n.ChildByFieldName("value"); v != nil && v.ChildByFieldName("name") != nil {
			w.tsStatement(v, parent) // export default class Foo / function foo
		}
	case "ambient_declaration", "expression_statement", "ERROR":
		for _, c := range w.named(n) {
			w.tsStatement(c, parent)
		}
	case "function_declaration", "generator_function_declaration", "function_signature",
		"function_expression", "function", "generator_function":
		i := w.add("function", n, n.ChildByFieldName("name"), n.ChildByFieldName("body"), parent)
		w.tsCallable(i, n)
	case "class_declaration", "abstract_class_declaration", "class":
		body := n.ChildByFieldName("body")
		i := w.add("class", n, n.ChildByFieldName("name"), body, parent)
		w.tsClassBody(body, i)
	case "interface_declaration":
		body := n.ChildByFieldName("body")
		i := w.add("interface", n, n.ChildByFieldName("name"), body, parent)
		w.tsObjectType(body, i)
	case "type_alias_declaration":
		var body *tsNode
		if v := n.ChildByFieldName("value"); v != nil && v.Type() == "object_type" {
			body = v
		}
		i := w.add("type", n, n.ChildByFieldName("name"), body, parent)
		if body != nil {
			w.tsObjectType(body, i)
		}
	case "enum_declaration":
		w.add("enum", n, n.ChildByFieldName("name"), n.ChildByFieldName("body"), parent)
	case "internal_module", "module":
		body := n.ChildByFieldName("body")
		nm := n.ChildByFieldName("name")
		i := w.add("namespace", n, nm, body, parent)
		if nm != nil && nm.Type() == "string" {
			w.decls[i].name = strings.Trim(w.decls[i].name, `'"`)
		}
		if body != nil {
			w.tsStatements(body, i)
		}
	case "lexical_declaration", "variable_declaration":
		w.tsVariables(n, parent)
	}
}

// tsVariables indexes each named declarator. The hash is the keyword plus the
// declarator, so `const a = 1, b = 2` gives two independent hashes.
func (w *walker) tsVariables(n *tsNode, parent int) {
	keyword := "var"
	if k := n.ChildByFieldName("kind"); k != nil {
		keyword = w.text(k)
	}
	var decls []*tsNode
	for _, c := range w.named(n) {
		if c.Type() == "variable_declarator" {
			decls = append(decls, c)
		}
	}
	for _, d := range decls {
		nm := d.ChildByFieldName("name")
		if nm == nil || nm.Type() != "identifier" { // destructuring is unnamed
			continue
		}
		v := d.ChildByFieldName("value")
		kind := "var"
		if keyword == "const" {
			kind = "const"
		}
		var body *tsNode
		if v != nil {
			switch v.Type() {
			case "arrow_function", "function_expression", "function", "generator_function":
				if keyword == "const" {
					kind = "function"
				}
				body = v.ChildByFieldName("body")
			case "class":
				kind, body = "class", v.ChildByFieldName("body")
			}
		}
		i := w.add(kind, d, nm, body, parent)
		x := &w.decls[i]
		x.prefix = []string{keyword}
		if len(decls) == 1 {
			x.spanStart, x.spanEnd = int(n.StartByte()), int(n.EndByte())
		}
		switch kind {
		case "function":
			w.tsCallable(i, v)
		case "class":
			w.tsClassBody(body, i)
		}
	}
}

func (w *walker) tsClassBody(body *tsNode, parent int) {
	for _, m := range w.named(body) {
		switch m.Type() {
		case "ERROR":
			w.tsClassBody(m, parent)
		case "method_definition", "method_signature", "abstract_method_signature":
			nm := m.ChildByFieldName("name")
			kind := "method"
			if w.tsName(nm) == "constructor" {
				kind = "constructor"
			}
			w.tsMember(kind, m, nm, m.ChildByFieldName("body"), parent, true)
		case "public_field_definition", "field_definition":
			nm := m.ChildByFieldName("name")
			if nm == nil {
				nm = m.ChildByFieldName("property")
			}
			var body *tsNode
			if v := m.ChildByFieldName("value"); v != nil && (v.Type() == "arrow_function" || v.Type() == "function_expression") {
				body = v.ChildByFieldName("body")
			}
			w.tsMember("property", m, nm, body, parent, false)
		}
	}
}

// tsObjectType indexes interface and object-type members.
func (w *walker) tsObjectType(body *tsNode, parent int) {
	for _, m := range w.named(body) {
		switch m.Type() {
		case "method_signature":
			w.tsMember("method", m, m.ChildByFieldName("name"), nil, parent, true)
		case "property_signature":
			w.tsMember("property", m, m.ChildByFieldName("name"), nil, parent, false)
		}
	}
}

func (w *walker) tsMember(kind string, m, nm, body *tsNode, parent int, callable bool) {
	name := w.tsName(nm)
	if name == "" {
		return // computed names ([Symbol.iterator]) are not identities
	}
	i := w.add(kind, m, nm, body, parent)
	w.decls[i].name = name
	if callable {
		w.tsCallable(i, m)
	}
}

// tsName is a member's name: identifiers as written, string names unquoted.
func (w *walker) tsName(nm *tsNode) string {
	if nm == nil {
		return ""
	}
	switch nm.Type() {
	case "property_identifier", "private_property_identifier", "identifier", "type_identifier", "number":
		return w.text(nm)
	case "string":
		return strings.Trim(w.text(nm), `'"`)
	}
	return ""
}

func (w *walker) tsCallable(i int, fn *tsNode) {
	w.decls[i].callable = true
	params := fn.ChildByFieldName("parameters")
	if params == nil {
		if p := fn.ChildByFieldName("parameter"); p != nil { // x => x
			w.decls[i].params = []string{collapseSpace(w.text(p))}
		}
		return
	}
	var out []string
	for _, p := range w.named(params) {
		switch p.Type() {
		case "comment", "decorator":
			continue
		case "required_parameter", "optional_parameter":
			if t := p.ChildByFieldName("type"); t != nil {
				typ := strings.TrimSpace(strings.TrimPrefix(collapseSpace(w.text(t)), ":"))
				if p.Type() == "optional_parameter" {
					typ += "?" // `radix?: number` must not collide with `radix: number`
				}
				out = append(out, typ)
				continue
			}
			if pat := p.ChildByFieldName("pattern"); pat != nil {
				out = append(out, collapseSpace(w.text(pat)))
				continue
			}
		case "assignment_pattern":
			out = append(out, collapseSpace(w.text(p.ChildByFieldName("left"))))
			continue
		}
		out = append(out, collapseSpace(w.text(p)))
	}
	w.decls[i].params = out
}
