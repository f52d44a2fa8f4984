package symbols

import "testing"

func TestPythonExtraction(t *testing.T) {
	tab := assertList(t, Python, fixture(t, "shop.py"), []string{
		"const MAX_ITEMS",
		"var default_currency",
		"var total_count",
		"function total",
		"class Item", // span includes the decorator
		"var Item.name",
		"var Item.price",
		"method Item.label",
		"class Item.Meta",
		"var Item.Meta.ordering",
		"class Item.Meta.Inner",
		"method Item.Meta.Inner.deep",
		"class Cart",
		"method Cart.__init__",
		"method Cart.size(self)",      // @property
		"method Cart.size(self, int)", // @size.setter
		"method Cart.pay",             // the nested helper is not indexed
	})
	item := find(t, tab, "Item")
	if item.StartLine != 15 || item.Signature != "@dataclasses.dataclass class Item:" {
		t.Errorf("Item: line %d, signature %q", item.StartLine, item.Signature)
	}
	if d := find(t, tab, "Item.Meta.Inner.deep"); d.Container != "Item.Meta.Inner" {
		t.Errorf("deep: %+v", d)
	}
}

func TestPythonFormattingAndComments(t *testing.T) {
	src := fixture(t, "shop.py")
	cases := map[string]string{
		"quotes": edit(t, src, `"EUR"`, `'EUR'`, `'deep'`, `"deep"`, `["name"]`, `['name']`, `'read only'`, `"read only"`),
		"docstrings": edit(t, src, `"""Sum the prices."""`, `"""Sum the prices.

    Discount is in cents.
    """`, `"""One line."""`, `'''Another line.'''`),
		"comments":  edit(t, src, "        return len(self.items)\n", "        # cached?\n        return len(self.items)  # yes\n"),
		"wrapping":  edit(t, src, "def total(items, discount: int = 0) -> int:", "def total(\n    items,\n    discount: int = 0,\n) -> int:"),
		"prefixes":  edit(t, src, `f"{self.name}: {self.price}"`, `F"{self.name}: {self.price}"`),
		"re-indent": edit(t, src, "\n    ", "\n  ", "\n  ", "\n  "),
		"blank":     edit(t, src, "\n\n", "\n\n\n"),
		"crlf":      edit(t, src, "\n", "\r\n"),
	}
	for name, variant := range cases {
		assertAllSame(t, Python, name, src, variant)
	}
	// A docstring added where there was none is not a token either.
	a := "def f(x):\n    return x + 1\n"
	b := "def f(x):\n    \"\"\"Adds one.\"\"\"\n    return x + 1\n"
	assertAllSame(t, Python, "new docstring", a, b)
	// A string that is not the first statement is code.
	c := "def f(x):\n    y = x\n    'not a docstring'\n    return y\n"
	d := "def f(x):\n    y = x\n    'other'\n    return y\n"
	assertChanged(t, Python, "late string", c, d, false, []string{"function f"}, nil)
	// (a,) is a tuple, (a) is not.
	assertChanged(t, Python, "one-tuple", "X = (a,)\n", "X = (a)\n", false, []string{"const X"}, nil)
	assertAllSame(t, Python, "trailing comma", "X = [a, b,]\n", "X = [a, b]\n")
}

func TestPythonChanges(t *testing.T) {
	src := fixture(t, "shop.py")
	assertChanged(t, Python, "operator", src, edit(t, src, "s - discount", "s + discount"), true,
		[]string{"function total"}, []string{"class Item", "class Cart"})
	assertChanged(t, Python, "decorator", src, edit(t, src, "@dataclasses.dataclass\n", "@dataclasses.dataclass(frozen=True)\n"), false,
		[]string{"class Item"}, []string{"method Item.label"})
	assertChanged(t, Python, "member", src, edit(t, src, "return 'deep'", "return 'shallow'"), false,
		[]string{"class Item", "class Item.Meta", "class Item.Meta.Inner", "method Item.Meta.Inner.deep"}, []string{"class Cart"})
	assertChanged(t, Python, "raw prefix", "X = r'a'\n", "X = 'a'\n", false, []string{"const X"}, nil)
}

func TestPythonRename(t *testing.T) {
	src := fixture(t, "shop.py")
	assertRenamed(t, Python, src, edit(t, src, "def total(", "def grand_total("), "function total", "function grand_total")
	assertRenamed(t, Python, src, edit(t, src, "async def pay(", "async def settle("), "method Cart.pay", "method Cart.settle")
	assertRenamed(t, Python, src, edit(t, src, "MAX_ITEMS = 100", "LIMIT = 100"), "const MAX_ITEMS", "const LIMIT")
}

// black adds wrapping parentheses and drops redundant ones: the hash follows
// the tree, not the parentheses.
func TestPythonParentheses(t *testing.T) {
	same := [][2]string{
		{"x = a + b\n", "x = (\n    a + b\n)\n"},
		{"if (ready):\n    go()\n", "if ready:\n    go()\n"},
		{"return_value = (yield)\n", "return_value = yield\n"},
		{"y = a and b or c\n", "y = (a and b) or c\n"},
		{"z = f(a + 1)\n", "z = f((a + 1))\n"},
	}
	for _, c := range same {
		if a, b := Tokens(Python, []byte(c[0])), Tokens(Python, []byte(c[1])); !equalStrings(a, b) {
			t.Errorf("%q vs %q:\n%q\n%q", c[0], c[1], a, b)
		}
	}
	differ := [][2]string{
		{"x = (a + b) * c\n", "x = a + b * c\n"},
		{"x = not (a and b)\n", "x = not a and b\n"},
		{"x = (a,)\n", "x = (a)\n"},
		{"x = (a, b)\n", "x = a, b, c\n"},
	}
	for _, c := range differ {
		if a, b := Tokens(Python, []byte(c[0])), Tokens(Python, []byte(c[1])); equalStrings(a, b) {
			t.Errorf("%q and %q hash alike: %q", c[0], c[1], a)
		}
	}
}

// messy_black.py is what black 24 prints for messy.py (written by hand here:
// black is not installable offline; TestBlackKeepsHashes runs the real one).
func TestPythonBlackOutput(t *testing.T) {
	assertAllSame(t, Python, "black", fixture(t, "messy.py"), fixture(t, "messy_black.py"))
}
