package symbols

import "testing"

func TestScalaExtraction(t *testing.T) {
	tab := assertList(t, Scala, fixture(t, "shop.scala"), []string{
		"object Cart",
		"const Cart.max", // val
		"var Cart.count",
		"method Cart.total",
		"method Cart.apply",
		"class Cart", // the companion class: another kind, another declaration
		"method Cart.size",
		"class Cart.Inner",
		"method Cart.Inner.deep",
		"trait Payable",
		"method Payable.pay", // abstract
		"class Item",         // case class
		"function top",       // Scala 3 top-level def
		"enum Color",
		"type Alias",
	})
	if d := find(t, tab, "Payable.pay"); d.Signature != "def pay(x: Int): Int" {
		t.Errorf("pay: %+v", d)
	}
	assertList(t, Scala, "object O {\n  def f(a: Int) = a\n  def f(a: String) = a\n}\n",
		[]string{"object O", "method O.f(Int)", "method O.f(String)"})
}

func TestScalaFormattingAndComments(t *testing.T) {
	src := fixture(t, "shop.scala")
	cases := map[string]string{
		"comments":  edit(t, src, "  val max = 10\n", "  /** The most. */\n  val max = 10 // items\n", "trait", "/* a trait */ trait"),
		"wrapping":  edit(t, src, "def total(xs: List[Int]): Int", "def total(\n      xs: List[Int],\n  ): Int"),
		"semicolon": edit(t, src, "var count = 0", "var count = 0;"),
		"crlf":      edit(t, src, "\n", "\r\n"),
	}
	for name, variant := range cases {
		assertAllSame(t, Scala, name, src, variant)
	}
}

func TestScalaChanges(t *testing.T) {
	src := fixture(t, "shop.scala")
	assertChanged(t, Scala, "body", src, edit(t, src, "xs.sum", "xs.max"), false,
		[]string{"method Cart.total", "object Cart"}, []string{"class Cart", "method Cart.apply"})
	assertChanged(t, Scala, "val", src, edit(t, src, "val max = 10", "val max = 11"), false,
		[]string{"const Cart.max"}, []string{"var Cart.count"})
	assertChanged(t, Scala, "string", "val s = \"a\"\n", "val s = s\"a\"\n", false, []string{"const s"}, nil)
}

func TestScalaRename(t *testing.T) {
	src := fixture(t, "shop.scala")
	assertRenamed(t, Scala, src, edit(t, src, "def top(", "def summit("), "function top", "function summit")
	assertRenamed(t, Scala, src, edit(t, src, "trait Payable", "trait Billable"), "trait Payable", "trait Billable")
}
