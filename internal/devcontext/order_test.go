package devcontext

import (
	"cmp"
	"math/rand"
	"strings"
	"testing"
)

// naturalFoldByWalk is naturalFold as it was before it skipped the
// prefix two strings share: the reference.
func naturalFoldByWalk(a, b string) int {
	i, j, zeros := 0, 0, 0
	for i < len(a) && j < len(b) {
		if isDigit(a[i]) && isDigit(b[j]) {
			si, sj := i, j
			for i < len(a) && isDigit(a[i]) {
				i++
			}
			for j < len(b) && isDigit(b[j]) {
				j++
			}
			ra, rb := strings.TrimLeft(a[si:i], "0"), strings.TrimLeft(b[sj:j], "0")
			if c := cmp.Compare(len(ra), len(rb)); c != 0 {
				return c
			}
			if c := strings.Compare(ra, rb); c != 0 {
				return c
			}
			if zeros == 0 {
				zeros = cmp.Compare(j-sj, i-si)
			}
			continue
		}
		if c := cmp.Compare(lower(a[i]), lower(b[j])); c != 0 {
			return c
		}
		i, j = i+1, j+1
	}
	if c := cmp.Compare(len(a)-i, len(b)-j); c != 0 {
		return c
	}
	return zeros
}

func checkNaturalFold(t *testing.T, a, b string) {
	t.Helper()
	if got, want := naturalFold(a, b), naturalFoldByWalk(a, b); got != want {
		t.Fatalf("naturalFold(%q, %q) = %d, the walk says %d", a, b, got, want)
	}
}

// TestNaturalFoldSkipsTheSharedPrefix: skipping the prefix two ids share
// answers as the walk over it, digit runs across the prefix's end
// included (it fails when the skip does not back up to a run's start).
func TestNaturalFoldSkipsTheSharedPrefix(t *testing.T) {
	for _, p := range [][2]string{
		{"clew://symbol/net/http.Server.Serve", "clew://symbol/net/http.Server.Shutdown"},
		{"INV-2", "INV-10"}, {"INV-10", "INV-2"}, {"item-002", "item-2"}, {"item-2", "item-002"},
		{"a12b", "a12c"}, {"a12", "a123"}, {"a120", "a13"}, {"x0012y", "x012y"}, {"x12y", "x012z"},
		{"a9", "a10"}, {"a09", "a9"}, {"ab", "AB"}, {"", "a"}, {"a", ""}, {"", ""}, {"12", "12"},
		{"f1.go:10", "f1.go:9"}, {"p/f100.go", "p/f99.go"}, {"v1.2.10", "v1.2.9"},
	} {
		checkNaturalFold(t, p[0], p[1])
	}
	r := rand.New(rand.NewSource(7))
	const alphabet = "aZ0019.-/_"
	word := func() string {
		n := r.Intn(8)
		var sb strings.Builder
		for range n {
			sb.WriteByte(alphabet[r.Intn(len(alphabet))])
		}
		return sb.String()
	}
	for range 200000 {
		pre := word()
		checkNaturalFold(t, pre+word(), pre+word())
	}
}

func FuzzNaturalFold(f *testing.F) {
	f.Add("INV-2", "INV-10", "clew://")
	f.Add("a12b", "a120", "x")
	f.Fuzz(func(t *testing.T, prefix, a, b string) {
		checkNaturalFold(t, prefix+a, prefix+b)
		checkNaturalFold(t, a, b)
	})
}
