package symbols

import "testing"

func TestCExtraction(t *testing.T) {
	tab := assertList(t, C, fixture(t, "list.c"), []string{
		"macro LIST_H",
		"macro LIST_MAX",
		"macro LIST_FOREACH",
		"type node_t",
		"struct node",
		"type list_t", // an anonymous struct is only its typedef
		"enum list_status",
		"type list_cmp",
		"function list_free", // a prototype without a definition in this file
		"function list_new",  // the prototypes of defined functions yield to them
		"function list_push",
	})
	if d := find(t, tab, "list_push"); d.BodyHash == "" || d.Signature != "static int list_push(list_t *l, int value)" {
		t.Errorf("list_push: %+v", d)
	}
	if d := find(t, tab, "list_t"); d.BodyHash == "" || d.BodyTokens != 9 { // { node_t * head ; size_t len ; }
		t.Errorf("list_t body is its struct: %+v", d)
	}
}

func TestCFormattingAndChanges(t *testing.T) {
	src := fixture(t, "list.c")
	cases := map[string]string{
		"comments":  edit(t, src, "    n->value = value;\n", "    n->value = value; /* store */\n    // link\n"),
		"wrapping":  edit(t, src, "static int list_push(list_t *l, int value) {", "static int\nlist_push(list_t *l,\n          int value)\n{"),
		"macro":     edit(t, src, "#define LIST_FOREACH(it, l) \\\n    for", "#define LIST_FOREACH(it, l) for"),
		"re-indent": edit(t, src, "\n    ", "\n\t"),
		"crlf":      edit(t, src, "\n", "\r\n"),
	}
	for name, v := range cases {
		assertAllSame(t, C, name, src, v)
	}
	assertChanged(t, C, "body", src, edit(t, src, "l->len++;", "l->len--;"), true, []string{"function list_push"}, []string{"function list_new"})
	assertChanged(t, C, "macro value", src, edit(t, src, "LIST_MAX 1024", "LIST_MAX 2048"), false, []string{"macro LIST_MAX"}, []string{"function list_push"})
	assertChanged(t, C, "char", "int f(void) { return 'a' + 1 + 2 + 3; }\n", "int f(void) { return 'b' + 1 + 2 + 3; }\n", true, []string{"function f"}, nil)
	assertRenamed(t, C, src, edit(t, src, "static int list_push(", "static int list_append("), "function list_push", "function list_append")
}

func TestCPPExtraction(t *testing.T) {
	tab := assertList(t, CPP, fixture(t, "cart.cpp"), []string{
		"namespace shop",
		"namespace shop.io",
		"class shop.io.Cart",
		"method shop.io.Cart.size",
		"class shop.io.Cart.Line",
		"struct shop.io.Cart.Line.Tax",
		"method shop.io.Cart.Line.Tax.rate",
		"constructor shop.io.Cart.Cart(int)", // out of line; the in-class prototypes yield
		"constructor shop.io.Cart.Cart(const Cart &)",
		"method shop.io.Cart.~Cart",
		"method shop.io.Cart.add(const std::string &, int)",
		"method shop.io.Cart.add(int)",
		"function shop.io.clamp",
		"type shop.io.Sku",
		"enum shop.io.Mode",
		"function shop.io_count",
	})
	add := find(t, tab, "shop.io.Cart.add(int)")
	if add.Container != "shop.io.Cart" || add.Name != "add(int)" || add.StartLine != 42 {
		t.Errorf("add: %+v", add)
	}
	if d := find(t, tab, "shop.io.clamp"); d.StartLine != 44 || d.Signature != "template <typename T> T clamp(T v, T lo, T hi)" {
		t.Errorf("clamp spans its template: %+v", d)
	}
}

func TestCPPOutOfLine(t *testing.T) {
	// A::f outside any namespace; N::g where N is a namespace of the file.
	src := "struct A { void f(); };\nvoid A::f() { int x = 1; x += 2; }\nnamespace N { void g(); }\nvoid N::g() {}\n"
	assertList(t, CPP, src, []string{"struct A", "method A.f", "namespace N", "function N.g"})
	src2 := fixture(t, "cart.cpp")
	assertChanged(t, CPP, "body", src2, edit(t, src2, "l.qty = qty;", "l.qty = qty + 1;"), true,
		[]string{"method shop.io.Cart.add(const std::string &, int)", "namespace shop.io"},
		[]string{"method shop.io.Cart.add(int)", "class shop.io.Cart"})
	assertAllSame(t, CPP, "comments", src2, edit(t, src2, "    Line l;\n", "    Line l;  // a new line\n    /* fill it */\n"))
	assertRenamed(t, CPP, src2, edit(t, src2, "T clamp(", "T bound("), "function shop.io.clamp", "function shop.io.bound")
}
