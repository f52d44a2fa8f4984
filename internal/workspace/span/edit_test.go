package span

import (
	"strings"
	"testing"
)

func TestApplyEdits(t *testing.T) {
	tests := []struct {
		name  string
		text  string
		edits []Edit
		want  string
		err   string
	}{
		{"none", "abc", nil, "abc", ""},
		{"replace", "hello world", []Edit{{6, 11, "there"}}, "hello there", ""},
		{"insert and delete", "abcdef", []Edit{{0, 0, ">"}, {2, 4, ""}, {6, 6, "<"}}, ">abef<", ""},
		{"two inserts same offset keep order", "ab", []Edit{{1, 1, "x"}, {1, 1, "y"}}, "axyb", ""},
		{"adjacent", "abcd", []Edit{{0, 2, "X"}, {2, 4, "Y"}}, "XY", ""},
		{"unicode", "😀é", []Edit{{4, 6, "e"}}, "😀e", ""},
		{"overlap", "abcd", []Edit{{0, 3, ""}, {2, 4, ""}}, "", "overlaps"},
		{"unsorted", "abcd", []Edit{{2, 3, ""}, {0, 1, ""}}, "", "overlaps or precedes"},
		{"past end", "ab", []Edit{{1, 5, ""}}, "", "out of range"},
		{"negative", "ab", []Edit{{-1, 1, ""}}, "", "out of range"},
		{"end before start", "ab", []Edit{{2, 1, ""}}, "", "out of range"},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			orig := []byte(tt.text)
			got, err := ApplyEdits(orig, tt.edits)
			if tt.err != "" {
				if err == nil || !strings.Contains(err.Error(), tt.err) {
					t.Fatalf("err = %v, want %q", err, tt.err)
				}
				return
			}
			if err != nil {
				t.Fatal(err)
			}
			if string(got) != tt.want {
				t.Errorf("got %q, want %q", got, tt.want)
			}
			if string(orig) != tt.text {
				t.Errorf("input modified to %q", orig)
			}
		})
	}
}

func TestSortEdits(t *testing.T) {
	edits := []Edit{{5, 6, "c"}, {1, 1, "a1"}, {0, 2, "z"}, {1, 1, "a2"}}
	SortEdits(edits)
	want := []Edit{{0, 2, "z"}, {1, 1, "a1"}, {1, 1, "a2"}, {5, 6, "c"}}
	for i := range want {
		if edits[i] != want[i] {
			t.Fatalf("SortEdits = %v, want %v", edits, want)
		}
	}
}

func rng(l1, c1, l2, c2 int) *Range {
	return &Range{Start: Position{l1, c1}, End: Position{l2, c2}}
}

func TestApplyChanges(t *testing.T) {
	tests := []struct {
		name    string
		text    string
		enc     Encoding
		changes []Change
		want    string
		err     bool
	}{
		{"whole document", "old", UTF16, []Change{{Text: "new"}}, "new", false},
		{"insert after emoji (UTF-16 col 2)", "😀\n", UTF16, []Change{{Range: rng(0, 2, 0, 2), Text: "!"}}, "😀!\n", false},
		{"replace cyrillic word", "# Привет мир\n", UTF16, []Change{{Range: rng(0, 9, 0, 12), Text: "world"}}, "# Привет world\n", false},
		{"same edit in UTF-8 columns", "# Привет мир\n", UTF8, []Change{{Range: rng(0, 15, 0, 21), Text: "world"}}, "# Привет world\n", false},
		{"sequential changes see previous result", "abc", UTF16, []Change{
			{Range: rng(0, 0, 0, 0), Text: "😀"},
			{Range: rng(0, 2, 0, 3), Text: "A"}, // replaces "a", now after the emoji
		}, "😀Abc", false},
		{"join lines across CRLF", "a\r\nb", UTF16, []Change{{Range: rng(0, 1, 1, 0), Text: " "}}, "a b", false},
		{"column past line end clamps", "ab\ncd", UTF16, []Change{{Range: rng(0, 9, 0, 9), Text: "!"}}, "ab!\ncd", false},
		{"insert at EOF line", "ab\n", UTF16, []Change{{Range: rng(1, 0, 1, 0), Text: "c"}}, "ab\nc", false},
		{"missing line", "ab", UTF16, []Change{{Range: rng(3, 0, 3, 0), Text: "x"}}, "", true},
		{"inverted range", "abc", UTF16, []Change{{Range: rng(0, 2, 0, 1), Text: "x"}}, "", true},
		{"splits surrogate", "😀", UTF16, []Change{{Range: rng(0, 1, 0, 1), Text: "x"}}, "", true},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			got, err := ApplyChanges([]byte(tt.text), tt.changes, tt.enc)
			if tt.err {
				if err == nil {
					t.Fatalf("got %q, want error", got)
				}
				return
			}
			if err != nil {
				t.Fatal(err)
			}
			if string(got) != tt.want {
				t.Errorf("got %q, want %q", got, tt.want)
			}
		})
	}
}

// FuzzApplyChanges checks that arbitrary ranges never panic and that a
// successful change equals the same edit made through byte offsets.
func FuzzApplyChanges(f *testing.F) {
	f.Add([]byte("a😀b\r\nc"), 0, 1, 1, 0, "x")
	f.Add([]byte("\xff\n\r"), 1, 0, 2, 0, "")
	f.Fuzz(func(t *testing.T, text []byte, l1, c1, l2, c2 int, repl string) {
		r := &Range{Start: Position{l1, c1}, End: Position{l2, c2}}
		got, err := ApplyChanges(text, []Change{{Range: r, Text: repl}}, UTF16)
		if err != nil {
			return
		}
		x := NewIndex(text)
		s, _ := x.Clamp(r.Start, UTF16)
		e, _ := x.Clamp(r.End, UTF16)
		so, eo, err := x.Offsets(Range{Start: s, End: e}, UTF16)
		if err != nil {
			t.Fatalf("ApplyChanges succeeded but Offsets failed: %v", err)
		}
		want := string(text[:so]) + repl + string(text[eo:])
		if string(got) != want {
			t.Fatalf("got %q, want %q", got, want)
		}
	})
}
