package symbols

import "testing"

func TestPHPExtraction(t *testing.T) {
	tab := assertList(t, PHP, fixture(t, "shop.php"), []string{
		"const LIMIT",
		"function top",
		"interface Payable",
		"method Payable.pay",
		"trait Greets",
		"method Greets.hi",
		"class Cart",
		"const Cart.MAX",
		"property Cart.items", // without the $
		"method Cart.pay",
		"method Cart.make",
		"enum Suit",
		"const Suit.Hearts",
	})
	if d := find(t, tab, "Cart.make"); d.Signature != "public static function make()" {
		t.Errorf("make: %+v", d)
	}
	assertList(t, PHP, "<?php\nclass A { const X = 1, Y = 2; public $a, $b; }\n",
		[]string{"class A", "const A.X", "const A.Y", "property A.a", "property A.b"})
	assertList(t, PHP, "<?php\nnamespace N {\n  function f() { return 1; }\n}\n", []string{"function f"})
}

func TestPHPFormattingAndComments(t *testing.T) {
	src := fixture(t, "shop.php")
	cases := map[string]string{
		"comments": edit(t, src, "{ return $x * 2; }", "{\n        // double\n        return $x * 2; # twice\n    }", "trait", "/** Greeting. */\ntrait"),
		"wrapping": edit(t, src, "function top($a)", "function top(\n    $a,\n)"),
		"crlf":     edit(t, src, "\n", "\r\n"),
	}
	for name, variant := range cases {
		assertAllSame(t, PHP, name, src, variant)
	}
}

func TestPHPChanges(t *testing.T) {
	src := fixture(t, "shop.php")
	// "hi $x" interpolates, 'hi $x' does not.
	assertChanged(t, PHP, "quotes", src, edit(t, src, `"hi $this->name"`, `'hi $this->name'`), false,
		[]string{"method Greets.hi", "trait Greets"}, []string{"class Cart"})
	assertChanged(t, PHP, "body", src, edit(t, src, "$x * 2", "$x * 3"), true,
		[]string{"method Cart.pay", "class Cart"}, []string{"method Cart.make", "function top"})
	assertChanged(t, PHP, "visibility", src, edit(t, src, "private $items", "public $items"), false,
		[]string{"property Cart.items"}, []string{"method Cart.pay"})
}

func TestPHPRename(t *testing.T) {
	src := fixture(t, "shop.php")
	assertRenamed(t, PHP, src, edit(t, src, "function top(", "function summit("), "function top", "function summit")
	assertRenamed(t, PHP, src, edit(t, src, "function make(", "function create("), "method Cart.make", "method Cart.create")
}
