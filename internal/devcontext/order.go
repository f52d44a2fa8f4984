package devcontext

import (
	"cmp"
	"slices"
	"strings"
)

// naturalCompare is the one canonical string order of the answer: digit runs
// compare by value ("INV-2" < "INV-10"; equal values with more leading zeros
// first), letters ASCII-case-folded, and the exact bytes only as the final
// tie-break, so the order is total.
func naturalCompare(a, b string) int {
	if c := naturalFold(a, b); c != 0 {
		return c
	}
	return strings.Compare(a, b)
}

func isDigit(c byte) bool { return '0' <= c && c <= '9' }

func lower(c byte) byte {
	if 'A' <= c && c <= 'Z' {
		return c + 'a' - 'A'
	}
	return c
}

func naturalFold(a, b string) int {
	// A prefix the two share compares equal whatever it holds; start at
	// its end, or at the start of a digit run it ends in (the run is
	// compared as a number, whole). Ids share long prefixes.
	k := 0
	for n := min(len(a), len(b)); k < n && a[k] == b[k]; {
		k++
	}
	for k > 0 && isDigit(a[k-1]) {
		k--
	}
	a, b = a[k:], b[k:]
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
			if zeros == 0 { // more leading zeros first
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

// The canonical order of every list (docs/context.md, unified on naturalCompare
// for identities; see DESIGN.md).

func sortSelected(es []Entry) {
	slices.SortFunc(es, func(x, y Entry) int {
		if c := cmp.Compare(tierPos(x.Tier), tierPos(y.Tier)); c != 0 {
			return c
		}
		if c := cmp.Compare(y.Relevance, x.Relevance); c != 0 {
			return c
		}
		return naturalCompare(x.URI, y.URI)
	})
}

func compareDiscovery(x, y Discovery) int {
	if c := cmp.Compare(y.Confidence, x.Confidence); c != 0 {
		return c
	}
	if c := cmp.Compare(x.Depth, y.Depth); c != 0 {
		return c
	}
	if c := cmp.Compare(selectorPos(x.Selector), selectorPos(y.Selector)); c != 0 {
		return c
	}
	if c := naturalCompare(x.Reason, y.Reason); c != 0 {
		return c
	}
	if c := naturalCompare(x.Edge, y.Edge); c != 0 {
		return c
	}
	if c := cmp.Compare(y.Weight, x.Weight); c != 0 {
		return c
	}
	return naturalCompare(x.Via, y.Via)
}

func sortExcluded(xs []Excluded) {
	slices.SortFunc(xs, func(x, y Excluded) int {
		if c := cmp.Compare(tierPos(x.Tier), tierPos(y.Tier)); c != 0 {
			return c
		}
		if c := strings.Compare(string(x.Reason), string(y.Reason)); c != 0 {
			return c
		}
		return naturalCompare(x.URI, y.URI)
	})
}

func sortDeduplicated(ds []Deduplicated) {
	slices.SortFunc(ds, func(x, y Deduplicated) int {
		if c := strings.Compare(x.Key, y.Key); c != 0 { // identity < path < uri
			return c
		}
		if c := naturalCompare(x.Kept, y.Kept); c != 0 {
			return c
		}
		return naturalCompare(strings.Join(x.Dropped, "\n"), strings.Join(y.Dropped, "\n"))
	})
}

func sortConflicts(cs []Conflict) {
	slices.SortFunc(cs, func(x, y Conflict) int {
		if c := strings.Compare(x.Kind, y.Kind); c != 0 { // supersedes < version
			return c
		}
		if c := naturalCompare(x.Current, y.Current); c != 0 {
			return c
		}
		return naturalCompare(x.Against, y.Against)
	})
}

func severityRank(s string) int {
	switch s {
	case SeverityError:
		return 0
	case SeverityWarning:
		return 1
	case SeverityInfo:
		return 2
	}
	return 3
}

// sortDiagnostics orders error first, then code, message, path, and drops
// exact duplicates.
func sortDiagnostics(ds []Diagnostic) []Diagnostic {
	slices.SortFunc(ds, func(x, y Diagnostic) int {
		if c := cmp.Compare(severityRank(x.Severity), severityRank(y.Severity)); c != 0 {
			return c
		}
		if c := strings.Compare(x.Code, y.Code); c != 0 {
			return c
		}
		if c := naturalCompare(x.Message, y.Message); c != 0 {
			return c
		}
		return naturalCompare(x.Path, y.Path)
	})
	return slices.Compact(ds)
}

// sortCommits orders by commit, named_by, covers in byte order (shas are not
// natural text) and drops exact duplicates.
func sortCommits(cs []CommitReference) []CommitReference {
	slices.SortFunc(cs, func(x, y CommitReference) int {
		return cmp.Or(strings.Compare(x.Commit, y.Commit), strings.Compare(x.NamedBy, y.NamedBy), strings.Compare(x.Covers, y.Covers))
	})
	return slices.Compact(cs)
}
