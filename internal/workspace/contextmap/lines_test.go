package contextmap

import (
	"strings"
	"testing"
)

// splitAfterLines is the passage text as strings.SplitAfter cuts it, the
// reference linesAt must agree with.
func splitAfterLines(text string, start, end int) string {
	if start < 1 {
		start = 1
	}
	lines := strings.SplitAfter(text, "\n")
	if end < start || end > len(lines) {
		end = len(lines)
	}
	if start > len(lines) {
		return ""
	}
	return strings.Join(lines[start-1:end], "")
}

func TestLinesAtIsSplitAfter(t *testing.T) {
	texts := []string{"", "\n", "\n\n", "one", "one\n", "one\ntwo", "one\ntwo\n", "a\n\nb\n\n\nc", "é\r\nü\n"}
	for _, text := range texts {
		starts := lineStarts([]byte(text))
		for start := -1; start <= 8; start++ {
			for end := -1; end <= 8; end++ {
				if got, want := linesAt(text, starts, start, end), splitAfterLines(text, start, end); got != want {
					t.Errorf("linesAt(%q, %d, %d) = %q, want %q", text, start, end, got, want)
				}
			}
		}
	}
}

func FuzzLinesAt(f *testing.F) {
	f.Add("one\ntwo\n", 1, 2)
	f.Add("", 0, 0)
	f.Fuzz(func(t *testing.T, text string, start, end int) {
		if got, want := linesAt(text, lineStarts([]byte(text)), start, end), splitAfterLines(text, start, end); got != want {
			t.Fatalf("linesAt(%q, %d, %d) = %q, want %q", text, start, end, got, want)
		}
	})
}
