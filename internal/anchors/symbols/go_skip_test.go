package symbols

import (
	"bytes"
	"testing"
)

func TestSkipGoGroup(t *testing.T) {
	for _, c := range []struct {
		src string
		end int // -1: not skipped
	}{
		{"{1, 2, {3}}x", 11},
		{"(a, \"})\", '(', `)`, /* ) */ b // )\n)x", len("(a, \"})\", '(', `)`, /* ) */ b // )\n)")},
		{"[2]T{}", 3},
		{"{1, 2)", -1},
		{"{\"abc\n\"}", -1},
		{"{`raw", -1},
		{"{/* open", -1},
		{"{θ}", -1},
		{"{$}", -1},
		{"{1, 2", -1},
	} {
		end, ok := skipGoGroup([]byte(c.src), 0)
		if !ok {
			end = -1
		}
		if end != c.end {
			t.Errorf("skipGoGroup(%q) = %d, want %d", c.src, end, c.end)
		}
	}
}

// A group skipGoGroup steps over is one the token lexer reads, whole,
// as one balanced group ending where the skip ends.
func FuzzSkipGoGroup(f *testing.F) {
	for _, s := range []string{"{1, 2, {3}}x", "(a, \"})\", '(', `)`, /* ) */ b // )\n)x", "{\"\\\"\"}", "[`\n`]", "{'\\''}"} {
		f.Add([]byte(s))
	}
	f.Fuzz(func(t *testing.T, src []byte) {
		if len(src) == 0 || bytes.IndexByte([]byte("([{"), src[0]) < 0 {
			return
		}
		end, ok := skipGoGroup(src, 0)
		if !ok {
			return
		}
		toks, _, _, lexed := goBodyTokens(src[:end])
		if !lexed || len(toks) == 0 || int(toks[len(toks)-1].end) != end {
			t.Fatalf("skipped to %d, the lexer reads %v %v", end, lexed, toks)
		}
		depth := 0
		for k, tk := range toks {
			switch src[tk.start] {
			case '(', '[', '{':
				depth++
			case ')', ']', '}':
				depth--
				if depth == 0 && k != len(toks)-1 {
					t.Fatalf("the group closes at token %d of %d", k, len(toks))
				}
			}
		}
	})
}
