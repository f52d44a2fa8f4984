// Package hash is the one place that turns token or line lists into the
// 12-hex-digit hashes written into anchors (docs/anchors.md).
//
// It is a leaf: the symbol extractor, the anchor engine and the tests all hash
// through it, so two callers can never disagree on the separator or length.
package hash

import (
	"crypto/sha256"
	"encoding/hex"
	"strings"
)

// Separator joins token texts before hashing. A unit separator cannot occur
// inside a source token, so ["ab","c"] and ["a","bc"] never collide.
const Separator = "\x1f"

// Len is the number of hex digits kept of each SHA-256 sum.
const Len = 12

// Sum hashes a token list: SHA-256 over the texts joined by 0x1F, first 12 hex.
func Sum(tokens []string) string { return SumJoined(tokens) }

// SumJoined hashes the concatenation of token lists as one list:
// SumJoined(a, b) == Sum(append(a, b...)) without building that slice.
// The texts are joined into one buffer and hashed at once (a Write per
// token cost an allocation each).
func SumJoined(lists ...[]string) string {
	n := 0
	for _, l := range lists {
		for _, t := range l {
			n += len(t) + len(Separator)
		}
	}
	buf := make([]byte, 0, n)
	for _, l := range lists {
		for _, t := range l {
			buf = append(buf, t...)
			buf = append(buf, Separator...)
		}
	}
	if len(buf) > 0 {
		buf = buf[:len(buf)-len(Separator)] // no separator after the last token
	}
	return OfJoined(buf)
}

// OfJoined is the hash of token texts already joined by Separator: what
// Sum gives for them (the Go lexers build the joined text as they read).
func OfJoined(joined []byte) string {
	sum := sha256.Sum256(joined)
	var digits [2 * sha256.Size]byte
	hex.Encode(digits[:], sum[:])
	return string(digits[:Len]) // 12 bytes kept, not the 64 of all digits
}

// Joiner hashes a token list given one token at a time, in a buffer it
// keeps: a caller that hashes many lists reuses one Joiner (Reset between
// lists) and allocates only the results. Its Sum is Sum of the tokens
// added since the last Reset.
type Joiner struct {
	buf []byte
	n   int // tokens added
}

// Reset starts a new list.
func (j *Joiner) Reset() { j.buf, j.n = j.buf[:0], 0 }

// Add appends one token.
func (j *Joiner) Add(token string) {
	if j.n > 0 {
		j.buf = append(j.buf, Separator...)
	}
	j.buf = append(j.buf, token...)
	j.n++
}

// AddJoined appends count tokens given joined by Separator (count 0:
// nothing), as count calls of Add would.
func (j *Joiner) AddJoined(run []byte, count int) {
	if count == 0 {
		return
	}
	if j.n > 0 {
		j.buf = append(j.buf, Separator...)
	}
	j.buf = append(j.buf, run...)
	j.n += count
}

// Sum is the hash of the tokens added since the last Reset.
func (j *Joiner) Sum() string { return OfJoined(j.buf) }

// Lines hashes lines start..end (1-based, inclusive) of text: each line
// trimmed, blank lines dropped. ok is false when the range is not inside the
// text (start < 1, end < start, or end past the last line).
func Lines(text []byte, start, end int) (sum string, ok bool) {
	lines := SplitLines(text)
	if start < 1 || end < start || end > len(lines) {
		return "", false
	}
	return Sum(NormalisedLines(lines[start-1 : end])), true
}

// Doc hashes a whole document: every line trimmed, blank lines dropped.
func Doc(text []byte) string {
	return Sum(NormalisedLines(SplitLines(text)))
}

// SplitLines splits on "\n". A final newline yields no extra empty line, and a
// leading UTF-8 byte-order mark is dropped, so a BOM never changes a hash.
func SplitLines(text []byte) []string {
	s := strings.TrimPrefix(string(text), "\ufeff")
	if s == "" {
		return nil
	}
	s = strings.TrimSuffix(s, "\n")
	return strings.Split(s, "\n")
}

// NormalisedLines trims every line (CR and indentation go) and drops blanks.
func NormalisedLines(lines []string) []string {
	out := make([]string, 0, len(lines))
	for _, l := range lines {
		if t := strings.TrimSpace(l); t != "" {
			out = append(out, t)
		}
	}
	return out
}

// IsHex12 reports whether s has the shape of a pinned hash.
func IsHex12(s string) bool {
	if len(s) != Len {
		return false
	}
	for i := 0; i < len(s); i++ {
		c := s[i]
		if !(c >= '0' && c <= '9' || c >= 'a' && c <= 'f') {
			return false
		}
	}
	return true
}
