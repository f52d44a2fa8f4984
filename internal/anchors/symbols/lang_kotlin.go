package symbols

import (
	"strings"
)

var kotlinSpec = &langSpec{
	comments:   newSet("line_comment", "multiline_comment"),
	atoms:      newSet("string_literal", "character_literal"),
	dropLeaves: newSet(";"), // optional terminators
	walk:       func(w *walker, root *tsNode) { w.ktMembers(root, -1) },
}

// ktMembers indexes a file or a class/object body. The grammar has no field
// names, so names and receivers are found by position.
func (w *walker) ktMembers(body *tsNode, parent int) {
	kids := w.named(body)
	for idx, n := range kids {
		switch n.Type() {
		case "class_declaration":
			kind := "class"
			for _, k := range w.kids(n) {
				switch {
				case !k.n.IsNamed() && w.text(k.n) == "interface":
					kind = "interface"
				case !k.n.IsNamed() && w.text(k.n) == "enum":
					kind = "enum"
				case k.n.Type() == "modifiers" && strings.Contains(" "+collapseSpace(w.text(k.n))+" ", " enum "):
					kind = "enum"
				}
			}
			body := w.firstOfType(n, "class_body", "enum_class_body")
			i := w.add(kind, n, w.firstOfType(n, "type_identifier"), body, parent)
			w.ktMembers(body, i)
		case "object_declaration":
			body := w.firstOfType(n, "class_body")
			i := w.add("object", n, w.firstOfType(n, "type_identifier"), body, parent)
			w.ktMembers(body, i)
		case "companion_object":
			// Members are reached as members of the class (Checkout.create).
			w.ktMembers(w.firstOfType(n, "class_body"), parent)
		case "enum_class_body", "ERROR":
			w.ktMembers(n, parent)
		case "function_declaration":
			kind := "function"
			if parent >= 0 {
				kind = "method"
			}
			name, recv := w.ktNameAndReceiver(n, "simple_identifier")
			i := w.add(kind, n, name, w.firstOfType(n, "function_body"), parent)
			w.ktReceiver(i, recv)
			w.decls[i].callable = true
			w.decls[i].params = w.ktParams(w.firstOfType(n, "function_value_parameters"))
		case "property_declaration":
			vd, recv := w.ktNameAndReceiver(n, "variable_declaration")
			if vd == nil {
				continue // destructuring: unnamed
			}
			i := w.add("property", n, w.firstOfType(vd, "simple_identifier"), nil, parent)
			w.ktReceiver(i, recv)
			w.ktAccessors(i, kids[idx+1:])
		case "type_alias":
			w.add("type", n, w.firstOfType(n, "type_identifier"), nil, parent)
		case "secondary_constructor":
			i := w.add("constructor", n, nil, nil, parent)
			d := &w.decls[i]
			d.name = "constructor"
			for _, k := range w.kids(n) {
				if !k.n.IsNamed() && w.text(k.n) == "constructor" {
					d.nameStart, d.nameEnd = int(k.n.StartByte()), int(k.n.EndByte())
				}
				if !k.n.IsNamed() && w.text(k.n) == "{" && d.bodyStart < 0 {
					d.bodyStart, d.bodyEnd = int(k.n.StartByte()), int(n.EndByte())
				}
			}
			d.callable = true
			d.params = w.ktParams(w.firstOfType(n, "function_value_parameters"))
		}
	}
}

// ktNameAndReceiver finds the child of type nameType and, when the
// declaration is an extension (`fun List<Item>.cheapest()`), the receiver
// type written before the dot.
func (w *walker) ktNameAndReceiver(n *tsNode, nameType string) (name, recv *tsNode) {
	var prevType *tsNode
	dot := false
	for _, k := range w.kids(n) {
		switch {
		case k.n.Type() == nameType:
			if dot {
				recv = prevType
			}
			return k.n, recv
		case !k.n.IsNamed() && w.text(k.n) == ".":
			dot = true
		case k.n.IsNamed():
			switch k.n.Type() {
			case "user_type", "nullable_type", "parenthesized_type", "function_type", "type_identifier":
				prevType, dot = k.n, false
			}
		}
	}
	return nil, nil
}

// ktReceiver makes an extension's receiver its container, as Swift's
// `extension String` is: `fun String.slug()` → String.slug.
func (w *walker) ktReceiver(i int, recv *tsNode) {
	if recv != nil {
		w.decls[i].scope = []string{strings.Join(strings.Fields(w.text(recv)), "")}
	}
}

// ktAccessors attaches the getter/setter that follow a property: this grammar
// makes them siblings, but they are the property's code.
func (w *walker) ktAccessors(i int, after []*tsNode) {
	d := &w.decls[i]
	for _, a := range after {
		switch a.Type() {
		case "getter", "setter":
			d.spanEnd, d.hashEnd = int(a.EndByte()), int(a.EndByte())
			if b := w.firstOfType(a, "function_body"); b != nil && d.bodyStart < 0 && a.Type() == "getter" {
				d.bodyStart, d.bodyEnd = int(b.StartByte()), int(b.EndByte())
			}
		case "line_comment", "multiline_comment":
		default:
			return
		}
	}
}

// ktParams lists the parameter types as written.
func (w *walker) ktParams(list *tsNode) []string {
	var out []string
	for _, p := range w.named(list) {
		if p.Type() != "parameter" {
			continue
		}
		t := ""
		for _, c := range w.named(p) {
			if c.Type() != "simple_identifier" && c.Type() != "parameter_modifiers" {
				t = collapseSpace(w.text(c))
				break
			}
		}
		out = append(out, t)
	}
	return out
}
