package workspace

import (
	"crypto/sha256"
	"sync"
	"time"
)

// writeThrottle spaces the rewrites of one per-root entry in a
// long-running process (a server re-derives it as files change), at most
// one every `every` per key.
type writeThrottle struct {
	every time.Duration
	last  sync.Map // key → time of the last write
}

// due reports whether key may be written now, and if so counts it
// written.
func (w *writeThrottle) due(key [sha256.Size]byte) bool {
	now := time.Now()
	if last, ok := w.last.Load(key); ok && now.Sub(last.(time.Time)) < w.every {
		return false
	}
	w.last.Store(key, now)
	return true
}

// set changes the spacing and forgets the writes so far (tests).
func (w *writeThrottle) set(every time.Duration) (was time.Duration) {
	was, w.every = w.every, every
	w.last.Clear()
	return was
}
