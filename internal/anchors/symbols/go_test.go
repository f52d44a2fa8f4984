package symbols

import (
	"go/format"
	"testing"
)

func TestGoExtraction(t *testing.T) {
	tab := assertList(t, Go, fixture(t, "shop.go"), []string{
		"var ErrEmpty",
		"const MaxItems",
		"const minPrice",
		"type Cents",
		"type ID",
		"struct Item",
		"field Item.Name",
		"field Item.Price",
		"field Item.Meta",
		"field Item.Meta.Tags",
		"field Item.Meta.Dims",
		"field Item.Meta.Dims.W",
		"field Item.Meta.Dims.H",
		"field Item.Stringer",
		"struct Store",
		"field Store.items",
		"method Store.Get", // (s *Store[K, V])
		"method Store.Len", // (s Store[K, V])
		"interface Gateway",
		"method Gateway.Charge",
		"struct Cart",
		"field Cart.items",
		"method Cart.Add",
		"function Total", // the closure `local` inside is not indexed
		"function init",
	})
	get := find(t, tab, "Store.Get")
	if get.Container != "Store" || get.Name != "Get" || get.StartLine != 41 || get.EndLine != 44 {
		t.Errorf("Store.Get = %+v", get)
	}
	if get.Signature != "func (s *Store[K, V]) Get(k K) (V, bool)" {
		t.Errorf("signature %q", get.Signature)
	}
	dims := find(t, tab, "Item.Meta.Dims.W")
	if dims.Container != "Item.Meta.Dims" {
		t.Errorf("container %q", dims.Container)
	}
	if d := find(t, tab, "Store.Len"); d.BodyHash == "" || d.BodyTokens != 9 { // { return len ( s . items ) }
		t.Errorf("Len body: %q %d", d.BodyHash, d.BodyTokens)
	}
	if d := find(t, tab, "init"); d.BodyHash != "" || d.BodyTokens != 2 {
		t.Errorf("init body: %q %d", d.BodyHash, d.BodyTokens)
	}
	src := fixture(t, "shop.go")
	if d := find(t, tab, "Cart.Add"); src[d.NameStartByte:d.NameEndByte] != "Add" {
		t.Errorf("name span %q", src[d.NameStartByte:d.NameEndByte])
	}
}

func TestGoGofmtKeepsHashes(t *testing.T) {
	messy := fixture(t, "messy.go.txt") // not .go: gofmt -l must not flag it
	tidy, err := format.Source([]byte(messy))
	if err != nil {
		t.Fatal(err)
	}
	if string(tidy) == messy {
		t.Fatal("fixture is already formatted")
	}
	assertAllSame(t, Go, "gofmt", messy, string(tidy))
	assertList(t, Go, string(tidy), []string{
		"struct Point", "field Point.X", "field Point.Y", "field Point.Label",
		"method Point.Move", "function Sum", "var registry", "const A", "const B",
		"interface Shape", "method Shape.Area", "method Shape.Perimeter",
	})
}

func TestGoFormattingAndComments(t *testing.T) {
	src := fixture(t, "shop.go")
	cases := map[string]string{
		"comments": edit(t, src,
			"// Total sums the prices.", "// Total sums the prices.\n// It ignores taxes.",
			"\tvar sum Cents\n", "\tvar sum Cents // running total\n\t/* loop */\n",
			"func init() {}", "func init() { /* nothing */ }"),
		"blank lines and wrapping": edit(t, src,
			"func Total(items []Item, discount Cents) Cents {", "func Total(\n\titems []Item,\n\tdiscount Cents,\n) Cents {\n",
			"\treturn fmt.Errorf(\"cart full: %d\", len(c.items))", "\treturn fmt.Errorf(\n\t\t\"cart full: %d\",\n\t\tlen(c.items),\n\t)"),
		"semicolons": edit(t, src, "\tv, ok := s.items[k]\n\treturn v, ok", "\tv, ok := s.items[k]; return v, ok;"),
		"re-indent":  edit(t, src, "\n\t", "\n    "),
		"crlf":       edit(t, src, "\n", "\r\n"),
	}
	for name, variant := range cases {
		assertAllSame(t, Go, name, src, variant)
	}
}

func TestGoChanges(t *testing.T) {
	src := fixture(t, "shop.go")
	assertChanged(t, Go, "operator", src, edit(t, src, "sum += it.Price", "sum -= it.Price"), true,
		[]string{"function Total"}, []string{"method Cart.Add", "struct Item"})
	assertChanged(t, Go, "literal", src, edit(t, src, `errors.New("empty cart")`, `errors.New("empty")`), false,
		[]string{"var ErrEmpty"}, []string{"function Total"})
	assertChanged(t, Go, "identifier", src, edit(t, src, "return max(0, sum-discount)", "return min(0, sum-discount)"), true,
		[]string{"function Total"}, nil)
	// A member edit makes the container stale (T-09), not its siblings.
	assertChanged(t, Go, "nested field", src, edit(t, src, "W, H int", "W, H int64"), true,
		[]string{"struct Item", "field Item.Meta"}, []string{"field Item.Name"})
	assertChanged(t, Go, "nested field", src, edit(t, src, "W, H int", "W, H int64"), false,
		[]string{"field Item.Meta.Dims", "field Item.Meta.Dims.W"}, nil)
	assertChanged(t, Go, "receiver", src, edit(t, src, "func (s Store[K, V]) Len()", "func (s *Store[K, V]) Len()"), false,
		[]string{"method Store.Len"}, nil)
	assertChanged(t, Go, "number", src, edit(t, src, "MaxItems = 100", "MaxItems = 0x64"), false,
		[]string{"const MaxItems"}, []string{"const minPrice"})
}

func TestGoRename(t *testing.T) {
	src := fixture(t, "shop.go")
	assertRenamed(t, Go, src, edit(t, src, "func Total(", "func Sum("), "function Total", "function Sum")
	assertRenamed(t, Go, src, edit(t, src, ") Add(it Item)", ") Put(it Item)"), "method Cart.Add", "method Cart.Put")
	assertRenamed(t, Go, src, edit(t, src, "type Cart struct", "type Basket struct"), "struct Cart", "struct Basket")
	assertRenamed(t, Go, src, edit(t, src, "\tMaxItems = 100", "\tLimit = 100"), "const MaxItems", "const Limit")
	// Renaming the receiver type moves the method, keeps its hashes apart from the receiver token.
	b := edit(t, src, "func (s *Store[K, V]) Get", "func (s *Shelf[K, V]) Get")
	if _, ok := hashMap(Go, b)["method Shelf.Get"]; !ok {
		t.Error("method did not follow its receiver")
	}
}

func TestGoGroupingKeepsHash(t *testing.T) {
	// Moving a const into or out of a group is layout.
	a := "package p\n\nconst A = 1\n\ntype T int\n"
	b := "package p\n\nconst (\n\tA = 1\n\tZ = 2\n)\n\ntype (\n\tT int\n)\n"
	ha, hb := hashMap(Go, a), hashMap(Go, b)
	if ha["const A"] != hb["const A"] || ha["type T"] != hb["type T"] {
		t.Errorf("grouping changed hashes: %v vs %v", ha, hb)
	}
}

func TestGoNumberNormalisation(t *testing.T) {
	a := Tokens(Go, []byte("package p\nvar x = 0X1F + 1E3 + 0x1P-2i\n"))
	b := Tokens(Go, []byte("package p\nvar x = 0x1F + 1e3 + 0x1p-2i\n"))
	if !equalStrings(a, b) {
		t.Errorf("%q vs %q", a, b)
	}
}

func equalStrings(a, b []string) bool {
	if len(a) != len(b) {
		return false
	}
	for i := range a {
		if a[i] != b[i] {
			return false
		}
	}
	return true
}
