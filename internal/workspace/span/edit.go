package span

import (
	"fmt"
	"slices"
)

// Edit replaces the bytes [Start, End) with New.
type Edit struct {
	Start, End int
	New        string
}

func (e Edit) String() string { return fmt.Sprintf("[%d,%d)→%q", e.Start, e.End, e.New) }

// SortEdits orders edits by start, then end, keeping the relative order of
// equal edits (so several insertions at one offset stay in the order given).
func SortEdits(edits []Edit) {
	slices.SortStableFunc(edits, func(a, b Edit) int {
		if a.Start != b.Start {
			return a.Start - b.Start
		}
		return a.End - b.End
	})
}

// ApplyEdits applies edits, which must be sorted by offset and must not
// overlap (insertions at the same offset are fine and apply in order), to
// content and returns a new slice. Offsets refer to the original content.
func ApplyEdits(content []byte, edits []Edit) ([]byte, error) {
	size := len(content)
	last := 0
	for i, e := range edits {
		if e.Start < 0 || e.End < e.Start || e.End > len(content) {
			return nil, fmt.Errorf("span: edit %d %v out of range for %d bytes", i, e, len(content))
		}
		if e.Start < last {
			return nil, fmt.Errorf("span: edit %d %v overlaps or precedes the previous edit (ends at %d)", i, e, last)
		}
		last = e.End
		size += len(e.New) - (e.End - e.Start)
	}
	out := make([]byte, 0, size)
	pos := 0
	for _, e := range edits {
		out = append(out, content[pos:e.Start]...)
		out = append(out, e.New...)
		pos = e.End
	}
	return append(out, content[pos:]...), nil
}

// Change is one content change as an LSP client sends it in didChange:
// replace Range (in the negotiated encoding) with Text, or, when Range is
// nil, replace the whole document.
type Change struct {
	Range *Range
	Text  string
}

// ApplyChanges applies LSP content changes in order. Each change's range
// refers to the document as left by the previous change, as LSP specifies.
// A column past the end of its line is clamped to the line end (LSP's rule);
// a line that does not exist is an error, and content is then unchanged.
func ApplyChanges(content []byte, changes []Change, enc Encoding) ([]byte, error) {
	for i, c := range changes {
		if c.Range == nil {
			content = []byte(c.Text)
			continue
		}
		x := NewIndex(content)
		start, err := x.Clamp(c.Range.Start, enc)
		if err != nil {
			return nil, fmt.Errorf("change %d: %w", i, err)
		}
		end, err := x.Clamp(c.Range.End, enc)
		if err != nil {
			return nil, fmt.Errorf("change %d: %w", i, err)
		}
		s, e, err := x.Offsets(Range{Start: start, End: end}, enc)
		if err != nil {
			return nil, fmt.Errorf("change %d: %w", i, err)
		}
		content, err = ApplyEdits(content, []Edit{{Start: s, End: e, New: c.Text}})
		if err != nil {
			return nil, fmt.Errorf("change %d: %w", i, err)
		}
	}
	return content, nil
}
