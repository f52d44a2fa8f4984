package symbols

import (
	"regexp"
	"sync"
)

var pySpec = &langSpec{
	comments:   newSet("comment"),
	values:     newSet("string"),
	atoms:      newSet("string"),
	dropLeaves: newSet(";"), // black splits `a; b` into lines
	oneTuple:   newSet("tuple", "tuple_pattern"),
	blocks:     true,
	docstrings: true,
	compound:   pyCompound,
	norm: func(typ, s string) string {
		switch typ {
		case "string":
			return normPyString(s)
		case "string_start", "string_end": // the ends of an f-string tokenised inside
			return normPyQuotes(s)
		case "integer", "float":
			return normPyNumber(s)
		}
		return s
	},
	walk: func(w *walker, root *tsNode) { w.pyBlock(root, -1, false) },
}

var allCaps = sync.OnceValue(func() *regexp.Regexp { return regexp.MustCompile(`^_*[A-Z][A-Z0-9_]*$`) })

// pyBlock indexes the direct statements of a module or class body. Bodies of
// if/try/with are not entered: what they bind depends on run time.
func (w *walker) pyBlock(n *tsNode, parent int, inClass bool) {
	for _, c := range w.named(n) {
		switch c.Type() {
		case "function_definition", "class_definition":
			w.pyDef(c, c, parent, inClass)
		case "decorated_definition":
			// Decorators change what the name is bound to: they are part of the hash.
			if def := c.ChildByFieldName("definition"); def != nil {
				w.pyDef(c, def, parent, inClass)
			}
		case "expression_statement":
			w.pyAssignment(c, parent)
		case "ERROR":
			w.pyBlock(c, parent, inClass)
		}
	}
}

func (w *walker) pyDef(span, def *tsNode, parent int, inClass bool) {
	body := def.ChildByFieldName("body")
	if def.Type() == "class_definition" {
		i := w.add("class", span, def.ChildByFieldName("name"), body, parent)
		w.pyBlock(body, i, true)
		return
	}
	kind := "function"
	if inClass {
		kind = "method"
	}
	i := w.add(kind, span, def.ChildByFieldName("name"), body, parent)
	w.decls[i].callable = true
	w.decls[i].params = w.pyParams(def.ChildByFieldName("parameters"))
}

// pyAssignment indexes `x = …`, `x: T = …`, `x: T` and each target of a
// chain `a = b = …`; tuple targets and attributes are not names.
func (w *walker) pyAssignment(stmt *tsNode, parent int) {
	named := w.named(stmt)
	if len(named) != 1 || named[0].Type() != "assignment" {
		return
	}
	for a := named[0]; a != nil && a.Type() == "assignment"; a = a.ChildByFieldName("right") {
		left := a.ChildByFieldName("left")
		if left == nil || left.Type() != "identifier" {
			return
		}
		kind := "var"
		if allCaps().MatchString(w.text(left)) {
			kind = "const"
		}
		w.add(kind, stmt, left, nil, parent)
	}
}

// pyParams gives a parameter's annotation, or its name when it has none.
func (w *walker) pyParams(list *tsNode) []string {
	var out []string
	for _, p := range w.named(list) {
		if p.Type() == "comment" {
			continue
		}
		if t := p.ChildByFieldName("type"); t != nil {
			out = append(out, collapseSpace(w.text(t)))
			continue
		}
		if nm := p.ChildByFieldName("name"); nm != nil {
			out = append(out, w.text(nm))
			continue
		}
		out = append(out, collapseSpace(w.text(p)))
	}
	return out
}
