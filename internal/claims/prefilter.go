package claims

import (
	"sort"
	"strings"
)

// The prefilter keeps a run linear in the bytes read rather than in
// legs × lines: for each file it remembers, per literal, which units
// contain it, so the many legs that share a literal (and a file) pay for
// one substring scan, and the regex only runs on units that hold every
// required literal. It never changes a verdict: the regex decides.

// candidates returns the units of f that may match re, in order.
func (f *FileUnits) candidates(re *Regex) []int32 {
	if f.Skipped {
		return nil
	}
	if len(re.lits) == 0 || re.fold && !f.foldable() {
		return f.all()
	}
	var out []int32
	for i, g := range re.lits {
		var union []int32
		for _, lit := range g {
			union = mergeUnion(union, f.occurrences(lit, re.fold))
		}
		if i == 0 {
			out = union
		} else {
			out = intersect(out, union)
		}
		if len(out) == 0 {
			return nil
		}
	}
	return out
}

// all is every unit (shared: callers only read it).
func (f *FileUnits) all() []int32 {
	if f.every == nil {
		f.every = make([]int32, len(f.Units))
		for i := range f.every {
			f.every[i] = int32(i)
		}
	}
	return f.every
}

// foldable: the file is ASCII, so strings.ToLower is exact case folding.
func (f *FileUnits) foldable() bool {
	if f.lower == "" && f.hay != "" {
		if !isASCII(f.hay) {
			return false
		}
		f.lower = strings.ToLower(f.hay)
	}
	return true
}

// occurrences lists the units that contain lit (memoised per file).
func (f *FileUnits) occurrences(lit string, fold bool) []int32 {
	key, hay := lit, f.hay
	if fold {
		key, hay = "\x00"+lit, f.lower
	}
	if units, ok := f.occ[key]; ok {
		return units
	}
	var units []int32
	for pos := 0; pos < len(hay); {
		i := strings.Index(hay[pos:], lit)
		if i < 0 {
			break
		}
		u := sort.SearchInts(f.offs, pos+i+1) - 1 // the unit holding that byte
		units = append(units, int32(u))
		if u+1 >= len(f.offs) {
			break
		}
		pos = f.offs[u+1] // one hit per unit is enough
	}
	if f.occ == nil {
		f.occ = map[string][]int32{}
	}
	f.occ[key] = units
	return units
}

func mergeUnion(a, b []int32) []int32 {
	if len(a) == 0 {
		return b
	}
	if len(b) == 0 {
		return a
	}
	out := make([]int32, 0, len(a)+len(b))
	i, j := 0, 0
	for i < len(a) || j < len(b) {
		switch {
		case j >= len(b) || i < len(a) && a[i] < b[j]:
			out = append(out, a[i])
			i++
		case i >= len(a) || b[j] < a[i]:
			out = append(out, b[j])
			j++
		default:
			out = append(out, a[i])
			i++
			j++
		}
	}
	return out
}

func intersect(a, b []int32) []int32 {
	var out []int32
	i, j := 0, 0
	for i < len(a) && j < len(b) {
		switch {
		case a[i] < b[j]:
			i++
		case b[j] < a[i]:
			j++
		default:
			out = append(out, a[i])
			i++
			j++
		}
	}
	return out
}
