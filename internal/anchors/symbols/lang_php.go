package symbols

// PHP: class, interface, trait, enum, function, method, const, property
// (without its `$`). Namespaces do not qualify names (as Java packages do
// not); a braced namespace's declarations are indexed as top-level ones.
// '…' and "…" strings stay distinct: "$x" interpolates, '$x' does not.
const PHP Language = "php"

var phpSpec = &langSpec{
	comments:   newSet("comment"),
	atoms:      newSet("string", "encapsed_string", "heredoc", "nowdoc", "shell_command_expression"),
	dropLeaves: newSet(),
	walk:       func(w *walker, root *tsNode) { w.phpBody(root, -1) },
}

// phpTypeKinds names the kind of each type declaration node.
var phpTypeKinds = map[string]string{"class_declaration": "class", "interface_declaration": "interface",
	"trait_declaration": "trait", "enum_declaration": "enum"}

func (w *walker) phpBody(n *tsNode, parent int) {
	for _, c := range w.named(n) {
		switch c.Type() {
		case "class_declaration", "interface_declaration", "trait_declaration", "enum_declaration":
			kind := phpTypeKinds[c.Type()]
			body := c.ChildByFieldName("body")
			i := w.add(kind, c, c.ChildByFieldName("name"), body, parent)
			w.phpBody(body, i)
		case "function_definition", "method_declaration":
			kind := "function"
			if parent >= 0 {
				kind = "method"
			}
			i := w.add(kind, c, c.ChildByFieldName("name"), c.ChildByFieldName("body"), parent)
			w.decls[i].callable = true
			for _, p := range w.named(c.ChildByFieldName("parameters")) {
				if t := p.ChildByFieldName("type"); t != nil {
					w.decls[i].params = append(w.decls[i].params, collapseSpace(w.text(t)))
				} else {
					w.decls[i].params = append(w.decls[i].params, collapseSpace(w.text(p)))
				}
			}
		case "const_declaration":
			for _, el := range w.named(c) {
				if el.Type() == "const_element" {
					// One element of `const A = 1, B = 2;` spans the statement
					// when alone, so its visibility and keyword count.
					span := c
					if len(w.ofType(c, "const_element")) > 1 {
						span = el
					}
					w.add("const", span, w.firstOfType(el, "name"), nil, parent)
				}
			}
		case "property_declaration":
			for _, el := range w.named(c) {
				if el.Type() == "property_element" {
					span := c
					if len(w.ofType(c, "property_element")) > 1 {
						span = el
					}
					w.add("property", span, w.firstOfType(w.firstOfType(el, "variable_name"), "name"), nil, parent)
				}
			}
		case "enum_case":
			if parent >= 0 {
				w.add("const", c, c.ChildByFieldName("name"), nil, parent)
			}
		case "namespace_definition", "compound_statement", "declaration_list", "enum_declaration_list", "ERROR":
			if c.Type() == "namespace_definition" {
				w.phpBody(c.ChildByFieldName("body"), parent)
				continue
			}
			w.phpBody(c, parent)
		}
	}
}

// ofType lists the named children of one type.
func (w *walker) ofType(n *tsNode, typ string) []*tsNode {
	var out []*tsNode
	for _, c := range w.named(n) {
		if c.Type() == typ {
			out = append(out, c)
		}
	}
	return out
}
