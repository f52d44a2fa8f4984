package symbols

// Scala: class (case classes too), object, trait, enum, type, def (method
// inside a template, function at the top level, Scala 3), val → const and
// var → var. Overloaded defs get their parameter types.
const Scala Language = "scala"

var scalaSpec = &langSpec{
	comments:   newSet("comment", "block_comment"),
	atoms:      newSet("string", "interpolated_string_expression", "character_literal", "symbol_literal"),
	dropLeaves: newSet(";"), // scalafmt removes optional terminators
	walk:       func(w *walker, root *tsNode) { w.scalaBody(root, -1) },
}

// scalaTypeKinds names the kind of each type definition node.
var scalaTypeKinds = map[string]string{"class_definition": "class", "object_definition": "object",
	"trait_definition": "trait", "enum_definition": "enum"}

func (w *walker) scalaBody(n *tsNode, parent int) {
	for _, c := range w.named(n) {
		switch c.Type() {
		case "class_definition", "object_definition", "trait_definition", "enum_definition":
			kind := scalaTypeKinds[c.Type()]
			body := c.ChildByFieldName("body")
			i := w.add(kind, c, c.ChildByFieldName("name"), body, parent)
			w.scalaBody(body, i)
		case "function_definition", "function_declaration":
			kind := "method"
			if parent < 0 {
				kind = "function"
			}
			i := w.add(kind, c, c.ChildByFieldName("name"), c.ChildByFieldName("body"), parent)
			w.decls[i].callable = true
			for _, ps := range w.fieldAll(c, "parameters") {
				for _, p := range w.named(ps) {
					if t := p.ChildByFieldName("type"); t != nil {
						w.decls[i].params = append(w.decls[i].params, collapseSpace(w.text(t)))
					}
				}
			}
		case "val_definition", "val_declaration", "var_definition", "var_declaration":
			kind := "const"
			if c.Type() == "var_definition" || c.Type() == "var_declaration" {
				kind = "var"
			}
			name := c.ChildByFieldName("pattern")
			if name == nil {
				name = c.ChildByFieldName("name")
			}
			if name != nil && name.Type() == "identifier" {
				w.add(kind, c, name, c.ChildByFieldName("value"), parent)
			}
		case "type_definition":
			w.add("type", c, c.ChildByFieldName("name"), nil, parent)
		case "package_object", "template_body", "enum_body", "ERROR":
			w.scalaBody(c, parent)
		}
	}
}
