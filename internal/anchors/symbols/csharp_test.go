package symbols

import "testing"

func TestCSharpExtraction(t *testing.T) {
	tab := assertList(t, CSharp, fixture(t, "Checkout.cs"), []string{
		"namespace Shop.Billing",
		"class Shop.Billing.Checkout",
		"field Shop.Billing.Checkout.MaxRetries",
		"field Shop.Billing.Checkout.gateway",
		"field Shop.Billing.Checkout.attempts",
		"field Shop.Billing.Checkout.failures",
		"property Shop.Billing.Checkout.Attempts",
		"property Shop.Billing.Checkout.Done",
		"constructor Shop.Billing.Checkout.Checkout(IGateway)",
		"constructor Shop.Billing.Checkout.Checkout(IGateway, int)",
		"method Shop.Billing.Checkout.Pay(IList<Item>)",
		"method Shop.Billing.Checkout.Pay(Item)",
		"interface Shop.Billing.Checkout.IGateway",
		"method Shop.Billing.Checkout.IGateway.Charge",
		"class Shop.Billing.Checkout.Item",
		"struct Shop.Billing.Checkout.Totals",
		"field Shop.Billing.Checkout.Totals.Net",
		"enum Shop.Billing.Checkout.Totals.Kind",
		"class Shop.Billing.Checkout.Totals.Audit",
		"method Shop.Billing.Checkout.Totals.Audit.Log",
	})
	if d := find(t, tab, "Shop.Billing.Checkout"); d.StartLine != 7 || d.Signature != "[Serializable] public sealed class Checkout" {
		t.Errorf("Checkout: %d %q", d.StartLine, d.Signature)
	}
}

func TestCSharpFileScopedNamespace(t *testing.T) {
	src := "namespace Shop.Api;\n\npublic class Client\n{\n    public void Send() { }\n}\n"
	tab := assertList(t, CSharp, src, []string{"namespace Shop.Api", "class Shop.Api.Client", "method Shop.Api.Client.Send"})
	if d, ok := Innermost(tab, len(src)-3); !ok || d.QualifiedName != "Shop.Api.Client" {
		t.Errorf("Innermost near the end = %q", d.QualifiedName)
	}
}

func TestCSharpFormattingAndChanges(t *testing.T) {
	src := fixture(t, "Checkout.cs")
	cases := map[string]string{
		"comments": edit(t, src, "/// <summary>Checkout flow.</summary>", "/// <summary>\n    /// Checkout flow.\n    /// </summary>",
			"            attempts += 1;", "            // one more\n            attempts += 1; /* counted */"),
		"braces":   edit(t, src, "        public Checkout(IGateway gateway)\n        {\n", "        public Checkout(IGateway gateway) {\n"),
		"wrapping": edit(t, src, "Receipt Charge(long amount, string reference);", "Receipt Charge(\n                long amount,\n                string reference);"),
		"crlf":     edit(t, src, "\n", "\r\n"),
	}
	for name, v := range cases {
		assertAllSame(t, CSharp, name, src, v)
	}
	assertChanged(t, CSharp, "interpolation", src, edit(t, src, `$"pay-{attempts}"`, `$"pay:{attempts}"`), true,
		[]string{"method Shop.Billing.Checkout.Pay(IList<Item>)"}, []string{"method Shop.Billing.Checkout.Pay(Item)"})
	assertChanged(t, CSharp, "attribute", src, edit(t, src, "[Serializable]\n", ""), false,
		[]string{"class Shop.Billing.Checkout"}, []string{"method Shop.Billing.Checkout.Pay(Item)"})
	assertRenamed(t, CSharp, src, edit(t, src, "public Receipt Pay(Item item)", "public Receipt Settle(Item item)"),
		"method Shop.Billing.Checkout.Pay(Item)", "method Shop.Billing.Checkout.Settle")
}

func TestCSharpRawStringDedent(t *testing.T) {
	a := "class A {\n    string S() {\n        return \"\"\"\n            hi\n              there\n            \"\"\";\n    }\n}\n"
	b := "class A {\n  string S() {\n    return \"\"\"\n        hi\n          there\n        \"\"\";\n  }\n}\n"
	assertAllSame(t, CSharp, "re-indent", a, b)
	c := "class A {\n    string S() {\n        return \"\"\"\n            hi\n            there\n            \"\"\";\n    }\n}\n"
	assertChanged(t, CSharp, "content", a, c, false, []string{"method A.S"}, nil)
}
