package contextmap

import (
	"fmt"
	"strings"

	"github.com/clew-lsp/clew-lsp/internal/devcontext"
)

// maxDiffEdits bounds the line diff; past it the changed region between the
// common prefix and suffix is reported as one hunk.
const maxDiffEdits = 2000

// lineHunk is one changed region: old lines [oldStart, oldStart+oldLen) were
// replaced by new lines [newStart, newStart+newLen), 0-based.
type lineHunk struct {
	oldStart, oldLen, newStart, newLen int
}

func splitLines(s string) []string {
	if s == "" {
		return nil
	}
	lines := strings.SplitAfter(s, "\n")
	if lines[len(lines)-1] == "" {
		lines = lines[:len(lines)-1]
	}
	return lines
}

// diffLines is Myers' O(ND) line diff after trimming the common prefix and
// suffix, grouped into hunks.
func diffLines(a, b []string) []lineHunk {
	pre := 0
	for pre < len(a) && pre < len(b) && a[pre] == b[pre] {
		pre++
	}
	suf := 0
	for suf < len(a)-pre && suf < len(b)-pre && a[len(a)-1-suf] == b[len(b)-1-suf] {
		suf++
	}
	a, b = a[pre:len(a)-suf], b[pre:len(b)-suf]
	if len(a) == 0 && len(b) == 0 {
		return nil
	}
	ops, ok := myers(a, b)
	if !ok {
		return []lineHunk{{oldStart: pre, oldLen: len(a), newStart: pre, newLen: len(b)}}
	}
	// ops: for each step, 0 = equal, 1 = delete from a, 2 = insert from b.
	var out []lineHunk
	i, j := 0, 0
	var cur *lineHunk
	for _, op := range ops {
		switch op {
		case 0:
			if cur != nil {
				out = append(out, *cur)
				cur = nil
			}
			i++
			j++
		case 1:
			if cur == nil {
				cur = &lineHunk{oldStart: pre + i, newStart: pre + j}
			}
			cur.oldLen++
			i++
		case 2:
			if cur == nil {
				cur = &lineHunk{oldStart: pre + i, newStart: pre + j}
			}
			cur.newLen++
			j++
		}
	}
	if cur != nil {
		out = append(out, *cur)
	}
	return out
}

// myers returns the edit script from a to b, or false when it needs more
// than maxDiffEdits edits.
func myers(a, b []string) ([]byte, bool) {
	n, m := len(a), len(b)
	maxD := min(n+m, maxDiffEdits)
	off := maxD + 1
	v := make([]int, 2*maxD+3)
	var trace [][]int
	for d := 0; d <= maxD; d++ {
		snap := make([]int, len(v))
		copy(snap, v)
		trace = append(trace, snap)
		for k := -d; k <= d; k += 2 {
			var x int
			if k == -d || (k != d && v[off+k-1] < v[off+k+1]) {
				x = v[off+k+1]
			} else {
				x = v[off+k-1] + 1
			}
			y := x - k
			for x < n && y < m && a[x] == b[y] {
				x++
				y++
			}
			v[off+k] = x
			if x >= n && y >= m {
				return backtrack(trace, off, n, m, d, v), true
			}
		}
	}
	return nil, false
}

func backtrack(trace [][]int, off, x, y, d int, last []int) []byte {
	var ops []byte
	for ; d > 0; d-- {
		v := trace[d]
		k := x - y
		var pk int
		if k == -d || (k != d && v[off+k-1] < v[off+k+1]) {
			pk = k + 1
		} else {
			pk = k - 1
		}
		px := v[off+pk]
		py := px - pk
		for x > px && y > py {
			ops = append(ops, 0)
			x--
			y--
		}
		if x == px {
			ops = append(ops, 2)
		} else {
			ops = append(ops, 1)
		}
		x, y = px, py
	}
	for x > 0 && y > 0 {
		ops = append(ops, 0)
		x--
		y--
	}
	for i, j := 0, len(ops)-1; i < j; i, j = i+1, j-1 {
		ops[i], ops[j] = ops[j], ops[i]
	}
	_ = last
	return ops
}

// localDiff is the uncommitted change of one file as a `local` node: its
// hunks in new-text lines (a pure deletion marks the line after it) and a
// unified-diff text, which is also its cost.
func localDiff(p string, old, cur []byte) (devcontext.Node, bool) {
	a, b := splitLines(string(old)), splitLines(string(cur))
	hunks := diffLines(a, b)
	if len(hunks) == 0 {
		return devcontext.Node{}, false
	}
	var text strings.Builder
	fmt.Fprintf(&text, "--- a/%s\n+++ b/%s\n", p, p)
	var ranges []devcontext.Range
	for _, h := range hunks {
		fmt.Fprintf(&text, "@@ -%d,%d +%d,%d @@\n", h.oldStart+1, h.oldLen, h.newStart+1, h.newLen)
		for _, l := range a[h.oldStart : h.oldStart+h.oldLen] {
			text.WriteString("-" + strings.TrimRight(l, "\r\n") + "\n")
		}
		for _, l := range b[h.newStart : h.newStart+h.newLen] {
			text.WriteString("+" + strings.TrimRight(l, "\r\n") + "\n")
		}
		start, end := h.newStart+1, h.newStart+h.newLen
		if h.newLen == 0 {
			start = max(1, min(h.newStart+1, len(b)))
			end = start
		}
		ranges = append(ranges, devcontext.Range{StartLine: start, EndLine: end})
	}
	return devcontext.Node{URI: devcontext.LocalDiffURI(p), Kind: devcontext.KindLocal, Title: "uncommitted change to " + p,
		Path: p, Hunks: ranges, Text: text.String()}, true
}
