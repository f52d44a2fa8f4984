package disk

import (
	"crypto/sha256"
	"sync"
)

// A first run on a large tree writes a few hundred entries (the tables a
// check parsed, the dev context's declaration packs, the identifier
// index), and creating each file — a temporary, a rename, a directory of
// its key's shard — cost a third of a first `clew-lsp context` on GOROOT.
// With write-behind, Put queues the entry for one writer goroutine and
// returns; the command's answer does not wait for the disk, and Flush
// (before the process exits) waits for the queue. A queued entry is read
// back from the queue, checked as a file is, so a store reads its own
// writes. Past maxBehindBytes queued, Put writes itself: the queue never
// holds more memory than that.

// maxBehindBytes bounds the bytes the queue holds.
const maxBehindBytes = 256 << 20

// WriteBehind makes Put queue its entries for a background writer; Flush
// waits for them. A store without it writes before Put returns.
func (s *TableStore) WriteBehind() {
	if s.behind == nil {
		s.behind = &writeBehind{entries: map[[sha256.Size]byte][]byte{}}
		s.behind.idle = sync.NewCond(&s.behind.mu)
	}
}

// Flush returns once every entry Put queued before it is on disk (or
// failed to be: the cache's errors are dropped), PutLater's too.
func (s *TableStore) Flush() {
	if s.behind != nil {
		s.behind.flush()
	}
}

// PutLater is Put(key, make()) with make run off the caller's goroutine
// when the store writes behind (Flush waits for it); make returning nil
// puts nothing. make must read only what no one modifies meanwhile. Until
// make has returned, Get does not see the entry. An entry whose encoding
// is a cost of its own (the dev context's identifier index of a large
// tree, tens of megabytes) is then encoded beside the answer instead of
// before it.
func (s *TableStore) PutLater(key [sha256.Size]byte, make func() []byte) {
	if s.behind == nil {
		if data := make(); data != nil {
			s.Put(key, data)
		}
		return
	}
	w := s.behind
	w.mu.Lock()
	w.makers++
	w.mu.Unlock()
	go func() {
		defer func() {
			w.mu.Lock()
			w.makers--
			w.idle.Broadcast()
			w.mu.Unlock()
		}()
		if data := make(); data != nil {
			s.Put(key, data) // queued before makers drops: Flush then waits for the writer
		}
	}()
}

type writeBehind struct {
	mu      sync.Mutex
	idle    *sync.Cond // signalled when the writer stops or an encoding ends
	entries map[[sha256.Size]byte][]byte
	order   [][sha256.Size]byte // keys in Put order; a key Put again is written once, with its last entry
	bytes   int
	running bool
	makers  int // PutLater's encodings under way
}

// queue takes entry b for key, false when the queue is full (the caller
// writes it).
func (w *writeBehind) queue(s *TableStore, key [sha256.Size]byte, b []byte) bool {
	w.mu.Lock()
	defer w.mu.Unlock()
	old, queued := w.entries[key]
	if w.bytes-len(old)+len(b) > maxBehindBytes {
		return false
	}
	w.entries[key] = b
	w.bytes += len(b) - len(old)
	if !queued {
		w.order = append(w.order, key)
	}
	if !w.running {
		w.running = true
		go w.write(s)
	}
	return true
}

// entry is the entry queued for key, if any.
func (w *writeBehind) entry(key [sha256.Size]byte) ([]byte, bool) {
	w.mu.Lock()
	defer w.mu.Unlock()
	b, ok := w.entries[key]
	return b, ok
}

// pending reports whether an entry is queued or being encoded.
func (w *writeBehind) pending() bool {
	w.mu.Lock()
	defer w.mu.Unlock()
	return len(w.entries) > 0 || w.makers > 0
}

// write writes the queued entries in order until none is left.
func (w *writeBehind) write(s *TableStore) {
	w.mu.Lock()
	for len(w.order) > 0 {
		key := w.order[0]
		w.order = w.order[1:]
		b := w.entries[key]
		w.mu.Unlock()
		s.write(key, b)
		w.mu.Lock()
		// Still queued (read back) until here: a Get between the two sees
		// the entry in one place or the other.
		if cur := w.entries[key]; &cur[0] == &b[0] {
			delete(w.entries, key)
			w.bytes -= len(b)
		} else {
			w.order = append(w.order, key) // Put again while written: write the new one too
		}
	}
	w.running = false
	w.idle.Broadcast()
	w.mu.Unlock()
}

func (w *writeBehind) flush() {
	w.mu.Lock()
	for w.running || w.makers > 0 {
		w.idle.Wait()
	}
	w.mu.Unlock()
}
