// Package span converts between byte offsets and line/column positions and
// applies text edits.
//
// It is a pure leaf: it imports only the standard library (never os), knows
// nothing about LSP or JSON, and never panics on bad input. Every position
// that does not exist in the text is reported as an error value, so a client
// that sends a stale or malformed position gets a clean error reply instead of
// a dead server.
//
// Lines end at "\n", "\r\n" or a lone "\r", the three terminators LSP
// recognises, so the server and the editor always agree on line numbers.
// A line's columns never include its terminator.
package span

import (
	"fmt"
	"unicode/utf8"
)

// Encoding names the unit a column counts.
type Encoding int

const (
	// UTF16 counts UTF-16 code units, the LSP default: a character outside the
	// Basic Multilingual Plane (most emoji) counts 2.
	UTF16 Encoding = iota
	// UTF8 counts bytes.
	UTF8
)

func (e Encoding) String() string {
	switch e {
	case UTF16:
		return "utf-16"
	case UTF8:
		return "utf-8"
	}
	return fmt.Sprintf("Encoding(%d)", int(e))
}

// Position is a zero-based line and column. The column's unit depends on the
// Encoding it is used with.
type Position struct {
	Line int
	Col  int
}

func (p Position) String() string { return fmt.Sprintf("%d:%d", p.Line, p.Col) }

// Range is a half-open pair of positions.
type Range struct {
	Start, End Position
}

// Index is a line index over one immutable byte slice.
//
// Invariant: starts[0] == 0, starts is strictly increasing, and line i spans
// content[starts[i]:ends[i]] with its terminator in content[ends[i]:starts[i+1]].
type Index struct {
	content []byte
	starts  []int // offset of the first byte of each line
	ends    []int // offset just past each line's last non-terminator byte
}

// NewIndex indexes content. The slice is retained, not copied: the caller
// must not modify it afterwards.
func NewIndex(content []byte) *Index {
	x := &Index{content: content, starts: []int{0}}
	for i := 0; i < len(content); i++ {
		switch content[i] {
		case '\n':
			x.ends = append(x.ends, i)
			x.starts = append(x.starts, i+1)
		case '\r':
			x.ends = append(x.ends, i)
			if i+1 < len(content) && content[i+1] == '\n' {
				i++
			}
			x.starts = append(x.starts, i+1)
		}
	}
	x.ends = append(x.ends, len(content))
	return x
}

// Content returns the indexed bytes.
func (x *Index) Content() []byte { return x.content }

// Len is the length of the content in bytes.
func (x *Index) Len() int { return len(x.content) }

// LineCount is the number of lines. Text ending in a terminator has a final
// empty line, so "a\n" has two lines and "" has one.
func (x *Index) LineCount() int { return len(x.starts) }

// Line returns the byte offsets of a line's first byte and of the end of its
// text (before the terminator).
func (x *Index) Line(line int) (start, end int, err error) {
	if line < 0 || line >= len(x.starts) {
		return 0, 0, &RangeError{What: "line", Value: line, Limit: len(x.starts)}
	}
	return x.starts[line], x.ends[line], nil
}

// lineOf returns the line containing offset off (0 <= off <= len).
func (x *Index) lineOf(off int) int {
	lo, hi := 0, len(x.starts)-1
	for lo < hi {
		mid := (lo + hi + 1) / 2
		if x.starts[mid] <= off {
			lo = mid
		} else {
			hi = mid - 1
		}
	}
	return lo
}

// Position converts a byte offset to a position.
//
// Any offset in [0, Len] converts. An offset inside a line terminator maps
// to the end of that line's text; with UTF16, an offset inside a multi-byte
// character maps to the start of that character. Both are the nearest
// position that exists, so a slightly wrong offset from a caller still lands
// on the right line.
func (x *Index) Position(off int, enc Encoding) (Position, error) {
	if off < 0 || off > len(x.content) {
		return Position{}, &RangeError{What: "offset", Value: off, Limit: len(x.content) + 1}
	}
	line := x.lineOf(off)
	start, end := x.starts[line], x.ends[line]
	if off > end {
		off = end
	}
	switch enc {
	case UTF8:
		return Position{Line: line, Col: off - start}, nil
	case UTF16:
		col := 0
		for i := start; i < off; {
			r, size := utf8.DecodeRune(x.content[i:end])
			if i+size > off {
				break // off is inside this character
			}
			col += utf16Len(r, size)
			i += size
		}
		return Position{Line: line, Col: col}, nil
	}
	return Position{}, fmt.Errorf("span: unknown encoding %v", enc)
}

// Offset converts a position to a byte offset.
//
// It fails when the line does not exist, when the column is past the end of
// the line's text, or (UTF16) when the column falls between the two halves of
// a surrogate pair. Callers that want LSP's "clamp to the line end" rule can
// use Clamp first.
func (x *Index) Offset(p Position, enc Encoding) (int, error) {
	start, end, err := x.Line(p.Line)
	if err != nil {
		return 0, err
	}
	if p.Col < 0 {
		return 0, &RangeError{What: "column", Value: p.Col, Limit: 0, Line: p.Line}
	}
	switch enc {
	case UTF8:
		if p.Col > end-start {
			return 0, &RangeError{What: "column", Value: p.Col, Limit: end - start + 1, Line: p.Line}
		}
		return start + p.Col, nil
	case UTF16:
		col := 0
		i := start
		for col < p.Col && i < end {
			r, size := utf8.DecodeRune(x.content[i:end])
			col += utf16Len(r, size)
			i += size
		}
		switch {
		case col == p.Col:
			return i, nil
		case col > p.Col:
			return 0, fmt.Errorf("span: column %d of line %d splits a surrogate pair", p.Col, p.Line)
		}
		return 0, &RangeError{What: "column", Value: p.Col, Limit: col + 1, Line: p.Line}
	}
	return 0, fmt.Errorf("span: unknown encoding %v", enc)
}

// Clamp applies LSP's leniency rule: a column past the end of its line means
// the end of the line. The line must still exist.
func (x *Index) Clamp(p Position, enc Encoding) (Position, error) {
	start, end, err := x.Line(p.Line)
	if err != nil {
		return p, err
	}
	width := end - start
	if enc == UTF16 {
		width = UTF16Len(x.content[start:end])
	}
	if p.Col > width {
		p.Col = width
	}
	return p, nil
}

// Range converts a byte span to a range.
func (x *Index) Range(start, end int, enc Encoding) (Range, error) {
	if start > end {
		return Range{}, fmt.Errorf("span: start %d after end %d", start, end)
	}
	s, err := x.Position(start, enc)
	if err != nil {
		return Range{}, err
	}
	e, err := x.Position(end, enc)
	if err != nil {
		return Range{}, err
	}
	return Range{Start: s, End: e}, nil
}

// Offsets converts a range to a byte span.
func (x *Index) Offsets(r Range, enc Encoding) (start, end int, err error) {
	if start, err = x.Offset(r.Start, enc); err != nil {
		return 0, 0, err
	}
	if end, err = x.Offset(r.End, enc); err != nil {
		return 0, 0, err
	}
	if start > end {
		return 0, 0, fmt.Errorf("span: range start %v after end %v", r.Start, r.End)
	}
	return start, end, nil
}

// UTF16Len is the number of UTF-16 code units b occupies. Each byte that is
// not part of valid UTF-8 counts as one unit: editors show it as U+FFFD,
// which is one unit wide.
func UTF16Len(b []byte) int {
	n := 0
	for i := 0; i < len(b); {
		r, size := utf8.DecodeRune(b[i:])
		n += utf16Len(r, size)
		i += size
	}
	return n
}

// utf16Len is the UTF-16 width of one decoded rune. A decoding error has
// size 1 (a genuine U+FFFD has size 3), so it is told apart by size.
func utf16Len(r rune, size int) int {
	if r >= 0x10000 && size == 4 {
		return 2
	}
	return 1
}

// RangeError reports a line, column or offset that does not exist.
type RangeError struct {
	What  string // "line", "column" or "offset"
	Value int
	Limit int // first invalid value (values must be < Limit)
	Line  int // for columns
}

func (e *RangeError) Error() string {
	if e.What == "column" {
		if e.Value < 0 {
			return fmt.Sprintf("span: negative column %d on line %d", e.Value, e.Line)
		}
		return fmt.Sprintf("span: column %d out of range on line %d (max %d)", e.Value, e.Line, e.Limit-1)
	}
	if e.Value < 0 {
		return fmt.Sprintf("span: negative %s %d", e.What, e.Value)
	}
	return fmt.Sprintf("span: %s %d out of range (max %d)", e.What, e.Value, e.Limit-1)
}
