package symbols

import ()

var rustSpec = &langSpec{
	comments: newSet("line_comment", "block_comment"),
	values:   newSet("string_literal"),
	atoms:    newSet("string_literal", "raw_string_literal", "char_literal"),
	oneTuple: newSet("tuple_expression", "tuple_type", "tuple_pattern"),
	walk:     func(w *walker, root *tsNode) { w.rustItems(root, -1, nil, "") },
}

// rustItems indexes the items of a file, module, trait or impl body. scope
// and ctx carry an impl's type name (`impl T for U` → U) and the kind of
// body: "" (module), "trait", "impl" or "extern".
func (w *walker) rustItems(list *tsNode, parent int, scope []string, ctx string) {
	kids := w.named(list)
	for idx, n := range kids {
		var i int
		switch n.Type() {
		case "function_item", "function_signature_item":
			kind := "function"
			if ctx == "trait" || ctx == "impl" {
				kind = "method"
			}
			i = w.add(kind, n, n.ChildByFieldName("name"), n.ChildByFieldName("body"), parent)
			w.decls[i].callable = true
			w.decls[i].params = w.rustParams(n.ChildByFieldName("parameters"))
		case "struct_item", "union_item":
			i = w.add("struct", n, n.ChildByFieldName("name"), n.ChildByFieldName("body"), parent)
		case "enum_item":
			i = w.add("enum", n, n.ChildByFieldName("name"), n.ChildByFieldName("body"), parent)
		case "trait_item":
			body := n.ChildByFieldName("body")
			i = w.add("trait", n, n.ChildByFieldName("name"), body, parent)
			w.rustAttrs(i, kids[:idx])
			w.decls[i].scope = scope
			w.rustItems(body, i, nil, "trait")
			continue
		case "type_item", "associated_type":
			i = w.add("type", n, n.ChildByFieldName("name"), nil, parent)
		case "const_item":
			i = w.add("const", n, n.ChildByFieldName("name"), nil, parent)
		case "static_item":
			i = w.add("var", n, n.ChildByFieldName("name"), nil, parent)
		case "mod_item":
			body := n.ChildByFieldName("body")
			i = w.add("module", n, n.ChildByFieldName("name"), body, parent)
			w.rustAttrs(i, kids[:idx])
			w.decls[i].scope = scope
			if body != nil {
				w.rustItems(body, i, nil, "")
			}
			continue
		case "macro_definition":
			nm := n.ChildByFieldName("name")
			i = w.add("macro", n, nm, nil, parent)
			if nm != nil { // the rules are the body
				w.decls[i].bodyStart, w.decls[i].bodyEnd = int(nm.EndByte()), int(n.EndByte())
			}
		case "impl_item":
			// Not indexed: a container named by its type, so `impl Display for
			// Point` adds members to Point.
			if t := w.rustTypeName(n.ChildByFieldName("type")); t != "" {
				w.rustItems(n.ChildByFieldName("body"), parent, append(append([]string(nil), scope...), t), "impl")
			}
			continue
		case "ERROR":
			w.rustItems(n, parent, scope, ctx)
			continue
		case "foreign_mod_item":
			w.rustItems(n.ChildByFieldName("body"), parent, scope, "extern")
			continue
		default:
			continue
		}
		w.rustAttrs(i, kids[:idx])
		w.decls[i].scope = scope
	}
}

// rustAttrs widens a declaration over the #[attributes] written above it:
// tree-sitter makes them siblings, but they belong to the item (derive,
// cfg, test change what it is).
func (w *walker) rustAttrs(i int, before []*tsNode) {
	d := &w.decls[i]
	for k := len(before) - 1; k >= 0; k-- {
		switch before[k].Type() {
		case "attribute_item":
			d.spanStart = int(before[k].StartByte())
			d.hashStart = d.spanStart
		case "line_comment", "block_comment":
		default:
			return
		}
	}
}

// rustTypeName is the base name of an impl's type: Point<T> → Point,
// &Square → Square, fmt::Formatter → Formatter.
func (w *walker) rustTypeName(t *tsNode) string {
	for depth := 0; t != nil && depth < 8; depth++ {
		switch t.Type() {
		case "generic_type", "reference_type", "pointer_type":
			t = t.ChildByFieldName("type")
		case "scoped_type_identifier":
			t = t.ChildByFieldName("name")
		case "type_identifier", "primitive_type":
			return w.text(t)
		default:
			return collapseSpace(w.text(t))
		}
	}
	return ""
}

func (w *walker) rustParams(list *tsNode) []string {
	var out []string
	for _, p := range w.named(list) {
		switch p.Type() {
		case "parameter":
			out = append(out, collapseSpace(w.text(p.ChildByFieldName("type"))))
		case "self_parameter", "variadic_parameter":
			out = append(out, collapseSpace(w.text(p)))
		}
	}
	return out
}
