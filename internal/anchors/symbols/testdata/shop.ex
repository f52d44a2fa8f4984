defmodule Shop.Cart do
  @moduledoc "x"
  defstruct [:items]
  def total(items), do: Enum.sum(items)
  def add(cart, item) do
    %{cart | items: [item | cart.items]}
  end
  def add(cart, item, n) when n > 0, do: cart
  defp helper(x), do: x
  defmacro m(x) do
    quote do: unquote(x)
  end
  defmodule Inner do
    def deep, do: 1
  end
  def nop
end
