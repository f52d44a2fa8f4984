package workspace

import (
	"crypto/sha256"
	"encoding/binary"

	"github.com/clew-lsp/clew-lsp/internal/anchors"
	"github.com/clew-lsp/clew-lsp/internal/anchors/symbols"
)

// What verify derives from a hinted Go file's bytes to choose which of its
// declarations to parse, kept in the persistent store beside the partial
// tables, so a warm verify neither lexes the hinted files again nor runs
// the suggestion filter over them: the top-level declarations' ranges
// (symbols.GoDeclRanges, under the content's hash) and, for the anchors
// found lost, the declarations completeForSuggestions kept (under the
// content's hash, the words the file's anchors name and every field of
// the lost anchors the filter and the suggestions read). An entry that does
// not decode, or whose offsets are not the file's declarations, is
// computed again.

// declRanges is symbols.GoDeclRanges(src), from the store when it has it.
func (c *tableCache) declRanges(sum [sha256.Size]byte, src []byte) ([][2]int, bool) {
	store := c.persistent()
	if store == nil {
		return symbols.GoDeclRanges(src)
	}
	key := (&keyer{}).str("go-decl-ranges v1").sum(sum).done()
	if data, ok := store.Get(key); ok {
		if rs, ok, good := decodeRanges(data, len(src)); good {
			return rs, ok
		}
	}
	rs, ok := symbols.GoDeclRanges(src)
	store.Put(key, encodeRanges(rs, ok))
	return rs, ok
}

// encodeRanges: ok (0 or 1), the count, then per range its gap from the
// previous range's end and its length.
func encodeRanges(rs [][2]int, ok bool) []byte {
	b := []byte{0}
	if ok {
		b[0] = 1
	}
	b = binary.AppendUvarint(b, uint64(len(rs)))
	end := 0
	for _, r := range rs {
		b = binary.AppendUvarint(b, uint64(r[0]-end))
		b = binary.AppendUvarint(b, uint64(r[1]-r[0]))
		end = r[1]
	}
	return b
}

// decodeRanges reads encodeRanges for a file of n bytes; good is false
// unless the ranges are in order, apart and inside the file.
func decodeRanges(data []byte, n int) (rs [][2]int, ok, good bool) {
	if len(data) < 1 || data[0] > 1 {
		return nil, false, false
	}
	ok = data[0] == 1
	r := &PackReader{S: string(data[1:])}
	count := r.Num()
	if r.Bad || count > uint64(n) || !ok && count > 0 {
		return nil, false, false
	}
	end := uint64(0)
	for k := uint64(0); k < count; k++ {
		gap, size := r.Num(), r.Num()
		if r.Bad || gap > uint64(n) || size > uint64(n) || end+gap+size > uint64(n) {
			return nil, false, false
		}
		start := end + gap
		end = start + size
		rs = append(rs, [2]int{int(start), int(end)})
	}
	if !r.Done() {
		return nil, false, false
	}
	return rs, ok, true
}

// Outcomes of completeForSuggestions for one file.
const (
	suggestNone    = 0 // nothing more kept
	suggestPartial = 1 // more declarations kept (the offsets)
	suggestWhole   = 2 // parsed whole
)

// lostKey is the part of a suggestion-keep key the lost anchors give.
func lostKey(lost []anchors.Anchor, origins [][]string) []byte {
	k := (&keyer{}).str("go-suggest-keep v1").int(len(lost))
	for i, a := range lost {
		anchorKey(k, a).int(len(origins[i]))
		for _, t := range origins[i] {
			k.str(t)
		}
	}
	return k.h
}

// suggestKeepKey is a hinted file's suggestion-keep key.
func suggestKeepKey(lost []byte, sum [sha256.Size]byte, words [][]byte) [sha256.Size]byte {
	k := &keyer{h: append([]byte(nil), lost...)}
	k.sum(sum).int(len(words))
	for _, w := range words {
		k.str(string(w))
	}
	return k.done()
}

func encodeSuggestKeep(outcome int, keep map[int]bool, ranges [][2]int) []byte {
	b := []byte{byte(outcome)}
	if outcome != suggestPartial {
		return b
	}
	var starts []int
	for _, r := range ranges {
		if keep[r[0]] {
			starts = append(starts, r[0])
		}
	}
	b = binary.AppendUvarint(b, uint64(len(starts)))
	for _, s := range starts {
		b = binary.AppendUvarint(b, uint64(s))
	}
	return b
}

// decodeSuggestKeep reads encodeSuggestKeep; every offset kept must start
// one of ranges, in order.
func decodeSuggestKeep(data []byte, ranges [][2]int) (int, map[int]bool, bool) {
	if len(data) < 1 || data[0] > suggestWhole {
		return 0, nil, false
	}
	outcome := int(data[0])
	if outcome != suggestPartial {
		return outcome, nil, len(data) == 1
	}
	r := &PackReader{S: string(data[1:])}
	count := r.Num()
	if r.Bad || count > uint64(len(ranges)) {
		return 0, nil, false
	}
	keep := make(map[int]bool, count)
	at := 0
	for k := uint64(0); k < count; k++ {
		s := int(r.Num())
		for at < len(ranges) && ranges[at][0] != s {
			at++
		}
		if r.Bad || at == len(ranges) {
			return 0, nil, false
		}
		keep[s] = true
		at++
	}
	if !r.Done() {
		return 0, nil, false
	}
	return outcome, keep, true
}
