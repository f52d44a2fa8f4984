package symbols

import "testing"

func TestLuaExtraction(t *testing.T) {
	tab := assertList(t, Lua, fixture(t, "shop.lua"), []string{
		"method M.add",    // function M.add
		"method M.method", // function M:method
		"function helper", // local function
		"function global_fn",
		"method a.b.c",
		"function f", // local f = function
		"method M.g", // M.g = function
	})
	// The grammar folds the newline before `function` into the token: the
	// declaration still starts on its own line, its name on the name.
	src := fixture(t, "shop.lua")
	d := find(t, tab, "M.add")
	if d.StartLine != 2 || src[d.NameStartByte:d.NameEndByte] != "add" || d.Signature != "function M.add(a, b)" {
		t.Errorf("M.add: %+v", d)
	}
	if d := find(t, tab, "helper"); d.Signature != "local function helper(x)" {
		t.Errorf("helper: %+v", d)
	}
}

func TestLuaFormattingAndComments(t *testing.T) {
	src := fixture(t, "shop.lua")
	cases := map[string]string{
		"comments":  edit(t, src, "function M.add(a, b) return a + b end", "-- adds\nfunction M.add(a, b)\n  --[[ both ]] return a + b -- sum\nend"),
		"semicolon": edit(t, src, "return x * 2 end", "return x * 2; end"),
		"crlf":      edit(t, src, "\n", "\r\n"),
		"re-indent": edit(t, src, "\nfunction", "\n  function"),
	}
	for name, variant := range cases {
		assertAllSame(t, Lua, name, src, variant)
	}
	// '…' and "…" are the same string in Lua.
	assertAllSame(t, Lua, "quotes", "function f() return 'it\\'s' .. \"y\" end\n", "function f() return \"it's\" .. 'y' end\n")
}

func TestLuaChanges(t *testing.T) {
	src := fixture(t, "shop.lua")
	assertChanged(t, Lua, "body", src, edit(t, src, "return a + b", "return a - b"), false,
		[]string{"method M.add"}, []string{"method M.method", "function helper"})
	assertChanged(t, Lua, "string", "function f() return 'a' end\n", "function f() return 'b' end\n", false, []string{"function f"}, nil)
}

func TestLuaRename(t *testing.T) {
	src := fixture(t, "shop.lua")
	assertRenamed(t, Lua, src, edit(t, src, "local function helper", "local function assist"), "function helper", "function assist")
	// Moving a function to another table keeps its declaration hash.
	assertRenamed(t, Lua, src, edit(t, src, "function M.add", "function N.add"), "method M.add", "method N.add")
	assertRenamed(t, Lua, src, edit(t, src, "function M:method", "function M:act"), "method M.method", "method M.act")
}

// M["f"] = function is the method M.f, named by the string's content and
// hashed as M.f = function is; a computed key (M[k], M[1]) names nothing.
func TestLuaStringKeyedMethods(t *testing.T) {
	src := "local M = {}\nM[\"fmt\"] = function(x)\n  return tostring(x)\nend\nM[k] = function() end\nM[1] = function() end\nM['a.b'] = function() end\n"
	tab := assertList(t, Lua, src, []string{"method M.fmt"})
	d := find(t, tab, "M.fmt")
	if src[d.NameStartByte:d.NameEndByte] != "fmt" || d.StartLine != 2 {
		t.Errorf("M.fmt: %+v", d)
	}
	assertAllSame(t, Lua, "bracket vs dot", src, edit(t, src, `M["fmt"] = function`, "M.fmt = function"))
	assertAllSame(t, Lua, "quotes", src, edit(t, src, `M["fmt"]`, `M['fmt']`))
}
