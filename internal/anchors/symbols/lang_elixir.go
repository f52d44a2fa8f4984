package symbols

import "strings"

// Elixir: defmodule → module (`defmodule A.B` is B inside A, so nested
// modules get their full names), def/defp → function as Module.fun,
// defmacro/defmacrop → macro, defprotocol → protocol, defstruct → struct
// named by its module, defimpl P, for: T → impl P.T. Clauses of one name
// share it, so they get their argument patterns as the overload suffix.
// "…" strings, '…' charlists and sigils are distinct tokens.
const Elixir Language = "elixir"

var elixirSpec = &langSpec{
	comments:   newSet("comment"),
	atoms:      newSet("string", "charlist", "sigil"),
	dropLeaves: newSet(),
	walk:       func(w *walker, root *tsNode) { w.exBody(root, -1) },
}

var exDefs = map[string]string{
	"def": "function", "defp": "function", "defmacro": "macro", "defmacrop": "macro",
	"defguard": "macro", "defguardp": "macro",
}

func (w *walker) exBody(n *tsNode, parent int) {
	for _, c := range w.named(n) {
		switch c.Type() {
		case "call":
			w.exCall(c, parent)
		case "do_block", "ERROR":
			w.exBody(c, parent)
		}
	}
}

func (w *walker) exCall(c *tsNode, parent int) {
	target := c.ChildByFieldName("target")
	if target == nil || target.Type() != "identifier" {
		return
	}
	args := w.firstOfType(c, "arguments")
	if w.text(target) == "defstruct" {
		// The struct is named by its module: %Shop.Cart{} is struct Shop.Cart.
		if parent >= 0 && w.decls[parent].kind == "module" && args != nil {
			m := w.decls[parent]
			i := w.add("struct", c, target, args, m.parent)
			d := &w.decls[i]
			d.scope, d.name = m.scope, m.name
		}
		return
	}
	first := w.firstOfType(args, "alias", "call", "identifier", "binary_operator")
	if first == nil {
		return
	}
	switch kw := w.text(target); kw {
	case "defimpl":
		// defimpl P, for: T is the module P.T (T is the enclosing module
		// when for: is left out); its functions are P.T.fun.
		if first.Type() != "alias" {
			return
		}
		typ := w.exFor(args)
		nameNode := typ
		typName := w.text(typ)
		if typ == nil {
			if parent < 0 {
				return
			}
			nameNode, typName = first, w.exQualified(parent)
		}
		body := w.firstOfType(c, "do_block")
		i := w.add("impl", c, nameNode, body, -1)
		d := &w.decls[i]
		d.scope, d.name = strings.Split(w.text(first), "."), typName
		w.exBody(body, i)
	case "defmodule", "defprotocol":
		if first.Type() != "alias" {
			return
		}
		kind := "module"
		if kw == "defprotocol" {
			kind = "protocol"
		}
		body := w.firstOfType(c, "do_block")
		i := w.add(kind, c, first, body, parent)
		if segs := strings.Split(w.text(first), "."); len(segs) > 1 {
			d := &w.decls[i]
			d.scope = segs[:len(segs)-1]
			d.name = segs[len(segs)-1]
			d.nameStart = d.nameEnd - len(d.name)
		}
		w.exBody(body, i)
	default:
		kind, ok := exDefs[kw]
		if !ok {
			return
		}
		head := first
		if head.Type() == "binary_operator" { // f(x) when guard
			head = head.ChildByFieldName("left")
		}
		var name *tsNode
		var params []string
		switch {
		case head == nil:
			return
		case head.Type() == "identifier": // def f, do: …
			name = head
		case head.Type() == "call":
			name = head.ChildByFieldName("target")
			if name == nil || name.Type() != "identifier" {
				return
			}
			for _, a := range w.named(w.firstOfType(head, "arguments")) {
				params = append(params, collapseSpace(w.text(a)))
			}
		default:
			return
		}
		body := w.firstOfType(c, "do_block")
		if body == nil {
			body = w.firstOfType(args, "keywords")
		}
		i := w.add(kind, c, name, body, parent)
		w.decls[i].callable = true
		w.decls[i].params = params
	}
}

// exFor is the alias of a `for:` keyword argument, or nil.
func (w *walker) exFor(args *tsNode) *tsNode {
	for _, p := range w.named(w.firstOfType(args, "keywords")) {
		if k := p.ChildByFieldName("key"); k != nil && strings.TrimSpace(w.text(k)) == "for:" {
			if v := p.ChildByFieldName("value"); v != nil && v.Type() == "alias" {
				return v
			}
		}
	}
	return nil
}

// exQualified is a declaration's qualified name while walking (qualify
// runs later): its parents' names and scopes joined by dots.
func (w *walker) exQualified(i int) string {
	var parts []string
	for ; i >= 0; i = w.decls[i].parent {
		d := w.decls[i]
		parts = append(append([]string{}, append(append([]string{}, d.scope...), d.name)...), parts...)
	}
	return strings.Join(parts, ".")
}
