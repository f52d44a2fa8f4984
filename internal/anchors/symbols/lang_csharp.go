package symbols

import (
	"strings"
)

var csharpSpec = &langSpec{
	comments: newSet("comment"),
	values:   newSet("string_literal"),
	atoms: newSet("string_literal", "verbatim_string_literal", "raw_string_literal",
		"interpolated_string_expression", "character_literal"),
	norm: func(typ, s string) string {
		if typ == "raw_string_literal" {
			return dedent(s) // """ literals strip the closing delimiter's indentation
		}
		return s
	},
	walk: func(w *walker, root *tsNode) { w.csMembers(root, -1) },
}

// csMembers indexes a compilation unit, namespace body or type body.
func (w *walker) csMembers(body *tsNode, parent int) {
	kids := w.named(body)
	for idx, n := range kids {
		switch n.Type() {
		case "file_scoped_namespace_declaration":
			// `namespace X;` owns every declaration after it: they are its body.
			i := w.add("namespace", n, n.ChildByFieldName("name"), nil, parent)
			d := &w.decls[i]
			rest := kids[idx+1:]
			if len(rest) > 0 {
				end := int(rest[len(rest)-1].EndByte())
				d.spanEnd, d.hashEnd = end, end
				d.bodyStart, d.bodyEnd = int(n.EndByte()), end
			}
			for _, m := range rest {
				w.csMember(m, i)
			}
			return
		default:
			w.csMember(n, parent)
		}
	}
}

var csTypeKinds = map[string]string{
	"class_declaration":     "class",
	"record_declaration":    "class",
	"struct_declaration":    "struct",
	"interface_declaration": "interface",
	"enum_declaration":      "enum",
}

func (w *walker) csMember(n *tsNode, parent int) {
	switch t := n.Type(); t {
	case "namespace_declaration":
		b := n.ChildByFieldName("body")
		i := w.add("namespace", n, n.ChildByFieldName("name"), b, parent)
		w.decls[i].name = collapseSpace(w.decls[i].name)
		w.csMembers(b, i)
	case "class_declaration", "record_declaration", "struct_declaration", "interface_declaration", "enum_declaration":
		kind := csTypeKinds[t]
		if t == "record_declaration" {
			for _, k := range w.kids(n) {
				if !k.n.IsNamed() && w.text(k.n) == "struct" {
					kind = "struct"
				}
			}
		}
		b := n.ChildByFieldName("body")
		i := w.add(kind, n, n.ChildByFieldName("name"), b, parent)
		if b != nil && kind != "enum" {
			w.csMembers(b, i)
		}
	case "method_declaration", "constructor_declaration", "destructor_declaration", "operator_declaration":
		kind := "method"
		if t == "constructor_declaration" {
			kind = "constructor"
		}
		i := w.add(kind, n, n.ChildByFieldName("name"), n.ChildByFieldName("body"), parent)
		d := &w.decls[i]
		switch t {
		case "destructor_declaration":
			d.name = "~" + d.name
		case "operator_declaration":
			if op := n.ChildByFieldName("operator"); op != nil {
				d.name = "operator" + w.text(op)
				d.nameStart, d.nameEnd = int(op.StartByte()), int(op.EndByte())
			}
		}
		w.csCallable(i, n.ChildByFieldName("parameters"))
	case "property_declaration", "indexer_declaration":
		body := n.ChildByFieldName("accessors")
		if v := n.ChildByFieldName("value"); body == nil && v != nil && v.Type() == "arrow_expression_clause" {
			body = v
		}
		nm := n.ChildByFieldName("name")
		i := w.add("property", n, nm, body, parent)
		if t == "indexer_declaration" {
			d := &w.decls[i]
			d.name = "this"
			for _, k := range w.kids(n) {
				if !k.n.IsNamed() && w.text(k.n) == "this" {
					d.nameStart, d.nameEnd = int(k.n.StartByte()), int(k.n.EndByte())
				}
			}
			w.csCallable(i, n.ChildByFieldName("parameters"))
		}
	case "field_declaration", "event_field_declaration":
		if parent < 0 {
			return
		}
		vd := w.firstOfType(n, "variable_declaration")
		var decls []*tsNode
		for _, c := range w.named(vd) {
			if c.Type() == "variable_declarator" {
				decls = append(decls, c)
			}
		}
		for _, d := range decls {
			i := w.add("field", n, d.ChildByFieldName("name"), nil, parent)
			if len(decls) > 1 {
				w.decls[i].spanStart, w.decls[i].spanEnd = int(d.StartByte()), int(d.EndByte())
			}
		}
	case "declaration_list", "ERROR":
		w.csMembers(n, parent)
	}
}

func (w *walker) csCallable(i int, params *tsNode) {
	var out []string
	for _, p := range w.named(params) {
		if p.Type() != "parameter" {
			continue
		}
		typ := p.ChildByFieldName("type")
		if typ == nil {
			out = append(out, collapseSpace(w.text(p.ChildByFieldName("name"))))
			continue
		}
		// Modifiers (ref, out, params, this) are part of the type as written.
		pre := strings.TrimSpace(string(w.src[p.StartByte():typ.StartByte()]))
		if strings.HasPrefix(pre, "[") { // attributes are not types
			pre = ""
		}
		out = append(out, collapseSpace(pre+" "+w.text(typ)))
	}
	w.decls[i].callable = true
	w.decls[i].params = out
}
