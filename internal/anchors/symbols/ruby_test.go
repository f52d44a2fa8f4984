package symbols

import "testing"

func TestRubyExtraction(t *testing.T) {
	tab := assertList(t, Ruby, fixture(t, "shop.rb"), []string{
		"module Shop",
		"class Shop.Cart",
		"const Shop.Cart.MAX",
		"method Shop.Cart.initialize",
		"method Shop.Cart.build", // def self.build
		"method Shop.Cart.other", // inside class << self
		"function top",
		"class A.B", // class A::B
		"method A.B.m",
	})
	if d := find(t, tab, "Shop.Cart.build"); d.Signature != "def self.build(x)" || d.StartLine != 7 {
		t.Errorf("build: %+v", d)
	}
	if d := find(t, tab, "A.B"); d.Container != "A" || d.Name != "B" {
		t.Errorf("A::B: %+v", d)
	}
}

func TestRubyFormattingAndComments(t *testing.T) {
	src := fixture(t, "shop.rb")
	cases := map[string]string{
		"comments":  edit(t, src, "      @items = items\n", "      # keep them\n      @items = items # all\n", "def top(", "=begin\ndoc\n=end\ndef top("),
		"semicolon": edit(t, src, "def other; end", "def other\n      end", "def m; end", "def m\n  end"),
		"re-indent": edit(t, src, "\n    ", "\n      "),
		"crlf":      edit(t, src, "\n", "\r\n"),
	}
	for name, variant := range cases {
		assertAllSame(t, Ruby, name, src, variant)
	}
}

func TestRubyChanges(t *testing.T) {
	src := fixture(t, "shop.rb")
	// '…' does not interpolate: it is not "…".
	assertChanged(t, Ruby, "quotes", src, edit(t, src, `"#{a} #{b}"`, `'#{a} #{b}'`), false,
		[]string{"function top"}, []string{"module Shop"})
	assertChanged(t, Ruby, "body", src, edit(t, src, "new(x)", "new(x, 1)"), false,
		[]string{"method Shop.Cart.build", "class Shop.Cart", "module Shop"}, []string{"method Shop.Cart.initialize", "function top"})
	assertChanged(t, Ruby, "superclass", src, edit(t, src, "< Base", "< Other"), false,
		[]string{"class Shop.Cart"}, []string{"method Shop.Cart.initialize"})
}

func TestRubyRename(t *testing.T) {
	src := fixture(t, "shop.rb")
	assertRenamed(t, Ruby, src, edit(t, src, "def top(", "def summit("), "function top", "function summit")
	assertRenamed(t, Ruby, src, edit(t, src, "def self.build(", "def self.make("), "method Shop.Cart.build", "method Shop.Cart.make")
}
