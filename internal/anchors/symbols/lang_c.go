package symbols

import (
	"strings"
)

func newCSpec(cpp bool) *langSpec {
	atoms := newSet("string_literal", "char_literal", "system_lib_string")
	if cpp {
		atoms["raw_string_literal"] = true
	}
	return &langSpec{
		comments: newSet("comment"),
		atoms:    atoms,
		norm: func(typ, s string) string {
			if typ == "preproc_arg" { // a macro body is one raw token: normalise its layout
				return collapseSpace(strings.ReplaceAll(s, "\\\n", " "))
			}
			return s
		},
		walk: func(w *walker, root *tsNode) {
			c := &cWalker{walker: w, cpp: cpp}
			c.scopeList(root, -1, nil)
			c.fixOutOfLine()
		},
	}
}

var cSpec, cppSpec = newCSpec(false), newCSpec(true)

// cWalker serves C and C++; cpp enables classes, namespaces and methods.
type cWalker struct {
	*walker
	cpp       bool
	outOfLine []int // `A::f` definitions: method unless A is a namespace of this file
}

// scopeList indexes a translation unit, namespace body, linkage block or
// preprocessor branch. scope is set inside nothing but is kept for symmetry
// with class bodies.
func (c *cWalker) scopeList(list *tsNode, parent int, scope []string) {
	for _, n := range c.named(list) {
		c.item(n, n, parent, scope, "")
	}
}

// item handles one declaration. span is the node that is shown and hashed
// (a template_declaration around n). cls is the enclosing class name when n
// is a class member.
func (c *cWalker) item(n, span *tsNode, parent int, scope []string, cls string) {
	switch n.Type() {
	case "preproc_ifdef", "preproc_if", "preproc_else", "preproc_elif", "preproc_elifdef", "ERROR":
		if cls != "" {
			c.classBody(n, parent, cls)
		} else {
			c.scopeList(n, parent, scope)
		}
	case "linkage_specification":
		if b := n.ChildByFieldName("body"); b != nil {
			if b.Type() == "declaration_list" {
				c.scopeList(b, parent, scope)
			} else {
				c.item(b, b, parent, scope, cls)
			}
		}
	case "template_declaration":
		for _, k := range c.named(n) {
			switch k.Type() {
			case "template_parameter_list", "requires_clause":
			default:
				c.item(k, span, parent, scope, cls)
			}
		}
	case "namespace_definition":
		body := n.ChildByFieldName("body")
		nm := n.ChildByFieldName("name")
		if !c.cpp || nm == nil { // anonymous namespace: transparent
			c.scopeList(body, parent, scope)
			return
		}
		i := c.add("namespace", span, nm, body, parent)
		c.decls[i].name = strings.ReplaceAll(collapseSpace(c.text(nm)), "::", ".")
		c.decls[i].scope = scope
		c.scopeList(body, i, nil)
	case "preproc_def", "preproc_function_def":
		if cls != "" {
			return
		}
		i := c.add("macro", span, n.ChildByFieldName("name"), n.ChildByFieldName("value"), parent)
		c.decls[i].scope = scope
	case "function_definition":
		c.function(n, span, parent, scope, cls, false)
	case "declaration", "field_declaration":
		c.specifier(n.ChildByFieldName("type"), parent, scope, cls)
		for _, d := range c.fieldAll(n, "declarator") {
			if _, fd := c.declName(d); fd != nil {
				c.functionDecl(n, span, d, parent, scope, cls)
			}
		}
	case "type_definition":
		c.specifier(n.ChildByFieldName("type"), parent, scope, cls)
		var body *tsNode
		if t := n.ChildByFieldName("type"); t != nil {
			body = t.ChildByFieldName("body")
		}
		for _, d := range c.fieldAll(n, "declarator") {
			if id, _ := c.declName(d); id != nil {
				i := c.add("type", span, id, body, parent)
				c.decls[i].scope = scope
			}
		}
	case "alias_declaration":
		i := c.add("type", span, n.ChildByFieldName("name"), nil, parent)
		c.decls[i].scope = scope
	case "struct_specifier", "union_specifier", "enum_specifier", "class_specifier":
		c.specifierSpan(n, span, parent, scope)
	}
}

// specifier indexes a struct/union/enum/class written inside a declaration
// or typedef (`typedef struct point {…} point_t;`).
func (c *cWalker) specifier(t *tsNode, parent int, scope []string, cls string) {
	if t == nil {
		return
	}
	switch t.Type() {
	case "struct_specifier", "union_specifier", "enum_specifier", "class_specifier":
		c.specifierSpan(t, t, parent, scope)
	}
}

func (c *cWalker) specifierSpan(n, span *tsNode, parent int, scope []string) {
	body, nm := n.ChildByFieldName("body"), n.ChildByFieldName("name")
	if body == nil || nm == nil { // a use or forward declaration, or anonymous
		return
	}
	kind := map[string]string{"struct_specifier": "struct", "union_specifier": "struct", "enum_specifier": "enum", "class_specifier": "class"}[n.Type()]
	i := c.add(kind, span, nm, body, parent)
	d := &c.decls[i]
	d.scope = scope
	if nm.Type() == "qualified_identifier" || nm.Type() == "template_type" {
		segs, last := c.qualified(nm)
		d.scope = append(append([]string(nil), scope...), segs...)
		d.name, d.nameStart, d.nameEnd = c.text(last), int(last.StartByte()), int(last.EndByte())
	}
	if c.cpp && kind != "enum" {
		c.classBody(body, i, d.name)
	}
}

// classBody indexes the members of a C++ class or struct.
func (c *cWalker) classBody(body *tsNode, parent int, cls string) {
	for _, n := range c.named(body) {
		c.item(n, n, parent, nil, cls)
	}
}

// function indexes a definition: a function, a method in a class, or an
// out-of-line `A::f` (container A).
func (c *cWalker) function(n, span *tsNode, parent int, scope []string, cls string, proto bool) {
	d := n.ChildByFieldName("declarator")
	id, fd := c.declName(d)
	if id == nil || fd == nil {
		return // `int x = 0;` parsed as a definition, or worse
	}
	var body *tsNode
	if !proto {
		body = n.ChildByFieldName("body")
	}
	i := c.callable(span, id, fd, body, parent, scope, cls)
	c.decls[i].protoOnly = proto
}

func (c *cWalker) functionDecl(n, span, d *tsNode, parent int, scope []string, cls string) {
	id, fd := c.declName(d)
	if id == nil || fd == nil {
		return
	}
	i := c.callable(span, id, fd, nil, parent, scope, cls)
	if n != span || c.countDeclarators(n) > 1 {
		// several prototypes in one declaration: show each declarator
		if c.countDeclarators(n) > 1 {
			c.decls[i].spanStart, c.decls[i].spanEnd = int(d.StartByte()), int(d.EndByte())
		}
	}
	c.decls[i].protoOnly = true
}

func (c *cWalker) countDeclarators(n *tsNode) int { return len(c.fieldAll(n, "declarator")) }

func (c *cWalker) callable(span, id, fd, body *tsNode, parent int, scope []string, cls string) int {
	segs, last := []string(nil), id
	if id.Type() == "qualified_identifier" {
		segs, last = c.qualified(id)
	}
	name := c.text(last)
	owner := cls
	if len(segs) > 0 {
		owner = segs[len(segs)-1]
	}
	kind := "function"
	switch {
	case !c.cpp:
	case owner != "" && (name == owner || strings.HasPrefix(name, owner+"<")):
		kind = "constructor"
	case owner != "":
		kind = "method"
	}
	i := c.add(kind, span, last, body, parent)
	d := &c.decls[i]
	d.name = collapseSpace(name)
	d.scope = append(append([]string(nil), scope...), segs...)
	d.callable = true
	d.params = c.params(fd.ChildByFieldName("parameters"))
	if len(segs) > 0 && cls == "" {
		c.outOfLine = append(c.outOfLine, i)
	}
	return i
}

// declName follows a declarator through pointers, references and parentheses
// to the declared name; fd is the function declarator closest to it.
func (c *cWalker) declName(d *tsNode) (id, fd *tsNode) {
	for depth := 0; d != nil && depth < 32; depth++ {
		switch d.Type() {
		case "function_declarator":
			fd = d
			d = d.ChildByFieldName("declarator")
		case "pointer_declarator", "reference_declarator", "parenthesized_declarator",
			"attributed_declarator", "array_declarator", "init_declarator":
			next := d.ChildByFieldName("declarator")
			if next == nil {
				next = c.firstOfType(d, "function_declarator", "pointer_declarator", "reference_declarator",
					"parenthesized_declarator", "identifier", "field_identifier", "qualified_identifier", "type_identifier")
			}
			d = next
		case "identifier", "field_identifier", "type_identifier", "qualified_identifier",
			"destructor_name", "operator_name", "template_function", "primitive_type":
			return d, fd
		default:
			return nil, nil
		}
	}
	return nil, nil
}

// qualified splits `A::B::f` into its scope segments and the final name node.
// Template arguments are dropped from the scope (`Box<T>::get` → Box.get).
func (c *cWalker) qualified(q *tsNode) ([]string, *tsNode) {
	var segs []string
	for depth := 0; q != nil && depth < 32; depth++ {
		if q.Type() != "qualified_identifier" {
			return segs, q
		}
		if s := q.ChildByFieldName("scope"); s != nil {
			name := s
			if s.Type() == "template_type" {
				if nn := s.ChildByFieldName("name"); nn != nil {
					name = nn
				}
			}
			segs = append(segs, collapseSpace(c.text(name)))
		}
		q = q.ChildByFieldName("name")
	}
	return segs, q
}

// params renders each parameter's type as written, without its name or
// default: `const Item &it` → `const Item &`.
func (c *cWalker) params(list *tsNode) []string {
	var out []string
	for _, p := range c.named(list) {
		switch p.Type() {
		case "parameter_declaration", "optional_parameter_declaration", "variadic_parameter_declaration":
			s, e := int(p.StartByte()), int(p.EndByte())
			text := ""
			d := p.ChildByFieldName("declarator")
			if d != nil {
				e = int(d.EndByte())
			}
			if id, _ := c.declName(d); id != nil && id.Type() != "primitive_type" {
				text = string(c.src[s:id.StartByte()]) + string(c.src[id.EndByte():e])
			} else {
				text = string(c.src[s:e])
			}
			out = append(out, collapseSpace(text))
		case "variadic_parameter":
			out = append(out, "...")
		}
	}
	return out
}

// fixOutOfLine turns `N::f` back into a function when N is a namespace
// declared in this file rather than a class.
func (c *cWalker) fixOutOfLine() {
	if len(c.outOfLine) == 0 {
		return
	}
	c.qualify()
	namespaces := map[string]bool{}
	for _, d := range c.decls {
		if d.kind == "namespace" {
			namespaces[d.qn] = true
		}
	}
	for _, i := range c.outOfLine {
		if d := &c.decls[i]; namespaces[d.container] {
			d.kind = "function"
		}
	}
}
