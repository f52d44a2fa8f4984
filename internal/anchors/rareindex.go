package anchors

import "bytes"

// The prefilters ask whether a name or a rare token of a pinned body
// occurs in a file, for each open anchor and most of a repository's files.
// bytes.Index stops at every occurrence of the pattern's first byte, often
// a common letter; IndexRare skips to each occurrence of its rarest byte
// instead, which memchr finds many times faster.

// byteOrder is the printable ASCII bytes, the most frequent in source code
// first (as counted over a Go tree, its assembly and docs).
const byteOrder = " et0rnais,oxlcfdu1p/.()2:mg\"h=Sb4_36TAE{}Ryv8O\\CIPD5MX9kL7VFwNB[]U-*GH!WY+&<;zK%|Q>'qj$Z`J#^?@~"

// byteRank is a byte's place in byteOrder: the higher, the rarer. Line
// breaks and tabs are as common as spaces; other bytes are rarer than any.
var byteRank = func() (t [256]uint8) {
	for c := range t {
		t[c] = 255
	}
	for i := 0; i < len(byteOrder); i++ {
		t[byteOrder[i]] = uint8(i + 1)
	}
	t['\n'], t['\t'], t['\r'] = 0, 0, 0
	return t
}()

// RarestByte is the position in pat of its rarest byte (the first of
// equals; 0 for an empty pat).
func RarestByte(pat []byte) int {
	k := 0
	for i := 1; i < len(pat); i++ {
		if byteRank[pat[i]] > byteRank[pat[k]] {
			k = i
		}
	}
	return k
}

// IndexRare is bytes.Index(s, pat), searched by pat[k] (any 0 <= k <
// len(pat); RarestByte's is fastest): each start it compares has that
// byte in place. When that byte turns out common in s it hands the rest
// to bytes.Index, as bytes.Index itself turns to a slower search.
func IndexRare(s, pat []byte, k int) int {
	n := len(pat)
	switch {
	case n <= 1:
		return bytes.Index(s, pat)
	case n > len(s):
		return -1
	}
	c := pat[k]
	last := len(s) - n + k // the last place pat[k] can stand
	fails := 0
	for j := k; j <= last; {
		x := bytes.IndexByte(s[j:last+1], c)
		if x < 0 {
			return -1
		}
		j += x
		i := j - k
		if bytes.Equal(s[i:i+n], pat) {
			return i
		}
		j++
		if fails++; fails > 4+j>>4 {
			// Every start before j-k was tried.
			if r := bytes.Index(s[j-k:], pat); r >= 0 {
				return j - k + r
			}
			return -1
		}
	}
	return -1
}

// ContainsRare is bytes.Contains(s, pat), searched by pat's rarest byte.
func ContainsRare(s, pat []byte) bool {
	return IndexRare(s, pat, RarestByte(pat)) >= 0
}
