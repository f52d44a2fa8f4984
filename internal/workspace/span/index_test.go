package span

import (
	"errors"
	"testing"
)

func TestLines(t *testing.T) {
	tests := []struct {
		name  string
		text  string
		lines []string // text of each line, terminators excluded
	}{
		{"empty", "", []string{""}},
		{"one line no newline", "abc", []string{"abc"}},
		{"trailing LF", "abc\n", []string{"abc", ""}},
		{"LF", "a\nb\nc", []string{"a", "b", "c"}},
		{"CRLF", "a\r\nb\r\n", []string{"a", "b", ""}},
		{"lone CR", "a\rb", []string{"a", "b"}},
		{"CR CR LF", "a\r\r\nb", []string{"a", "", "b"}},
		{"LF CR", "a\n\rb", []string{"a", "", "b"}},
		{"blank lines", "\n\n", []string{"", "", ""}},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			x := NewIndex([]byte(tt.text))
			if x.LineCount() != len(tt.lines) {
				t.Fatalf("LineCount = %d, want %d", x.LineCount(), len(tt.lines))
			}
			for i, want := range tt.lines {
				s, e, err := x.Line(i)
				if err != nil {
					t.Fatal(err)
				}
				if got := tt.text[s:e]; got != want {
					t.Errorf("line %d = %q, want %q", i, got, want)
				}
			}
			if _, _, err := x.Line(len(tt.lines)); err == nil {
				t.Errorf("Line(%d) succeeded past the last line", len(tt.lines))
			}
		})
	}
}

func TestPositionOffset(t *testing.T) {
	// Each case names an offset and the position it must map to in both
	// encodings; the reverse conversion must give the offset back.
	tests := []struct {
		name  string
		text  string
		off   int
		utf16 Position
		utf8  Position
	}{
		{"start", "abc", 0, Position{0, 0}, Position{0, 0}},
		{"end no newline", "abc", 3, Position{0, 3}, Position{0, 3}},
		{"after LF", "ab\ncd", 3, Position{1, 0}, Position{1, 0}},
		{"end of first line LF", "ab\ncd", 2, Position{0, 2}, Position{0, 2}},
		{"after CRLF", "ab\r\ncd", 4, Position{1, 0}, Position{1, 0}},
		{"before CR", "ab\r\ncd", 2, Position{0, 2}, Position{0, 2}},
		{"eof after newline", "ab\n", 3, Position{1, 0}, Position{1, 0}},
		{"eof after CRLF", "ab\r\n", 4, Position{1, 0}, Position{1, 0}},
		{"after lone CR", "ab\rcd", 3, Position{1, 0}, Position{1, 0}},
		{"two-byte rune", "é!", 2, Position{0, 1}, Position{0, 2}},
		{"three-byte rune", "€x", 3, Position{0, 1}, Position{0, 3}},
		{"emoji is two units", "😀x", 4, Position{0, 2}, Position{0, 4}},
		{"after emoji and char", "😀x", 5, Position{0, 3}, Position{0, 5}},
		{"cyrillic second line", "привет\nмир", 13 + 4, Position{1, 2}, Position{1, 4}},
		{"invalid byte counts one", "a\xffb", 2, Position{0, 2}, Position{0, 2}},
		{"truncated rune bytes count one each", "\xe2\x82b", 2, Position{0, 2}, Position{0, 2}},
		{"real U+FFFD is one unit", "\uFFFDb", 3, Position{0, 1}, Position{0, 3}},
		{"astral CJK ext B", "𠜎a", 4, Position{0, 2}, Position{0, 4}},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			x := NewIndex([]byte(tt.text))
			for _, c := range []struct {
				enc  Encoding
				want Position
			}{{UTF16, tt.utf16}, {UTF8, tt.utf8}} {
				got, err := x.Position(tt.off, c.enc)
				if err != nil {
					t.Fatalf("%v: Position(%d): %v", c.enc, tt.off, err)
				}
				if got != c.want {
					t.Errorf("%v: Position(%d) = %v, want %v", c.enc, tt.off, got, c.want)
				}
				back, err := x.Offset(c.want, c.enc)
				if err != nil {
					t.Fatalf("%v: Offset(%v): %v", c.enc, c.want, err)
				}
				if back != tt.off {
					t.Errorf("%v: Offset(%v) = %d, want %d", c.enc, c.want, back, tt.off)
				}
			}
		})
	}
}

func TestPositionRoundsToBoundary(t *testing.T) {
	x := NewIndex([]byte("a😀b\r\nc"))
	// Inside the emoji (bytes 1..4): UTF-16 rounds down to its start.
	for off := 2; off <= 4; off++ {
		p, err := x.Position(off, UTF16)
		if err != nil || p != (Position{0, 1}) {
			t.Errorf("Position(%d) = %v, %v; want 0:1", off, p, err)
		}
	}
	// Between CR and LF: the end of line 0.
	p, err := x.Position(7, UTF16)
	if err != nil || p != (Position{0, 4}) {
		t.Errorf("Position(inside CRLF) = %v, %v; want 0:4", p, err)
	}
}

func TestOutOfRange(t *testing.T) {
	x := NewIndex([]byte("ab😀\ncd"))
	var rangeErr *RangeError
	for _, off := range []int{-1, 10, 100} {
		if _, err := x.Position(off, UTF16); !errors.As(err, &rangeErr) {
			t.Errorf("Position(%d) error = %v, want RangeError", off, err)
		}
	}
	bad := []struct {
		p   Position
		enc Encoding
	}{
		{Position{2, 0}, UTF16},  // no line 2
		{Position{-1, 0}, UTF16}, // negative line
		{Position{0, -1}, UTF8},  // negative column
		{Position{0, 5}, UTF16},  // line 0 is 4 units wide
		{Position{0, 7}, UTF8},   // line 0 is 6 bytes wide
		{Position{1, 3}, UTF16},  // past "cd"
		{Position{0, 3}, UTF16},  // between the emoji's surrogates
	}
	for _, b := range bad {
		if off, err := x.Offset(b.p, b.enc); err == nil {
			t.Errorf("Offset(%v, %v) = %d, want error", b.p, b.enc, off)
		}
	}
	if _, err := x.Range(3, 1, UTF16); err == nil {
		t.Error("Range(3, 1) succeeded")
	}
	if _, _, err := x.Offsets(Range{Start: Position{1, 0}, End: Position{0, 0}}, UTF16); err == nil {
		t.Error("Offsets with start after end succeeded")
	}
}

func TestClamp(t *testing.T) {
	x := NewIndex([]byte("a😀\nb"))
	p, err := x.Clamp(Position{0, 99}, UTF16)
	if err != nil || p != (Position{0, 3}) {
		t.Errorf("Clamp UTF16 = %v, %v; want 0:3", p, err)
	}
	p, err = x.Clamp(Position{0, 99}, UTF8)
	if err != nil || p != (Position{0, 5}) {
		t.Errorf("Clamp UTF8 = %v, %v; want 0:5", p, err)
	}
	if _, err := x.Clamp(Position{5, 0}, UTF16); err == nil {
		t.Error("Clamp accepted a missing line")
	}
}

func TestUTF16Len(t *testing.T) {
	for s, want := range map[string]int{"": 0, "abc": 3, "é": 1, "😀": 2, "a\xffb": 3, "\xf0\x9f\x98": 3} {
		if got := UTF16Len([]byte(s)); got != want {
			t.Errorf("UTF16Len(%q) = %d, want %d", s, got, want)
		}
	}
}

func TestUnknownEncoding(t *testing.T) {
	x := NewIndex([]byte("abc"))
	if _, err := x.Position(1, Encoding(9)); err == nil {
		t.Error("Position accepted an unknown encoding")
	}
	if _, err := x.Offset(Position{0, 1}, Encoding(9)); err == nil {
		t.Error("Offset accepted an unknown encoding")
	}
}

// FuzzRoundTrip checks, for arbitrary bytes and offsets, that conversion
// never panics, that offset→position→offset returns the offset rounded down
// to the nearest representable boundary, and that the result converts back to
// the same position.
func FuzzRoundTrip(f *testing.F) {
	f.Add([]byte("hello\nworld"), 3)
	f.Add([]byte("a😀b\r\nc\rd"), 2)
	f.Add([]byte("\xff\xfe\r\r\n\n"), 4)
	f.Add([]byte("привет 𠜎"), 7)
	f.Fuzz(func(t *testing.T, text []byte, off int) {
		x := NewIndex(text)
		if off < 0 || off > len(text) {
			if _, err := x.Position(off, UTF16); err == nil {
				t.Fatalf("Position(%d) accepted an offset outside [0,%d]", off, len(text))
			}
			return
		}
		for _, enc := range []Encoding{UTF16, UTF8} {
			p, err := x.Position(off, enc)
			if err != nil {
				t.Fatalf("%v: Position(%d): %v", enc, off, err)
			}
			back, err := x.Offset(p, enc)
			if err != nil {
				t.Fatalf("%v: Offset(Position(%d)=%v): %v", enc, off, p, err)
			}
			if back > off {
				t.Fatalf("%v: offset %d → %v → %d moved forward", enc, off, p, back)
			}
			if back < off && !x.isBoundaryGap(back, off, enc) {
				t.Fatalf("%v: offset %d → %v → %d lost bytes that are not a terminator or one character", enc, off, p, back)
			}
			p2, err := x.Position(back, enc)
			if err != nil || p2 != p {
				t.Fatalf("%v: %d → %v → %d → %v, %v", enc, off, p, back, p2, err)
			}
		}
	})
}

// isBoundaryGap reports whether the bytes [from, to) are part of a line
// terminator or of one multi-byte character (UTF16 only), the only bytes a
// position cannot point into.
func (x *Index) isBoundaryGap(from, to int, enc Encoding) bool {
	line := x.lineOf(from)
	if _, end, _ := x.Line(line); from == end && to <= x.starts[min(line+1, len(x.starts)-1)] {
		return true
	}
	return enc == UTF16 && to-from < 4
}
