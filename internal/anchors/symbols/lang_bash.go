package symbols

// Bash: functions (`f() {…}`, `function f {…}`, `function f() (…)`), the
// only declarations a shell script has. '…', "…" and $'…' strings are
// distinct tokens: they differ in expansion.
const Bash Language = "bash"

var bashSpec = &langSpec{
	comments:   newSet("comment"),
	atoms:      newSet("string", "raw_string", "ansi_c_string", "heredoc_body", "translated_string"),
	dropLeaves: newSet(),
	walk:       func(w *walker, root *tsNode) { w.bashBody(root) },
}

func (w *walker) bashBody(n *tsNode) {
	for _, c := range w.named(n) {
		switch c.Type() {
		case "function_definition":
			i := w.add("function", c, c.ChildByFieldName("name"), c.ChildByFieldName("body"), -1)
			w.decls[i].callable = true
		case "ERROR":
			w.bashBody(c)
		}
	}
}
