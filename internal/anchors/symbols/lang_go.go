package symbols

import ()

var goSpec = &langSpec{
	comments:   newSet("comment"),
	values:     newSet("interpreted_string_literal"),
	atoms:      newSet("interpreted_string_literal", "raw_string_literal", "rune_literal"),
	dropLeaves: newSet(";"), // gofmt turns `a; b` into two lines: `;` is layout
	norm: func(typ, s string) string {
		switch typ {
		case "int_literal", "float_literal", "imaginary_literal":
			return normGoNumber(s)
		}
		return s
	},
	walk: walkGo,
}

// walkGo indexes top-level functions, methods, types (with struct fields and
// interface methods at any depth), consts and vars. Function bodies are not
// entered.
func walkGo(w *walker, root *tsNode) {
	for _, n := range w.named(root) {
		switch n.Type() {
		case "ERROR":
			walkGo(w, n) // what parses still resolves
		case "function_declaration":
			i := w.add("function", n, n.ChildByFieldName("name"), n.ChildByFieldName("body"), -1)
			w.goCallable(i, n)
		case "method_declaration":
			recv := goReceiverType(w, n.ChildByFieldName("receiver"))
			if recv == "" {
				continue
			}
			i := w.add("method", n, n.ChildByFieldName("name"), n.ChildByFieldName("body"), -1)
			w.decls[i].scope = []string{recv}
			w.goCallable(i, n)
		case "type_declaration":
			w.goTypeDecl(n, -1)
		case "const_declaration", "var_declaration":
			w.goValueDecl(n)
		}
	}
}

func (w *walker) goCallable(i int, n *tsNode) {
	w.decls[i].callable = true
	w.decls[i].params = w.goParamTypes(n.ChildByFieldName("parameters"))
}

// goTypeDecl handles `type X …` and grouped `type ( … )`. The hash is
// "type" + the spec, so moving a type into or out of a group keeps it.
func (w *walker) goTypeDecl(n *tsNode, parent int) {
	var specs []*tsNode
	for _, c := range w.named(n) {
		if c.Type() == "type_spec" || c.Type() == "type_alias" {
			specs = append(specs, c)
		}
	}
	for _, spec := range specs {
		typ := spec.ChildByFieldName("type")
		kind, body := "type", (*tsNode)(nil)
		if spec.Type() == "type_spec" && typ != nil {
			switch typ.Type() {
			case "struct_type":
				kind, body = "struct", w.firstOfType(typ, "field_declaration_list")
			case "interface_type":
				kind, body = "interface", typ
			}
		}
		i := w.add(kind, spec, spec.ChildByFieldName("name"), body, parent)
		d := &w.decls[i]
		d.prefix = []string{"type"}
		if len(specs) == 1 {
			d.spanStart, d.spanEnd = int(n.StartByte()), int(n.EndByte())
		}
		switch kind {
		case "struct":
			w.goFields(body, i)
		case "interface":
			w.goInterface(typ, i)
		}
	}
}

// goFields indexes struct fields; a field of anonymous struct type is itself
// a container (`A.B.C`). Embedded fields are named by their type.
func (w *walker) goFields(list *tsNode, parent int) {
	for _, f := range w.named(list) {
		if f.Type() != "field_declaration" {
			continue
		}
		names := w.fieldAll(f, "name")
		typ := f.ChildByFieldName("type")
		if len(names) == 0 {
			if id := goTypeName(w, typ); id != nil {
				names = []*tsNode{id}
			}
		}
		for _, nm := range names {
			var body *tsNode
			if typ != nil && typ.Type() == "struct_type" {
				body = w.firstOfType(typ, "field_declaration_list")
			}
			i := w.add("field", f, nm, body, parent)
			if body != nil {
				w.goFields(body, i)
			}
		}
	}
}

func (w *walker) goInterface(it *tsNode, parent int) {
	for _, m := range w.named(it) {
		if m.Type() != "method_elem" && m.Type() != "method_spec" {
			continue
		}
		i := w.add("method", m, m.ChildByFieldName("name"), nil, parent)
		w.goCallable(i, m)
	}
}

// goValueDecl indexes every name of every spec of a const or var declaration;
// `_` is not a name.
func (w *walker) goValueDecl(n *tsNode) {
	kind, specType := "const", "const_spec"
	if n.Type() == "var_declaration" {
		kind, specType = "var", "var_spec"
	}
	var specs []*tsNode
	for _, c := range w.named(n) {
		if c.Type() == specType {
			specs = append(specs, c)
		} else if c.Type() == "var_spec_list" { // newer grammars wrap grouped vars
			for _, cc := range w.named(c) {
				if cc.Type() == specType {
					specs = append(specs, cc)
				}
			}
		}
	}
	for _, spec := range specs {
		names := w.fieldAll(spec, "name")
		for _, nm := range names {
			if w.text(nm) == "_" {
				continue
			}
			i := w.add(kind, spec, nm, nil, -1)
			d := &w.decls[i]
			d.prefix = []string{kind}
			if len(specs) == 1 {
				d.spanStart, d.spanEnd = int(n.StartByte()), int(n.EndByte())
			}
		}
	}
}

// goReceiverType is the receiver's type name without `*` or type parameters.
func goReceiverType(w *walker, recv *tsNode) string {
	for _, p := range w.named(recv) {
		if p.Type() == "parameter_declaration" {
			if id := goTypeName(w, p.ChildByFieldName("type")); id != nil {
				return w.text(id)
			}
		}
	}
	return ""
}

// goTypeName digs the type identifier out of *T, T[K], (T), pkg.T.
func goTypeName(w *walker, t *tsNode) *tsNode {
	for depth := 0; t != nil && depth < 8; depth++ {
		switch t.Type() {
		case "type_identifier":
			return t
		case "generic_type":
			t = t.ChildByFieldName("type")
		case "qualified_type":
			t = t.ChildByFieldName("name")
		case "pointer_type", "parenthesized_type":
			t = w.firstOfType(t, "type_identifier", "generic_type", "qualified_type", "pointer_type", "parenthesized_type")
		default:
			return nil
		}
	}
	return nil
}

// goParamTypes lists one type per parameter (`a, b int` → int, int).
func (w *walker) goParamTypes(list *tsNode) []string {
	var out []string
	for _, p := range w.named(list) {
		switch p.Type() {
		case "parameter_declaration", "variadic_parameter_declaration":
			t := collapseSpace(w.text(p.ChildByFieldName("type")))
			if p.Type() == "variadic_parameter_declaration" {
				t = "..." + t
			}
			n := len(w.fieldAll(p, "name"))
			if n == 0 {
				n = 1
			}
			for i := 0; i < n; i++ {
				out = append(out, t)
			}
		}
	}
	return out
}
