package symbols

import "testing"

func TestJavaExtraction(t *testing.T) {
	tab := assertList(t, Java, fixture(t, "Checkout.java"), []string{
		"class Checkout",
		"field Checkout.MAX_RETRIES",
		"field Checkout.gateway",
		"field Checkout.attempts",
		"field Checkout.failures",
		"constructor Checkout.Checkout(Gateway)",
		"constructor Checkout.Checkout(Gateway, int)",
		"method Checkout.pay(List<Item>)",
		"method Checkout.pay(Item)",
		"method Checkout.banner",
		"interface Checkout.Gateway",
		"method Checkout.Gateway.charge",
		"class Checkout.Item", // record
		"constructor Checkout.Item.Item",
		"enum Checkout.State",
		"method Checkout.State.done",
		"class Checkout.State.Audit",
		"class Checkout.State.Audit.Entry",
		"method Checkout.State.Audit.Entry.log",
	})
	if d := find(t, tab, "Checkout"); d.StartLine != 6 || d.Signature != "@Service public class Checkout" {
		t.Errorf("Checkout: %d %q", d.StartLine, d.Signature)
	}
}

func TestJavaFormattingAndChanges(t *testing.T) {
	src := fixture(t, "Checkout.java")
	cases := map[string]string{
		"comments": edit(t, src, "/** Checkout flow. */", "/**\n * Checkout flow.\n * @since 2\n */",
			"        attempts += 1;", "        // one more\n        attempts += 1; /* counted */"),
		"wrapping":  edit(t, src, "public Checkout(Gateway gateway, int attempts) {", "public Checkout(\n            Gateway gateway,\n            int attempts) {"),
		"re-indent": edit(t, src, "\n    ", "\n  "), // the text block moves with its code
		"crlf":      edit(t, src, "\n", "\r\n"),
	}
	for name, v := range cases {
		assertAllSame(t, Java, name, src, v)
	}
	assertChanged(t, Java, "text block", src, edit(t, src, "              to the shop", "            to the shop"), false,
		[]string{"method Checkout.banner"}, []string{"method Checkout.pay(Item)"})
	assertChanged(t, Java, "annotation", src, edit(t, src, "@Service\n", ""), false, []string{"class Checkout"}, nil)
	assertChanged(t, Java, "body", src, edit(t, src, "attempts += 1;", "attempts += 2;"), true,
		[]string{"method Checkout.pay(List<Item>)", "class Checkout"}, []string{"method Checkout.pay(Item)"})
	assertRenamed(t, Java, src, edit(t, src, "static String banner()", "static String welcome()"), "method Checkout.banner", "method Checkout.welcome")
}
