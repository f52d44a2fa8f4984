package symbols

import "strings"

// TokenList is a declaration's body tokens, packed: their texts end to end
// in one string and where each ends. A []string of them cost the
// collector one pointer per token: the server's live heap holds the
// tables of about a thousand files, and their body tokens' string headers
// were most of what every collection scanned. A TokenList is two pointers
// whatever its length, and its text is a substring of one string per table.
//
// The zero value is the empty list. Equal token sequences make equal
// values (reflect.DeepEqual included): the text is exactly the tokens,
// and the ends count from it.
type TokenList struct {
	text string
	ends []uint32 // ends[i]: where token i ends in text; token 0 starts at 0
}

// PackTokens makes a list of ss.
func PackTokens(ss []string) TokenList {
	if len(ss) == 0 {
		return TokenList{}
	}
	n := 0
	for _, s := range ss {
		n += len(s)
	}
	var b strings.Builder
	b.Grow(n)
	ends := make([]uint32, len(ss))
	for i, s := range ss {
		b.WriteString(s)
		ends[i] = uint32(b.Len())
	}
	return TokenList{text: b.String(), ends: ends}
}

// Len is the number of tokens.
func (l TokenList) Len() int { return len(l.ends) }

// At is token i (no allocation: a substring of the pack).
func (l TokenList) At(i int) string {
	start := uint32(0)
	if i > 0 {
		start = l.ends[i-1]
	}
	return l.text[start:l.ends[i]]
}

// Strings copies the list into a slice, for callers that keep or search
// it as one.
func (l TokenList) Strings() []string {
	if len(l.ends) == 0 {
		return nil
	}
	out := make([]string, len(l.ends))
	for i := range out {
		out[i] = l.At(i)
	}
	return out
}

// packOf is every token of one file as one list: the declarations' lists
// are views of it (sub), so a file's body tokens are one string. It is
// PackTokens over the tokens' texts, written out: this runs on every
// parse, and a []string of the texts would be garbage.
func packOf(toks []token) TokenList {
	n := 0
	for _, t := range toks {
		n += len(t.text)
	}
	var b strings.Builder
	b.Grow(n)
	ends := make([]uint32, len(toks))
	for i, t := range toks {
		b.WriteString(t.text)
		ends[i] = uint32(b.Len())
	}
	return TokenList{text: b.String(), ends: ends}
}

// sub is tokens i to j (exclusive) of l, sharing l's text.
func (l TokenList) sub(i, j int) TokenList {
	if j <= i {
		return TokenList{}
	}
	start := uint32(0)
	if i > 0 {
		start = l.ends[i-1]
	}
	ends := make([]uint32, j-i)
	for k := range ends {
		ends[k] = l.ends[i+k] - start
	}
	return TokenList{text: l.text[start:l.ends[j-1]], ends: ends}
}
