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
			segs, ok := w.luaPath(decl)
			if !ok || len(segs) == 0 {
				continue // `a[k] = function`, or several names
			}
			var scope []string
			for _, sg := range segs[:len(segs)-1] {
				scope = append(scope, sg.text)
			}
			last := segs[len(segs)-1]
			i := w.luaFunc(c, last.node, scope, w.firstOfType(fn, "function_body"), w.firstOfType(fn, "parameter_list"))
			if last.quoted { // M["f"]: the name is the string's content
				d := &w.decls[i]
				d.nameStart, d.nameEnd = int(last.node.StartByte())+1, int(last.node.EndByte())-1
				d.name = last.text
				d.qualEnd = int(decl.EndByte()) // through the closing ]
			}
			w.decls[i].qualStart = w.skipSpace(int(decl.StartByte()), int(decl.EndByte()))
		}
	}
}

// luaSeg is one segment of an assigned name: M, .f, or ["f"].
type luaSeg struct {
	node   *tsNode
	text   string
	quoted bool
}

// luaPath reads a declarator as a static path: identifiers joined by `.`
// and string keys in brackets (M["f"] is M.f). ok is false for a computed
// key (M[k], M[1]) or several names.
func (w *walker) luaPath(decl *tsNode) ([]luaSeg, bool) {
	var out []luaSeg
	bracket := false
	for _, k := range w.kids(decl) {
		n := k.n
		switch {
		case n.Type() == "[":
			bracket = true
		case n.Type() == "]":
			bracket = false
		case n.Type() == "identifier" && !bracket:
			out = append(out, luaSeg{node: n, text: strings.TrimSpace(w.text(n))})
		case n.Type() == "string" && bracket:
			t := w.text(n)
			if len(t) < 3 || t[0] != t[len(t)-1] || t[0] != '"' && t[0] != '\'' || strings.ContainsAny(t[1:len(t)-1], "\\\n.") {
				return nil, false // a long or escaped string, or a key holding a dot
			}
			out = append(out, luaSeg{node: n, text: t[1 : len(t)-1], quoted: true})
		case n.IsNamed() || n.Type() == ",":
			return nil, false
		}
	}
	return out, true
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
