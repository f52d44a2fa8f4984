package symbols

import "testing"

func TestElixirExtraction(t *testing.T) {
	tab := assertList(t, Elixir, fixture(t, "shop.ex"), []string{
		"module Shop.Cart",
		"struct Shop.Cart", // defstruct: named by its module
		"function Shop.Cart.total",
		"function Shop.Cart.add(cart, item)", // two clauses of one name: argument patterns
		"function Shop.Cart.add(cart, item, n)",
		"function Shop.Cart.helper", // defp
		"macro Shop.Cart.m",
		"module Shop.Cart.Inner", // nested: its full module name
		"function Shop.Cart.Inner.deep",
		"function Shop.Cart.nop", // a bodiless head
	})
	if d := tab.Decls[0]; d.Kind != "module" || d.Name != "Cart" || d.Container != "Shop" || d.StartLine != 1 {
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

// defstruct is the struct its module names; defimpl P, for: T is impl P.T
// (T the enclosing module without for:), its functions P.T.fun.
func TestElixirStructsAndImpls(t *testing.T) {
	src := "defmodule Shop.Cart do\n  defstruct items: [], total: 0\n  defimpl String.Chars do\n    def to_string(c), do: \"cart\"\n  end\nend\ndefimpl Inspect, for: Shop.Cart do\n  def inspect(c, _opts), do: \"#Cart\"\nend\n"
	tab := assertList(t, Elixir, src, []string{
		"module Shop.Cart", "struct Shop.Cart", "impl String.Chars.Shop.Cart", "function String.Chars.Shop.Cart.to_string",
		"impl Inspect.Shop.Cart", "function Inspect.Shop.Cart.inspect",
	})
	if d := find(t, tab, "Inspect.Shop.Cart"); d.Kind != "impl" || src[d.NameStartByte:d.NameEndByte] != "Shop.Cart" {
		t.Errorf("impl: %+v", d)
	}
	assertChanged(t, Elixir, "a field's default", src, edit(t, src, "total: 0", "total: 1"), false,
		[]string{"struct Shop.Cart", "module Shop.Cart"}, []string{"impl Inspect.Shop.Cart"})
	assertAllSame(t, Elixir, "layout", src, edit(t, src, "defstruct items: [], total: 0", "defstruct items: [],\n            total: 0 # sum"))
}
