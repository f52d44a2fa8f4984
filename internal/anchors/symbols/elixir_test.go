package symbols

import "testing"

func TestElixirExtraction(t *testing.T) {
	tab := assertList(t, Elixir, fixture(t, "shop.ex"), []string{
		"module Shop.Cart",
		"function Shop.Cart.total",
		"function Shop.Cart.add(cart, item)", // two clauses of one name: argument patterns
		"function Shop.Cart.add(cart, item, n)",
		"function Shop.Cart.helper", // defp
		"macro Shop.Cart.m",
		"module Shop.Cart.Inner", // nested: its full module name
		"function Shop.Cart.Inner.deep",
		"function Shop.Cart.nop", // a bodiless head
	})
	if d := find(t, tab, "Shop.Cart"); d.Name != "Cart" || d.Container != "Shop" || d.StartLine != 1 {
		t.Errorf("Shop.Cart: %+v", d)
	}
	if d := find(t, tab, "Shop.Cart.add(cart, item, n)"); d.Signature != "def add(cart, item, n) when n > 0," {
		t.Errorf("add/3: %+v", d)
	}
}

func TestElixirFormattingAndComments(t *testing.T) {
	src := fixture(t, "shop.ex")
	cases := map[string]string{
		"comments":  edit(t, src, "  defp helper", "  # private\n  defp helper", "[item | cart.items]}", "[item | cart.items]} # prepend"),
		"re-indent": edit(t, src, "\n    ", "\n      "),
		"wrapping":  edit(t, src, "%{cart | items: [item | cart.items]}", "%{\n      cart\n      | items: [item | cart.items]\n    }"),
		"crlf":      edit(t, src, "\n", "\r\n"),
	}
	for name, variant := range cases {
		assertAllSame(t, Elixir, name, src, variant)
	}
}

func TestElixirChanges(t *testing.T) {
	src := fixture(t, "shop.ex")
	assertChanged(t, Elixir, "body", src, edit(t, src, "[item | cart.items]", "[cart.items | item]"), true,
		[]string{"function Shop.Cart.add(cart, item)", "module Shop.Cart"}, []string{"function Shop.Cart.total", "module Shop.Cart.Inner"})
	// "…" is a binary, '…' a charlist.
	assertChanged(t, Elixir, "quotes", "defmodule A do\n  def f, do: \"x\"\nend\n", "defmodule A do\n  def f, do: 'x'\nend\n", false,
		[]string{"function A.f"}, nil)
}

func TestElixirRename(t *testing.T) {
	src := fixture(t, "shop.ex")
	assertRenamed(t, Elixir, src, edit(t, src, "def total(", "def sum("), "function Shop.Cart.total", "function Shop.Cart.sum")
	assertRenamed(t, Elixir, src, edit(t, src, "defmodule Inner", "defmodule Deep"), "module Shop.Cart.Inner", "module Shop.Cart.Deep")
}
