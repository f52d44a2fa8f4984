package workspace

import (
	"crypto/sha256"
	"encoding/binary"

	"github.com/clew-lsp/clew-lsp/internal/anchors"
)

// What completeForSuggestions kept of a hinted Go file for the anchors
// found lost, kept in the persistent store beside the partial tables (under
// the content's hash, the words the file's anchors name and every field of
// the lost anchors the filter and the suggestions read), so a warm verify
// does not run the suggestion filter over the file again. The file's
// declaration ranges are not stored: an entry per hinted file cost a cold
// run more than lexing them again costs a warm one. An entry that does not
// decode, or whose offsets are not the file's declarations, is computed
// again.

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

// suggestKeepKey is a hinted file's suggestion-keep key. lexed says the
// file had no table (its anchors decided by the lexers): its outcome
// suggestNone then means no declaration at all, not those of words, so
// the two are kept apart.
func suggestKeepKey(lost []byte, sum [sha256.Size]byte, words [][]byte, lexed bool) [sha256.Size]byte {
	k := &keyer{h: append([]byte(nil), lost...)}
	if lexed {
		k.str("lexed")
	}
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
