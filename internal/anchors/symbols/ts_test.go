package symbols

import (
	"testing"
)

// F-TS from clewwiki-cases.md.
func TestTSExtractionFTS(t *testing.T) {
	tab := assertList(t, TypeScript, fixture(t, "rates.ts"), []string{
		"interface Quote",
		"property Quote.symbol",
		"method Quote.price",
		"class RateBook",
		"property RateBook.entries",
		"method RateBook.record",
		"method RateBook.lookup",
		"method RateBook.size",
		"function normalise",
		"function refresh",
	})
	// T-17: `size(): number { return 0; }` is too short to be recovered by body.
	size := find(t, tab, "RateBook.size")
	if size.BodyHash != "" || size.BodyTokens >= MinBodyTokens {
		t.Errorf("size body: %q, %d tokens", size.BodyHash, size.BodyTokens)
	}
	rec := find(t, tab, "RateBook.record")
	if rec.Container != "RateBook" || rec.BodyHash == "" || rec.StartLine != 11 || rec.EndLine != 14 {
		t.Errorf("record: %+v", rec)
	}
	if n := find(t, tab, "normalise"); n.BodyHash == "" || n.StartLine != 25 || n.EndLine != 28 {
		t.Errorf("normalise: %+v", n)
	}
}

// T-11: a TSX function component.
func TestTSXBadge(t *testing.T) {
	tab := assertList(t, TSX, fixture(t, "badge.tsx"), []string{"function Badge"})
	if tab.SyntaxErrors != 0 {
		t.Errorf("%d syntax errors", tab.SyntaxErrors)
	}
	// JSX text whitespace is layout.
	a := "export const A = () => <p>\n  hello   world\n</p>;\n"
	b := "export const A = () => <p>hello world</p>;\n"
	assertAllSame(t, TSX, "jsx text", a, b)
}

func TestTSDeepAndOverloads(t *testing.T) {
	tab := assertList(t, TypeScript, fixture(t, "deep.ts"), []string{
		"namespace NS",
		"namespace NS.Inner",
		"class NS.Inner.C",
		"method NS.Inner.C.m",
		"interface NS.Shape",
		"method NS.Shape.area",
		"property NS.Shape.name",
		"namespace legacy",
		"function legacy.old",
		"function parse(string)",
		"function parse(string, number)",
		"function parse(string, number?)",
		"class Cart",
		"method Cart.total()",       // D-12: getter and setter are told apart
		"method Cart.total(number)", // by their parameters
		"property Cart.t",
		"enum Color",
		"type Point",
		"property Point.x",
		"property Point.y",
		"type Id",
		"class Main",
		// anonymous default export and destructuring are not indexed
	})
	c := find(t, tab, "NS.Inner.C.m")
	if c.Container != "NS.Inner.C" || c.Name != "m" {
		t.Errorf("m: %+v", c)
	}
	if p := find(t, tab, "parse(string, number)"); p.Name != "parse(string, number)" || p.StartLine != 18 {
		t.Errorf("parse: %+v", p)
	}
}

func TestTSFormattingAndComments(t *testing.T) {
	src := fixture(t, "rates.ts")
	cases := map[string]string{
		"quotes": edit(t, src, "'./io'", `"./io"`),
		"comments": edit(t, src,
			"  lookup(symbol: string): number | undefined {\n", "  /** Looks up. */\n  lookup(symbol: string): number | undefined {\n    // note\n",
			"const rounded =", "/* round */ const rounded ="),
		"wrapping and trailing commas": edit(t, src,
			"record(symbol: string, price: number): void {", "record(\n    symbol: string,\n    price: number,\n  ): void {",
			"this.entries.set(symbol, rounded);", "this.entries.set(\n      symbol,\n      rounded,\n    );"),
		"semicolons":  edit(t, src, "const trimmed = input.trim();", "const trimmed = input.trim()"),
		"blank lines": edit(t, src, "    this.entries.set", "\n\n    this.entries.set"),
		"re-indent":   edit(t, src, "\n  ", "\n    "),
		"crlf":        edit(t, src, "\n", "\r\n"),
		"numbers":     edit(t, src, "price * 100) / 100", "price * 100.0) / 100.00"),
	}
	for name, variant := range cases {
		assertAllSame(t, TypeScript, name, src, variant)
	}
	if a, b := Tokens(TypeScript, []byte("x = 1.50E+02 + .5 + 0XAB")), Tokens(TypeScript, []byte("x = 1.5e2 + 0.5 + 0xab")); !equalStrings(a, b) {
		t.Errorf("prettier number forms: %q vs %q", a, b)
	}
}

func TestTSChanges(t *testing.T) {
	src := fixture(t, "rates.ts")
	// T-13: body change → stale; the class goes stale with it (T-09).
	assertChanged(t, TypeScript, "T-13", src, edit(t, src, "price * 100) / 100", "price * 1000) / 1000"), true,
		[]string{"method RateBook.record", "class RateBook"}, []string{"method RateBook.lookup", "function normalise"})
	assertChanged(t, TypeScript, "string value", src, edit(t, src, "'./io'", "'./io2'"), false, nil,
		[]string{"class RateBook"})
	assertChanged(t, TypeScript, "arrow body", src, edit(t, src, "toUpperCase", "toLowerCase"), true,
		[]string{"function normalise"}, []string{"function refresh"})
	assertChanged(t, TypeScript, "type", src, edit(t, src, "readonly symbol: string;", "readonly symbol: number;"), false,
		[]string{"property Quote.symbol", "interface Quote"}, []string{"method Quote.price"})
	// D-24: a comment inside a member leaves the container fresh.
	assertAllSame(t, TypeScript, "D-24", src, edit(t, src, "    return this.entries.get(symbol);", "    // note\n    return this.entries.get(symbol);"))
}

func TestTSRename(t *testing.T) {
	src := fixture(t, "rates.ts")
	assertRenamed(t, TypeScript, src, edit(t, src, "  record(symbol", "  store(symbol"), "method RateBook.record", "method RateBook.store")
	assertRenamed(t, TypeScript, src, edit(t, src, "const normalise", "const clean"), "function normalise", "function clean")
	assertRenamed(t, TypeScript, src, edit(t, src, "class RateBook", "class Rates"), "class RateBook", "class Rates")
	// T-17's rename: the decl hash is kept (only the name token changed).
	assertRenamed(t, TypeScript, src, edit(t, src, "size(): number", "count(): number"), "method RateBook.size", "method RateBook.count")
}

// D-10: adding `export` does not change the hash.
func TestTSExportTransparent(t *testing.T) {
	a := "function helper(a: number) { const b = a * 2; return b + 1; }\nconst k = 1;\nclass C {}\n"
	b := "export function helper(a: number) { const b = a * 2; return b + 1; }\nexport const k = 1;\nexport class C {}\n"
	assertAllSame(t, TypeScript, "export", a, b)
	// Multiple declarators hash independently.
	c := "const k = 1, j = 2;\n"
	d := "const k = 1, j = 3;\n"
	assertChanged(t, TypeScript, "declarators", c, d, false, []string{"const j"}, []string{"const k"})
}

func TestJSExtraction(t *testing.T) {
	src := fixture(t, "widgets.js")
	assertList(t, JavaScript, src, []string{
		"class Widget",
		"property Widget.count",
		"property Widget.#secret",
		"property Widget.registry",
		"constructor Widget.constructor",
		"method Widget.render",
		"method Widget.size()",
		"method Widget.size(v)",
		"function mount",
		"var counter",
		"var legacy",
		"const VERSION",
	})
	assertAllSame(t, JavaScript, "quotes", src, edit(t, src, "'div'", `"div"`, "'widget'", `"widget"`, "'1.0.0'", `"1.0.0"`, "'x'", `"x"`))
	assertAllSame(t, JavaScript, "semicolons", src, edit(t, src, ";\n", "\n"))
	assertChanged(t, JavaScript, "value", src, edit(t, src, "'1.0.0'", "'1.0.1'"), false, []string{"const VERSION"}, []string{"class Widget"})
	// Quote escapes follow the quote swap.
	assertAllSame(t, JavaScript, "escapes", `const s = 'it\'s';`, `const s = "it's";`)
	assertChanged(t, JavaScript, "template keeps backticks", "const s = 'a';", "const s = `a`;", false, []string{"const s"}, nil)
}

// prettier reprints parentheses from the tree: the hash follows the tree.
func TestTSParentheses(t *testing.T) {
	same := [][2]string{
		{"const a = x && y || z;", "const a = (x && y) || z;"},
		{"const b = x % y * z;", "const b = (x % y) * z;"},
		{"const d = (x) + (y);", "const d = x + y;"},
		{"f(item => item.id);", "f((item) => item.id);"},
		{"const g = async v => v;", "const g = async (v) => v;"},
		{"const e = () => <p>x</p>;", "const e = () => (\n  <p>x</p>\n);"},
		{"if ((ok)) { run(); }", "if (ok) {\n  run();\n}"},
	}
	for _, c := range same {
		if a, b := Tokens(TSX, []byte(c[0])), Tokens(TSX, []byte(c[1])); !equalStrings(a, b) {
			t.Errorf("%q vs %q:\n%q\n%q", c[0], c[1], a, b)
		}
	}
	differ := [][2]string{
		{"const a = (x + y) * z;", "const a = x + y * z;"},
		{"const b = !(a && b);", "const b = !a && b;"},
		{"const c = (a, b);", "const c = a, b;"},
		{"const f = () => ({});", "const f = () => {};"},
		{"const h = (await p).x;", "const h = await p.x;"},
	}
	for _, c := range differ {
		if a, b := Tokens(TypeScript, []byte(c[0])), Tokens(TypeScript, []byte(c[1])); equalStrings(a, b) {
			t.Errorf("%q and %q hash alike: %q", c[0], c[1], a)
		}
	}
}
