package symbols

import "sync"

// freeList keeps scratch arrays (a flattened tree's nodes, a file's tokens,
// its joined token text) from one parse to the next, so a parse allocates
// its big arrays only now and then. It is a sync.Pool: what it keeps goes
// back to the collector within two collections, so a server that parses
// nothing holds none of it. Arrays of more than maxKept elements (a huge
// file's) are not kept at all. Keeping net/http's h2_bundle.go's arrays
// too took BenchmarkTablesVsCursorWalk from 33 to 22 MB allocated per pass
// and its cpu-ratio from 1.20–1.35 to 1.12–1.21 (at load 0.7, where the
// collector's idle workers get a core to themselves).
type freeList[T any] struct {
	pool    sync.Pool // of *[]T
	maxKept int
}

// get returns an empty array with room for at least n elements; its old
// contents are not cleared.
func (f *freeList[T]) get(n int) []T {
	if p, _ := f.pool.Get().(*[]T); p != nil && cap(*p) >= n {
		return (*p)[:0]
	}
	return make([]T, 0, n)
}

// put gives b back; nothing of it may be used afterwards.
func (f *freeList[T]) put(b []T) {
	if cap(b) == 0 || cap(b) > f.maxKept {
		return
	}
	b = b[:0]
	f.pool.Put(&b)
}
