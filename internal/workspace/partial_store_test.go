package workspace

import (
	"reflect"
	"testing"
)

// What completeForSuggestions kept decodes as kept, and only as offsets
// of the file's declarations.
func TestSuggestKeepCodec(t *testing.T) {
	ranges := [][2]int{{10, 20}, {25, 40}, {41, 90}}
	keep := map[int]bool{25: true, 41: true}
	out, got, ok := decodeSuggestKeep(encodeSuggestKeep(suggestPartial, keep, ranges), ranges)
	if !ok || out != suggestPartial || !reflect.DeepEqual(got, keep) {
		t.Fatalf("round trip: %v %v %v", out, got, ok)
	}
	for _, o := range []int{suggestNone, suggestWhole} {
		if out, _, ok := decodeSuggestKeep(encodeSuggestKeep(o, keep, ranges), ranges); !ok || out != o {
			t.Errorf("outcome %d: %d %v", o, out, ok)
		}
	}
	for name, bad := range map[string][]byte{
		"not a start":  {suggestPartial, 1, 11},
		"out of order": {suggestPartial, 2, 41, 25},
		"too many":     {suggestPartial, 4, 10, 25, 41, 41},
		"trailing":     {suggestNone, 0},
		"bad outcome":  {7},
		"empty":        {},
		"truncated":    {suggestPartial, 2, 25},
	} {
		if _, _, ok := decodeSuggestKeep(bad, ranges); ok {
			t.Errorf("%s: decodes", name)
		}
	}
}

// FuzzDecodeSuggestKeep: the decoder never panics, and what it accepts
// keeps only starts of the ranges.
func FuzzDecodeSuggestKeep(f *testing.F) {
	ranges := [][2]int{{10, 20}, {25, 40}, {41, 90}}
	f.Add(encodeSuggestKeep(suggestPartial, map[int]bool{25: true}, ranges))
	f.Add([]byte{suggestWhole})
	f.Fuzz(func(t *testing.T, data []byte) {
		_, keep, ok := decodeSuggestKeep(data, ranges)
		for s := range keep {
			if !ok || s != 10 && s != 25 && s != 41 {
				t.Fatalf("accepted offset %d", s)
			}
		}
	})
}
