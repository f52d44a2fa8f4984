package symbols

import "strings"

// Lua: `function f` and `local function f` are functions; `function M.f`
// and `function M:f` are methods of M (`function a.b.c` of a.b); `local f =
// function …` and `M.f = function …` count the same. '…' ≡ "…" (Lua's two
// short-string quotes mean the same).
const Lua Language = "lua"

var luaSpec = &langSpec{
	comments:   newSet("comment"),
	atoms:      newSet("string"),
	dropLeaves: newSet(";"), // an optional separator
	norm: func(typ, s string) string {
		if typ == "string" {
			return normQuoted(strings.TrimLeft(s, " \t\r\n\f\v"))
		}
		return s
	},
	walk: walkLua,
}

// This grammar folds the layout before some tokens into them ("\nfunction");
// luaTrim moves a declaration's start and name past it.
func walkLua(w *walker, root *tsNode) {
	for _, c := range w.named(root) {
		switch c.Type() {
		case "function_statement":
			name := c.ChildByFieldName("name")
			if name == nil {
				continue
			}
			body := w.firstOfType(c, "function_body")
			if name.Type() == "identifier" { // local function f
				w.luaFunc(c, name, nil, body, w.firstOfType(c, "parameter_list"))
				continue
			}
			parts := w.named(name)
			if len(parts) == 0 {
				continue
			}
			var scope []string
			for _, p := range parts[:len(parts)-1] {
				if p.Type() == "identifier" {
					scope = append(scope, strings.TrimSpace(w.text(p)))
				}
			}
			i := w.luaFunc(c, parts[len(parts)-1], scope, body, w.firstOfType(c, "parameter_list"))
			w.decls[i].qualStart = w.skipSpace(int(name.StartByte()), int(name.EndByte()))
		case "variable_declaration", "local_variable_declaration":
			decl := c.ChildByFieldName("name")
			fn := c.ChildByFieldName("value")
			if decl == nil || fn == nil || fn.Type() != "function" {
				continue
			}
			ids := w.named(decl)
			if len(ids) == 0 || len(ids) != len(w.ofType(decl, "identifier")) {
				continue // `a[k] = function`, or several names
			}
			var scope []string
			for _, id := range ids[:len(ids)-1] {
				scope = append(scope, strings.TrimSpace(w.text(id)))
			}
			i := w.luaFunc(c, ids[len(ids)-1], scope, w.firstOfType(fn, "function_body"), w.firstOfType(fn, "parameter_list"))
			w.decls[i].qualStart = w.skipSpace(int(decl.StartByte()), int(decl.EndByte()))
		}
	}
}

// luaFunc adds a function; the container path (M. or M:) belongs to the
// name, so moving a function to another table keeps its declaration hash.
func (w *walker) luaFunc(node, name *tsNode, scope []string, body, params *tsNode) int {
	kind := "function"
	if len(scope) > 0 {
		kind = "method"
	}
	i := w.add(kind, node, name, body, -1)
	d := &w.decls[i]
	d.scope = scope
	d.callable = true
	for _, p := range w.named(params) {
		d.params = append(d.params, strings.TrimSpace(w.text(p)))
	}
	d.spanStart = w.skipSpace(d.spanStart, d.spanEnd)
	d.hashStart = d.spanStart
	d.nameStart = w.skipSpace(d.nameStart, d.nameEnd)
	d.name = string(w.src[d.nameStart:d.nameEnd])
	return i
}

func (w *walker) skipSpace(s, e int) int {
	for s < e && s < len(w.src) && strings.IndexByte(" \t\r\n\f\v", w.src[s]) >= 0 {
		s++
	}
	return s
}
