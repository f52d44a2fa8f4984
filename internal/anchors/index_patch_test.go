package anchors

import (
	"fmt"
	"math/rand"
	"slices"
	"sort"
	"testing"

	"github.com/clew-lsp/clew-lsp/internal/anchors/symbols"
)

// TestPatchedIndexAnswersAsRebuilt: a base index patched with random
// replaced, dropped and added files answers every lookup with the same refs
// in the same order as an index built from scratch by adding the final
// files in path order. The order matters: the first twin found names the
// "already there" note, and rank ties keep lookup order.
func TestPatchedIndexAnswersAsRebuilt(t *testing.T) {
	rng := rand.New(rand.NewSource(7))
	// Few names, kinds and bodies, so that keys collide across files.
	decl := func() symbols.Decl {
		name := fmt.Sprintf("N%d", rng.Intn(6))
		q := name
		if rng.Intn(3) == 0 {
			q = fmt.Sprintf("T%d.%s", rng.Intn(2), name)
		}
		return symbols.Decl{Kind: []string{"function", "method", "struct"}[rng.Intn(3)], Name: name,
			QualifiedName: q, StartLine: rng.Intn(90) + 1, BodyHash: fmt.Sprintf("b%d", rng.Intn(4))}
	}
	file := func() []symbols.Decl {
		out := make([]symbols.Decl, rng.Intn(4))
		for i := range out {
			out[i] = decl()
		}
		return out
	}
	for round := 0; round < 300; round++ {
		files := map[string][]symbols.Decl{}
		for i := 0; i < 12; i++ {
			files[fmt.Sprintf("d%d/f%02d.go", i%3, rng.Intn(40))] = file()
		}
		basePaths := sortedPaths(files)
		base := NewIndex()
		for _, p := range basePaths {
			base.Add(p, files[p])
		}
		// Change a few files: new content, gone, or new paths.
		next := map[string][]symbols.Decl{}
		for p, d := range files {
			next[p] = d
		}
		drop := map[string]bool{}
		for k := rng.Intn(4); k >= 0; k-- {
			p := basePaths[rng.Intn(len(basePaths))]
			drop[p] = true
			if rng.Intn(3) == 0 {
				delete(next, p)
			} else {
				next[p] = file()
			}
		}
		for k := rng.Intn(3); k > 0; k-- {
			p := fmt.Sprintf("d%d/f%02d.go", rng.Intn(4), rng.Intn(40))
			if _, ok := files[p]; !ok {
				next[p] = file()
				drop[p] = true
			}
		}
		rank := func(p string) int {
			i, found := slices.BinarySearch(basePaths, p)
			if found {
				return 2 * i
			}
			return 2*i - 1
		}
		patched := NewIndexPatched(base, drop, rank)
		for _, p := range sortedPaths(next) {
			if drop[p] {
				patched.Add(p, next[p])
			}
		}
		fresh := NewIndex()
		for _, p := range sortedPaths(next) {
			fresh.Add(p, next[p])
		}
		if got, want := patched.Paths(), fresh.Paths(); !slices.Equal(got, want) {
			t.Fatalf("round %d: paths %v, want %v", round, got, want)
		}
		for _, p := range append(basePaths, sortedPaths(next)...) {
			if patched.Has(p) != fresh.Has(p) || !slices.Equal(refNames(p, patched.Decls(p)), refNames(p, fresh.Decls(p))) {
				t.Fatalf("round %d: %s: has %v decls %v, want %v %v", round, p, patched.Has(p), patched.Decls(p), fresh.Has(p), fresh.Decls(p))
			}
		}
		for name, table := range map[string]func(*Index) map[string][]Ref{"family": familyTable, "body": bodyTable, "base": baseTable} {
			keys := map[string]bool{}
			for _, ix := range []*Index{base, fresh} {
				for k := range table(ix) {
					keys[k] = true
				}
			}
			for k := range keys {
				got, want := describe(patched.lookup(table, k)), describe(fresh.lookup(table, k))
				if !slices.Equal(got, want) {
					t.Fatalf("round %d: %s lookup %q:\n got %v\nwant %v", round, name, k, got, want)
				}
			}
		}
	}
}

func sortedPaths(m map[string][]symbols.Decl) []string {
	out := make([]string, 0, len(m))
	for p := range m {
		out = append(out, p)
	}
	sort.Strings(out)
	return out
}

func describe(refs []Ref) []string {
	var out []string
	for _, r := range refs {
		out = append(out, fmt.Sprintf("%s:%d:%s %s %s", r.Path, r.Decl.StartLine, r.Decl.Kind, r.Decl.QualifiedName, r.Decl.BodyHash))
	}
	return out
}

func refNames(p string, decls []symbols.Decl) []string {
	var out []string
	for _, d := range decls {
		out = append(out, fmt.Sprintf("%s:%d:%s", p, d.StartLine, d.QualifiedName))
	}
	return out
}
