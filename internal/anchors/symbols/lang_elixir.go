package symbols

import "strings"

// Elixir: defmodule → module (`defmodule A.B` is B inside A, so nested
// modules get their full names), def/defp → function as Module.fun,
// defmacro/defmacrop → macro, defprotocol → protocol. Clauses of one name
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
	first := w.firstOfType(args, "alias", "call", "identifier", "binary_operator")
	if first == nil {
		return
	}
	switch kw := w.text(target); kw {
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
