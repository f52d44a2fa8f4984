package symbols

import (
	"strings"
)

var javaSpec = &langSpec{
	comments: newSet("line_comment", "block_comment"),
	values:   newSet("string_literal"),
	atoms:    newSet("string_literal", "character_literal"),
	norm: func(typ, s string) string {
		if typ == "string_literal" && strings.HasPrefix(s, `"""`) {
			return dedent(s) // text blocks strip incidental indentation
		}
		return s
	},
	walk: func(w *walker, root *tsNode) { w.javaMembers(root, -1) },
}

var javaTypeKinds = map[string]string{
	"class_declaration":           "class",
	"record_declaration":          "class",
	"interface_declaration":       "interface",
	"annotation_type_declaration": "interface",
	"enum_declaration":            "enum",
}

// javaMembers indexes the type declarations of a file and the members of a
// type body, at any depth of nested types.
func (w *walker) javaMembers(body *tsNode, parent int) {
	for _, n := range w.named(body) {
		switch t := n.Type(); t {
		case "class_declaration", "record_declaration", "interface_declaration",
			"annotation_type_declaration", "enum_declaration":
			b := n.ChildByFieldName("body")
			i := w.add(javaTypeKinds[t], n, n.ChildByFieldName("name"), b, parent)
			w.javaMembers(b, i)
		case "enum_body_declarations", "ERROR":
			w.javaMembers(n, parent)
		case "method_declaration", "annotation_type_element_declaration":
			i := w.add("method", n, n.ChildByFieldName("name"), n.ChildByFieldName("body"), parent)
			w.javaCallable(i, n)
		case "constructor_declaration", "compact_constructor_declaration":
			i := w.add("constructor", n, n.ChildByFieldName("name"), n.ChildByFieldName("body"), parent)
			w.javaCallable(i, n)
		case "field_declaration", "constant_declaration":
			if parent < 0 {
				continue
			}
			decls := w.fieldAll(n, "declarator")
			for _, d := range decls {
				i := w.add("field", n, d.ChildByFieldName("name"), nil, parent)
				if len(decls) > 1 {
					// The hash keeps the shared type and modifiers; the span is this declarator.
					w.decls[i].spanStart, w.decls[i].spanEnd = int(d.StartByte()), int(d.EndByte())
				}
			}
		}
	}
}

func (w *walker) javaCallable(i int, n *tsNode) {
	w.decls[i].callable = true
	var out []string
	for _, p := range w.named(n.ChildByFieldName("parameters")) {
		switch p.Type() {
		case "formal_parameter":
			out = append(out, collapseSpace(w.text(p.ChildByFieldName("type"))))
		case "spread_parameter":
			t := ""
			for _, c := range w.named(p) {
				if c.Type() != "variable_declarator" && c.Type() != "modifiers" {
					t = collapseSpace(w.text(c))
					break
				}
			}
			out = append(out, t+"...")
		}
	}
	w.decls[i].params = out
}
