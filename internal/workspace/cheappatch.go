package workspace

import (
	"crypto/sha256"
	"slices"

	"github.com/clew-lsp/clew-lsp/internal/anchors"
	"github.com/clew-lsp/clew-lsp/internal/anchors/symbols"
)

// fileState is what the hinted files' index was built from, per file.
type fileState struct {
	st  anchors.FileStatus
	sum [sha256.Size]byte
}

// cheapBase is the last hinted files' index built whole, with what it was
// built from: a code edit changes one of a thousand files, and the next
// index is this one patched (anchors.NewIndexPatched) instead of rebuilt.
type cheapBase struct {
	ix     *anchors.Index
	paths  []string // in loadAll's (sorted) order
	states map[string]fileState
	sql    bool // the index replays SQL histories: never patched
}

// maxCheapPatch is how many changed files a patch may hold; past it the
// index is rebuilt (and becomes the new base).
const maxCheapPatch = 64

func (m *checkMemo) setCheapBase(ix *anchors.Index, paths []string, states []fileState, sql bool) {
	b := &cheapBase{ix: ix, paths: paths, states: make(map[string]fileState, len(paths)), sql: sql}
	for i, p := range paths {
		b.states[p] = states[i]
	}
	m.baseMu.Lock()
	m.cheapBase = b
	m.baseMu.Unlock()
}

// patchCheap builds the hinted files' index as the base index with the
// files whose status or content differ replaced, dropped or added. It
// returns nil when there is no base, or the change is too large or touches
// a SQL history (whose files are indexed together). The base was built by
// adding the files in path order (SQL aside), so a file's rank is its
// place among the sorted paths, and a new file's is just before its
// successor's.
func (r *checkRun) patchCheap(paths []string, states []fileState) *anchors.Index {
	r.memo.baseMu.Lock()
	b := r.memo.cheapBase
	r.memo.baseMu.Unlock()
	if b == nil || b.sql {
		return nil
	}
	var changed []int // indexes into paths
	inNew := make(map[string]bool, len(paths))
	for i, p := range paths {
		inNew[p] = true
		if old, ok := b.states[p]; !ok || old != states[i] {
			if changed = append(changed, i); len(changed) > maxCheapPatch {
				return nil
			}
		}
	}
	drop := map[string]bool{}
	for _, i := range changed {
		if r.s.isSQL(paths[i]) {
			return nil
		}
		drop[paths[i]] = true
	}
	for _, p := range b.paths {
		if !inNew[p] {
			if r.s.isSQL(p) || len(drop) >= maxCheapPatch {
				return nil
			}
			drop[p] = true
		}
	}
	rank := func(p string) int {
		i, found := slices.BinarySearch(b.paths, p)
		if found {
			return 2 * i
		}
		return 2*i - 1 // before its successor, after its predecessor
	}
	ix := anchors.NewIndexPatched(b.ix, drop, rank)
	var jobs []string // in path order: new files sharing a rank keep it
	for _, i := range changed {
		if states[i].st == anchors.FileOK {
			if _, ok := r.s.Language(paths[i]); ok {
				jobs = append(jobs, paths[i])
			}
		}
	}
	decls := make([][]symbols.Decl, len(jobs))
	parallel(len(jobs), func(k int) {
		lang, _ := r.s.Language(jobs[k])
		text, _, sum := r.s.readSum(jobs[k])
		decls[k] = r.tableOf(jobs[k], lang, sum, text).Decls
	})
	for k, p := range jobs {
		ix.Add(p, decls[k])
	}
	return ix
}
