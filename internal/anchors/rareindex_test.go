package anchors

import (
	"bytes"
	"testing"
)

// FuzzIndexRareIsIndex: IndexRare gives bytes.Index's answer for every
// position of the byte it searches by, and ContainsRare bytes.Contains's.
func FuzzIndexRareIsIndex(f *testing.F) {
	for _, c := range [][2]string{
		{"func (r *Reader) ReadRune() (ch rune, size int, err error) {", "ReadRune"},
		{"aaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaab", "ab"},
		{"xxqxxqxxqxxqxxqxxqxxqxxqxxqxxqxxqxxqxxqxxqxxqxxqxxqxxqxxqxxqxq", "xqxq"},
		{"Q", "Q"}, {"", "a"}, {"abc", ""}, {"abcabd", "abd"}, {"ZZZZ", "ZZZZZ"},
	} {
		f.Add([]byte(c[0]), []byte(c[1]))
	}
	f.Fuzz(func(t *testing.T, s, pat []byte) {
		want := bytes.Index(s, pat)
		for k := range max(1, len(pat)) {
			if got := IndexRare(s, pat, k); got != want {
				t.Fatalf("IndexRare(%q, %q, %d) = %d, want %d", s, pat, k, got, want)
			}
		}
		if got := ContainsRare(s, pat); got != (want >= 0) {
			t.Fatalf("ContainsRare(%q, %q) = %v", s, pat, got)
		}
	})
}

// TestRarestByte: the search byte of an identifier is its rarest letter.
func TestRarestByte(t *testing.T) {
	for pat, want := range map[string]int{"ReadRune": 0, "eQuals": 1, "settings": 6, "": 0, "x": 0, "zip": 0, "mkv": 1} {
		if got := RarestByte([]byte(pat)); got != want {
			t.Errorf("RarestByte(%q) = %d, want %d", pat, got, want)
		}
	}
}
