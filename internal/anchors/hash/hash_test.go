package hash

import "testing"

func TestSumKnownValue(t *testing.T) {
	// sha256("a\x1fb") — computed independently with sha256sum.
	if got := Sum([]string{"a", "b"}); got != "f04cdced9736" {
		t.Errorf("Sum = %s", got)
	}
	if Sum([]string{"ab", "c"}) == Sum([]string{"a", "bc"}) {
		t.Error("the separator must keep token boundaries apart")
	}
}

func TestLines(t *testing.T) {
	text := []byte("\ufeffa: 1\r\n  b: 2\n\n c \n")
	s1, ok := Lines(text, 1, 4)
	if !ok {
		t.Fatal("range 1-4 should exist")
	}
	s2, _ := Lines([]byte("a: 1\nb: 2\nc\n"), 1, 3)
	if s1 != s2 {
		t.Error("trimming, CRLF, blank lines and a BOM must not change a range hash")
	}
	for _, r := range [][2]int{{0, 2}, {3, 2}, {1, 5}} {
		if _, ok := Lines(text, r[0], r[1]); ok {
			t.Errorf("range %v should not exist", r)
		}
	}
	if Doc([]byte("x\n\ny")) != Doc([]byte("  x\r\ny  ")) {
		t.Error("doc hash must ignore blank lines and indentation")
	}
}

func FuzzLines(f *testing.F) {
	f.Add([]byte("a\nb\n"), 1, 2)
	f.Add([]byte("\xff\xfe\x00"), 0, 9)
	f.Fuzz(func(t *testing.T, text []byte, start, end int) {
		sum, ok := Lines(text, start, end)
		if ok && !IsHex12(sum) {
			t.Fatalf("bad hash %q", sum)
		}
		if !IsHex12(Doc(text)) {
			t.Fatal("bad doc hash")
		}
	})
}

// SumJoined is Sum of the concatenated lists, and Sum keeps the
// separator rules (empty tokens included) that pinned hashes rely on.
func TestSumJoined(t *testing.T) {
	cases := [][]string{nil, {""}, {"a"}, {"a", ""}, {"", "a"}, {"ab", "c"}, {"a", "bc"}, {"\x00name", ":", "x", "y"}}
	want := []string{
		"e3b0c44298fc", "e3b0c44298fc", "ca978112ca1b", "", "", "", "", "",
	}
	for i, c := range cases {
		got := Sum(c)
		if want[i] != "" && got != want[i] {
			t.Errorf("Sum(%q) = %s, want %s", c, got, want[i])
		}
		if len(c) > 1 {
			if j := SumJoined(c[:1], c[1:]); j != got {
				t.Errorf("SumJoined(%q, %q) = %s, Sum = %s", c[:1], c[1:], j, got)
			}
		}
	}
	if Sum([]string{"ab", "c"}) == Sum([]string{"a", "bc"}) || Sum([]string{"a", ""}) == Sum([]string{"a"}) {
		t.Error("the separator must keep these lists apart")
	}
}

// A Joiner fed one token at a time is Sum of the list, and Reset makes it
// forget the list before (one Joiner hashes many lists).
func TestJoiner(t *testing.T) {
	cases := [][]string{nil, {""}, {"a"}, {"a", ""}, {"", "a"}, {"", ""}, {"ab", "c"}, {"a", "bc"}, {"\x00name", ":", "x", "y"}}
	var j Joiner
	j.Add("left over from before")
	for _, c := range cases {
		j.Reset()
		for _, tok := range c {
			j.Add(tok)
		}
		if got, want := j.Sum(), Sum(c); got != want || !IsHex12(got) {
			t.Errorf("Joiner over %q = %s, Sum = %s", c, got, want)
		}
	}
}
