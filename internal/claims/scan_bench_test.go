package claims

import (
	"bytes"
	"fmt"
	"strings"
	"testing"
)

// BenchmarkWakeScan: one file's scan for 800
// regexes shaped like multivac's legs (most of them for other files): by
// literal search (wake) and through the automaton, next to bytes.Count of its line breaks over the same bytes — the floor of any
// line-aware pass. Run: go test ./internal/claims -run XXX -bench WakeScan
func BenchmarkWakeScan(b *testing.B) {
	var res []*Regex
	for g := 0; g < 800; g++ {
		var src string
		switch g % 10 {
		case 0, 1, 2, 3, 4:
			src = fmt.Sprintf("export function fn%d_%d\\(", g, g%80)
		case 5, 6, 7:
			src = fmt.Sprintf("export const Widget%d =", g)
		case 8:
			src = "console\\.log\\("
		default:
			src = "return helper\\(x\\)"
		}
		re, _, msg := CompileERE(src, "")
		if msg != "" {
			b.Fatal(msg)
		}
		res = append(res, re)
	}
	var text strings.Builder
	for j := 0; j < 80; j++ {
		fmt.Fprintf(&text, "export function fn150_%d(x: number): number { return helper(x) + %d; }\n", j, j)
	}
	content := []byte(text.String())
	sc := newScanner(res)
	st := sc.newState()
	rids := []int32{sc.byRegex[res[150]], sc.byRegex[res[155]]} // this file's legs
	b.Run("wake", func(b *testing.B) {
		b.SetBytes(int64(len(content)))
		n := 0
		for i := 0; i < b.N; i++ {
			st.scanFile("f.ts", content, rids, func(int32, int) { n++ })
		}
		if n == 0 {
			b.Fatal("no match")
		}
	})
	b.Run("automaton", func(b *testing.B) { // the same file when many legs cover it
		old := fewIndexLiterals
		fewIndexLiterals = 0
		defer func() { fewIndexLiterals = old }()
		b.SetBytes(int64(len(content)))
		n := 0
		for i := 0; i < b.N; i++ {
			st.scanFile("f.ts", content, rids, func(int32, int) { n++ })
		}
		if n == 0 {
			b.Fatal("no match")
		}
	})
	b.Run("count-newlines", func(b *testing.B) {
		b.SetBytes(int64(len(content)))
		for i := 0; i < b.N; i++ {
			bytes.Count(content, []byte{'\n'})
		}
	})
}
