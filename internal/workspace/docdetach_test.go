package workspace

import (
	"fmt"
	"math/rand/v2"
	"reflect"
	"slices"
	"strings"
	"testing"
	"unsafe"

	"github.com/clew-lsp/clew-lsp/internal/anchors"
)

// TestDetachOwnsEveryString fills every string field of an anchor (found
// by reflection, so a field added later is covered) with a slice of one
// big text, as ParseDoc does, and checks that after detach none points
// into that text, the values are unchanged, and a field equal to the
// previous version's shares that version's memory.
func TestDetachOwnsEveryString(t *testing.T) {
	text := strings.Repeat("abcdefghijklmnopqrstuvwxyz0123456789", 200)
	version := func(changed int) []anchors.Anchor {
		as := make([]anchors.Anchor, 50)
		for i := range as {
			k := 0
			eachString(reflect.ValueOf(&as[i]).Elem(), func(f reflect.Value) {
				off := (i*17 + k*5) % (len(text) - 10)
				s := text[off : off+3+k%5]
				if i == changed && k == 3 {
					s = fmt.Sprintf("changed-%d", i) // what the edit changed
				}
				f.SetString(s)
				k++
			})
		}
		return as
	}
	inText := func(s string) bool {
		p, base := uintptr(unsafe.Pointer(unsafe.StringData(s))), uintptr(unsafe.Pointer(unsafe.StringData(text)))
		return p >= base && p < base+uintptr(len(text))
	}
	prev := version(-1)
	detach(prev, nil)
	next := version(7)
	want := append([]anchors.Anchor(nil), next...)
	want[7] = version(7)[7]
	detach(next, prev)
	if !reflect.DeepEqual(next, want) {
		t.Fatal("detach changed a value")
	}
	for i, as := range [][]anchors.Anchor{prev, next} {
		for j := range as {
			k := 0
			eachString(reflect.ValueOf(&as[j]).Elem(), func(f reflect.Value) {
				if s := f.String(); s != "" && inText(s) {
					t.Errorf("version %d, anchor %d: field %d still points into the doc's text", i, j, k)
				}
				if i == 1 && !(j == 7 && k == 3) {
					if a, b := f.String(), stringAt(reflect.ValueOf(&prev[j]).Elem(), k); a != b || unsafe.StringData(a) != unsafe.StringData(b) {
						t.Errorf("anchor %d, field %d: not shared with the previous version", j, k)
					}
				}
				k++
			})
		}
	}
}

// eachString calls do with every settable string field of v, depth first.
func eachString(v reflect.Value, do func(reflect.Value)) {
	switch v.Kind() {
	case reflect.String:
		do(v)
	case reflect.Struct:
		for i := 0; i < v.NumField(); i++ {
			eachString(v.Field(i), do)
		}
	}
}

func stringAt(v reflect.Value, k int) string {
	var out string
	n := 0
	eachString(v, func(f reflect.Value) {
		if n == k {
			out = f.String()
		}
		n++
	})
	return out
}

// TestParsedDocVersionsMatchFreshParses edits a doc at random (anchors
// added, removed, re-pinned, renamed, moved by inserted lines) and parses
// every version through one cache, which reuses the previous version's
// strings, keys and hinted paths: each version must equal a parse of its
// own, with keys and paths computed afresh.
func TestParsedDocVersionsMatchFreshParses(t *testing.T) {
	rng := rand.New(rand.NewPCG(7, 15))
	anchorLine := func() string {
		return fmt.Sprintf("<!-- @code function F%d pkg/f%d.go sha=v2:%012x,%012x -->", rng.IntN(30), rng.IntN(100), rng.Int64N(1<<40), rng.Int64N(1<<40))
	}
	var lines []string
	for i := 0; i < 60; i++ {
		if i%10 == 0 {
			lines = append(lines, fmt.Sprintf("## Section %d", i))
		}
		lines = append(lines, anchorLine())
	}
	c := newTableCache()
	for v := 0; v < 300; v++ {
		i := rng.IntN(len(lines))
		switch rng.IntN(5) {
		case 0:
			lines = slices.Insert(lines, i, anchorLine())
		case 1:
			if len(lines) > 5 {
				lines = slices.Delete(lines, i, i+1)
			}
		case 2:
			lines = slices.Insert(lines, i, "some prose")
		case 3:
			lines[i] = strings.Replace(lines[i], "sha=v2:", "sha=v2:0", 1)
		default:
			lines[i] = anchorLine()
		}
		text := []byte(strings.Join(lines, "\n") + "\n")
		got := c.parseDoc("docs/a.md", text)
		as, ds := anchors.ParseDoc("docs/a.md", text)
		if !reflect.DeepEqual(got.anchors, as) || !reflect.DeepEqual(got.diags, ds) {
			t.Fatalf("version %d: anchors differ from a fresh parse", v)
		}
		for j, a := range as {
			if want := anchorKey(&keyer{}, a).done(); got.keys[j] != want {
				t.Fatalf("version %d, anchor %d: key differs from a fresh one", v, j)
			}
		}
		if !slices.Equal(got.paths, hintedPaths(as)) {
			t.Fatalf("version %d: hinted paths %v, want %v", v, got.paths, hintedPaths(as))
		}
	}
}
