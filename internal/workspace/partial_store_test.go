package workspace

import (
	"os"
	"path/filepath"
	"reflect"
	"runtime"
	"testing"

	"github.com/clew-lsp/clew-lsp/internal/anchors/symbols"
)

// The stored declaration ranges decode as GoDeclRanges gave them (on
// net/http's files), and a damaged entry is refused, never read as other
// ranges.
func TestDeclRangesCodec(t *testing.T) {
	files, _ := filepath.Glob(filepath.Join(runtime.GOROOT(), "src", "net", "http", "*.go"))
	if len(files) == 0 {
		t.Skip("no GOROOT")
	}
	for _, f := range files {
		src, err := os.ReadFile(f)
		if err != nil {
			t.Fatal(err)
		}
		rs, ok := symbols.GoDeclRanges(src)
		enc := encodeRanges(rs, ok)
		got, gotOK, good := decodeRanges(enc, len(src))
		if !good || gotOK != ok || !reflect.DeepEqual(got, rs) {
			t.Fatalf("%s: ranges do not round-trip (%v %v)", f, good, gotOK)
		}
		if _, _, good := decodeRanges(enc[:len(enc)-1], len(src)); good && len(rs) > 0 {
			t.Errorf("%s: a truncated entry decodes", f)
		}
		if _, _, good := decodeRanges(append(enc, 0), len(src)); good {
			t.Errorf("%s: an extended entry decodes", f)
		}
		if len(rs) > 0 {
			if _, _, good := decodeRanges(enc, rs[len(rs)-1][1]-1); good {
				t.Errorf("%s: ranges past the file's end decode", f)
			}
		}
	}
}

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

// FuzzDecodeRanges: the decoders never panic, and accepted ranges lie in
// order inside the file.
func FuzzDecodeRanges(f *testing.F) {
	f.Add(encodeRanges([][2]int{{3, 9}, {9, 20}}, true), 30)
	f.Add([]byte{1, 1, 0, 0}, 0)
	f.Fuzz(func(t *testing.T, data []byte, n int) {
		if n < 0 {
			return
		}
		rs, _, good := decodeRanges(data, n)
		end := 0
		for _, r := range rs {
			if !good || r[0] < end || r[1] < r[0] || r[1] > n {
				t.Fatalf("accepted %v for %d bytes", rs, n)
			}
			end = r[1]
		}
		decodeSuggestKeep(data, rs)
	})
}
