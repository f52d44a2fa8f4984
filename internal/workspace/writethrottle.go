package workspace

import (
	"crypto/sha256"
	"sync"
	"time"
)

// WriteThrottle spaces the rewrites of a per-root entry of the persistent
// store in a long-running process (a server re-derives it as files
// change): at most one every Every per key. The mention records, the
// stored repository-wide pass and contextmap's identifier index use one
// each.
type WriteThrottle struct {
	Every time.Duration
	last  sync.Map // key → time of the last write
}

// Due reports whether key may be written now, and if so counts it
// written.
func (w *WriteThrottle) Due(key [sha256.Size]byte) bool {
	now := time.Now()
	if last, ok := w.last.Load(key); ok && now.Sub(last.(time.Time)) < w.Every {
		return false
	}
	w.last.Store(key, now)
	return true
}

// Set changes the spacing and forgets the writes so far (tests); it
// returns the spacing before.
func (w *WriteThrottle) Set(every time.Duration) (was time.Duration) {
	was, w.Every = w.Every, every
	w.last.Clear()
	return was
}
