package symbols

import "strings"

// Ruby: class, module, def (method inside a class or module, function at the
// top level), def self.x (a method of its class), constants. `class << self`
// is transparent: its defs are methods of the enclosing class. `class A::B`
// is named B inside A. Strings are one token each and keep their quotes:
// '#{x}' and "#{x}" differ.
const Ruby Language = "ruby"

var rubySpec = &langSpec{
	comments:   newSet("comment"),
	atoms:      newSet("string", "heredoc_body", "regex", "symbol", "delimited_symbol", "subshell", "string_array", "symbol_array", "character"),
	dropLeaves: newSet(";"), // `def m; end` is `def m` + newline + `end`
	walk:       func(w *walker, root *tsNode) { w.rubyBody(root, -1) },
}

func (w *walker) rubyBody(n *tsNode, parent int) {
	for _, c := range w.named(n) {
		switch c.Type() {
		case "class", "module":
			body := c.ChildByFieldName("body")
			i := w.rubyScoped(c.Type(), c, c.ChildByFieldName("name"), body, parent)
			w.rubyBody(body, i)
		case "singleton_class":
			w.rubyBody(c.ChildByFieldName("body"), parent)
		case "method", "singleton_method":
			kind := "method"
			if parent < 0 && c.Type() == "method" {
				kind = "function"
			}
			i := w.add(kind, c, c.ChildByFieldName("name"), c.ChildByFieldName("body"), parent)
			w.decls[i].callable = true
			for _, p := range w.named(c.ChildByFieldName("parameters")) {
				w.decls[i].params = append(w.decls[i].params, collapseSpace(w.text(p)))
			}
		case "assignment":
			if left := c.ChildByFieldName("left"); left != nil && left.Type() == "constant" {
				w.add("const", c, left, nil, parent)
			}
		case "body_statement", "ERROR":
			w.rubyBody(c, parent)
		}
	}
}

// rubyScoped adds a class or module whose name may be a path A::B::C: the
// last segment is the name, the others are containers.
func (w *walker) rubyScoped(kind string, node, name, body *tsNode, parent int) int {
	var scope []string
	for name != nil && name.Type() == "scope_resolution" {
		if sc := name.ChildByFieldName("scope"); sc != nil {
			scope = append(scope, strings.Split(w.text(sc), "::")...)
		}
		name = name.ChildByFieldName("name")
	}
	i := w.add(kind, node, name, body, parent)
	w.decls[i].scope = scope
	return i
}
