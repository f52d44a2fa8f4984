package workspace

import "testing"

// The move prefilter: a word test for every language, the declaration
// shape for Go functions and methods. A miss here is a wrong verdict, so
// the declared forms must all pass.
func TestDeclaresName(t *testing.T) {
	for _, c := range []struct {
		content string
		goFunc  bool
		want    bool
	}{
		{"func Parse(s string) {}", true, true},
		{"func (p *Parser) Parse(s string) {}", true, true},
		{"func (p *Set[K]) Parse[T any](s T) {}", true, true},
		{"func  Parse (s string) {}", true, true},
		{"func Parse[T any](s T) {}", true, true},
		{"x := Parse(s)", true, false},
		{"p.Parse(s)", true, false},
		{"// Parse parses.", true, false},
		{"func ParseAll(s string) {}", true, false},
		{"func MustParse(s string) {}", true, false},
		{"notfunc Parse(s)", true, false},
		{"x := Parse(s)\nfunc Parse(s string) {}", true, true},
		{"def parse(self):", false, false},
		{"class Parse:", false, true},
		{"Parse", false, true},
		{"reparse = 1", false, false},
		{"Parser()", false, false},
		{"x.Parse()", false, true},
		{"éParse()", false, false},
	} {
		if got := declaresName([]byte(c.content), []byte("Parse"), c.goFunc); got != c.want {
			t.Errorf("declaresName(%q, goFunc=%v) = %v, want %v", c.content, c.goFunc, got, c.want)
		}
	}
}
