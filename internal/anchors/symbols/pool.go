package symbols

import "sync"

// freeList keeps a few scratch arrays (a flattened tree's nodes, a file's
// tokens) from one parse to the next. A sync.Pool would lose them at every
// collection, and a parse makes enough garbage that collections come
// every few files. Only arrays of at most maxKept elements are kept, so a
// huge file's scratch goes back to the collector.
type freeList[T any] struct {
	mu      sync.Mutex
	free    [][]T
	maxKept int
}

// freeListLen is how many arrays a list keeps: about one per parse
// running at once on a small machine.
const freeListLen = 4

// get returns an empty array with room for at least n elements; its old
// contents are not cleared.
func (f *freeList[T]) get(n int) []T {
	f.mu.Lock()
	for i := len(f.free) - 1; i >= 0; i-- {
		if b := f.free[i]; cap(b) >= n {
			f.free[i] = f.free[len(f.free)-1]
			f.free = f.free[:len(f.free)-1]
			f.mu.Unlock()
			return b[:0]
		}
	}
	f.mu.Unlock()
	return make([]T, 0, n)
}

// put gives b back; nothing of it may be used afterwards.
func (f *freeList[T]) put(b []T) {
	if cap(b) == 0 || cap(b) > f.maxKept {
		return
	}
	f.mu.Lock()
	defer f.mu.Unlock()
	if len(f.free) < freeListLen {
		f.free = append(f.free, b[:0])
		return
	}
	// Full: keep the larger arrays, which serve every file.
	for i, old := range f.free {
		if cap(old) < cap(b) {
			f.free[i] = b[:0]
			return
		}
	}
}
