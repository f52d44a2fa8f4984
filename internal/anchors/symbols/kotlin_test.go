package symbols

import (
	"strings"
	"testing"
)

// F-KT from clewwiki-cases.md; T-19, T-21, T-23 in our vocabulary.
func TestKotlinExtractionFKT(t *testing.T) {
	tab := assertList(t, Kotlin, fixture(t, "Checkout.kt"), []string{
		"type Cents",
		"property MAX_RETRIES",
		"function total",
		"function List<Item>.cheapest", // T-21: the receiver is the container
		"property String.slug",
		"class Item", // primary-constructor properties are not declarations
		"interface Gateway",
		"property Gateway.name",
		"method Gateway.charge",
		"enum Currency",
		"method Currency.symbol",
		"object Registry",
		"property Registry.gateways",
		"method Registry.register",
		"class Checkout",
		"property Checkout.attempts",
		"constructor Checkout.constructor",
		"method Checkout.pay(List<Item>)", // overloads by type (our rule, not ClewWiki's names)
		"method Checkout.pay(Item)",
		"property Checkout.VERSION", // T-23: companion members are class members
		"method Checkout.create",
	})
	for _, d := range tab.Decls {
		if strings.Contains(d.QualifiedName, "Companion") {
			t.Errorf("T-23: %s", d.QualifiedName)
		}
	}
	if d := find(t, tab, "List<Item>.cheapest"); d.Container != "List<Item>" || d.Name != "cheapest" {
		t.Errorf("cheapest: %+v", d)
	}
	if d := find(t, tab, "String.slug"); d.BodyHash == "" || d.EndLine != 20 {
		t.Errorf("slug: the getter is its body: %+v", d)
	}
	if d := find(t, tab, "Checkout.attempts"); d.EndLine != 45 {
		t.Errorf("attempts: the private setter belongs to it: %+v", d)
	}
}

func TestKotlinFormattingAndChanges(t *testing.T) {
	src := fixture(t, "Checkout.kt")
	// T-25: wrapped header, comments and blank lines in the body.
	t25 := edit(t, src, "    suspend fun pay(items: List<Item>): Receipt {\n        attempts += 1\n        val amount = total(items)\n",
		"    suspend fun pay(\n        items: List<Item>\n    ): Receipt {\n        // count the attempt\n        attempts += 1\n\n        /* price it */\n        val amount = total(items)\n")
	assertAllSame(t, Kotlin, "T-25", src, t25)
	assertAllSame(t, Kotlin, "kdoc", src, edit(t, src, " * Total of the items, minus a discount.", " * Total of the items.\n * Minus a discount."))
	assertAllSame(t, Kotlin, "semicolons and trailing commas", src, edit(t, src,
		"        attempts += 1\n", "        attempts += 1;\n",
		"fun total(items: List<Item>, discount: Int = 0): Cents {", "fun total(\n    items: List<Item>,\n    discount: Int = 0,\n): Cents {"))
	assertAllSame(t, Kotlin, "crlf", src, edit(t, src, "\n", "\r\n"))
	// T-27: rename keeps the hashes.
	assertRenamed(t, Kotlin, src, edit(t, src, "suspend fun pay(items", "suspend fun settle(items"),
		"method Checkout.pay(List<Item>)", "method Checkout.settle")
	// T-53: an edit in one overload leaves the other and the extension alone.
	assertChanged(t, Kotlin, "T-53", src, edit(t, src, "val amount = total(items)", "val amount = total(items) + 1"), true,
		[]string{"method Checkout.pay(List<Item>)", "class Checkout"}, []string{"method Checkout.pay(Item)", "property String.slug", "function List<Item>.cheapest"})
	assertChanged(t, Kotlin, "getter", src, edit(t, src, "replace(' ', '-')", "replace(' ', '_')"), true,
		[]string{"property String.slug"}, []string{"function total"})
	assertChanged(t, Kotlin, "companion member", src, edit(t, src, `const val VERSION = "1"`, `const val VERSION = "2"`), false,
		[]string{"property Checkout.VERSION", "class Checkout"}, []string{"method Checkout.create"})
}
