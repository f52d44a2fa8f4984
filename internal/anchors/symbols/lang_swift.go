package symbols

import (
	"strings"
)

var swiftSpec = &langSpec{
	comments:   newSet("comment", "multiline_comment"),
	atoms:      newSet("line_string_literal", "multi_line_string_literal", "raw_string_literal"),
	dropLeaves: newSet(";"),
	norm: func(typ, s string) string {
		if typ == "multi_line_string_literal" {
			return dedent(s) // Swift strips the indentation of the closing delimiter
		}
		return s
	},
	walk: func(w *walker, root *tsNode) { w.swiftMembers(root, -1, nil) },
}

// swiftMembers indexes a file or a type body. scope carries an extension's
// type name: its members are members of that type.
func (w *walker) swiftMembers(body *tsNode, parent int, scope []string) {
	inType := parent >= 0 || len(scope) > 0
	for _, n := range w.named(body) {
		var i int
		switch n.Type() {
		case "class_declaration", "protocol_declaration":
			kind := "protocol"
			if dk := n.ChildByFieldName("declaration_kind"); dk != nil {
				kind = w.text(dk)
			}
			b := n.ChildByFieldName("body")
			switch kind {
			case "extension":
				// Not indexed: a container named by the extended type (D-06).
				name := collapseSpace(w.text(n.ChildByFieldName("name")))
				if name != "" {
					w.swiftMembers(b, parent, append(append([]string(nil), scope...), name))
				}
				continue
			case "actor":
				kind = "class"
			case "class", "struct", "enum", "protocol":
			default:
				kind = "class"
			}
			i = w.add(kind, n, n.ChildByFieldName("name"), b, parent)
			w.decls[i].scope = scope
			w.swiftMembers(b, i, nil)
			continue
		case "function_declaration", "protocol_function_declaration":
			kind := "function"
			if inType {
				kind = "method"
			}
			i = w.add(kind, n, n.ChildByFieldName("name"), n.ChildByFieldName("body"), parent)
			w.swiftLabels(i, n)
		case "init_declaration":
			i = w.add("constructor", n, n.ChildByFieldName("name"), n.ChildByFieldName("body"), parent)
			w.swiftLabels(i, n)
		case "deinit_declaration":
			i = w.add("method", n, nil, n.ChildByFieldName("body"), parent)
			w.swiftKeywordName(i, n, "deinit")
		case "subscript_declaration":
			i = w.add("method", n, nil, w.firstOfType(n, "computed_property"), parent)
			w.swiftKeywordName(i, n, "subscript")
			w.swiftLabels(i, n)
		case "property_declaration", "protocol_property_declaration":
			w.swiftProperty(n, parent, scope)
			continue
		case "typealias_declaration", "associatedtype_declaration":
			i = w.add("type", n, n.ChildByFieldName("name"), nil, parent)
		case "ERROR":
			w.swiftMembers(n, parent, scope) // what parses still resolves
			continue
		default:
			continue
		}
		w.decls[i].scope = scope
	}
}

// swiftLabels names a callable by its argument labels: blend(first:second:),
// move(_:), stop(). The bare name is what an overload suffix replaces.
func (w *walker) swiftLabels(i int, n *tsNode) {
	d := &w.decls[i]
	var labels, types []string
	for _, p := range w.named(n) {
		if p.Type() != "parameter" {
			continue
		}
		label := w.text(p.ChildByFieldName("external_name"))
		if label == "" {
			label = w.text(p.ChildByFieldName("name"))
		}
		labels = append(labels, label+":")
		t := w.text(p)
		if c := strings.IndexByte(t, ':'); c >= 0 {
			t = t[c+1:]
		}
		types = append(types, collapseSpace(t))
	}
	d.base = d.name
	d.name = d.name + "(" + strings.Join(labels, "") + ")"
	d.callable = true
	d.params = types
}

// swiftKeywordName names deinit/subscript after their keyword token.
func (w *walker) swiftKeywordName(i int, n *tsNode, kw string) {
	d := &w.decls[i]
	d.name = kw
	for _, k := range w.kids(n) {
		if !k.n.IsNamed() && w.text(k.n) == kw {
			d.nameStart, d.nameEnd = int(k.n.StartByte()), int(k.n.EndByte())
			return
		}
	}
}

// swiftProperty indexes each bound name of `let a = 1, b = 2`; a computed
// property or its observers are its body.
func (w *walker) swiftProperty(n *tsNode, parent int, scope []string) {
	body := n.ChildByFieldName("computed_value")
	if body == nil {
		body = w.firstOfType(n, "computed_property", "willset_didset_block", "protocol_property_requirements")
	}
	for _, k := range w.kids(n) {
		if k.field != "name" || k.n.Type() != "pattern" {
			continue
		}
		id := k.n.ChildByFieldName("bound_identifier")
		if id == nil {
			continue // tuple patterns are unnamed
		}
		i := w.add("property", n, id, body, parent)
		w.decls[i].scope = scope
	}
}
