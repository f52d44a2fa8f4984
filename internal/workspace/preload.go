package workspace

import (
	"sync"

	"github.com/clew-lsp/clew-lsp/internal/anchors"
)

// ManyReader is an optional extension of Files for reading many files at
// once with fewer system calls; the context compiler reads the whole
// workspace through it when the adapter has it (workspace/disk does).
type ManyReader interface {
	// ReadMany reads workspace-relative paths. A file over maxBytes has its
	// Size and no Data; Err is set when the file could not be read, and the
	// caller then falls back to Files.Read.
	ReadMany(paths []string, maxBytes int64) []FileRead
}

// FileRead is one file of ReadMany.
type FileRead struct {
	Data []byte
	Size int64
	Err  error
}

// readWorkers bounds the goroutines that read and hash files; reads are
// mostly system calls, so more than the cores pays off.
const ReadWorkers = 8

// preloadBatch is how many files one ReadMany call reads.
const preloadBatch = 128

// preload reads the given paths into the snapshot's read cache through
// ReadMany, with exactly Snapshot.ReadFile's classification, so later
// reads are memory hits and the snapshot stays idempotent: a path already
// read, or overlaid, keeps its answer. Paths ReadMany fails on are left for
// ReadFile.
func (s *Snapshot) Preload(paths []string) {
	mr, ok := s.files.(ManyReader)
	if !ok {
		return
	}
	max := s.config.Budget.MaxFileBytes
	if max == 0 {
		max = DefaultBudget().MaxFileBytes
	}
	var todo []string
	s.reads.mu.Lock()
	for _, p := range paths {
		if _, done := s.reads.m[p]; done {
			continue
		}
		if _, over := s.overlays[p]; over {
			continue
		}
		if anchors.CheckPath(p) != "" {
			continue
		}
		todo = append(todo, p)
	}
	s.reads.mu.Unlock()
	batches := make(chan []string)
	var wg sync.WaitGroup
	for w := 0; w < ReadWorkers; w++ {
		wg.Add(1)
		go func() {
			defer wg.Done()
			for batch := range batches {
				s.storeReads(batch, mr.ReadMany(batch, max), max)
			}
		}()
	}
	for len(todo) > 0 {
		n := min(len(todo), preloadBatch)
		batches <- todo[:n]
		todo = todo[n:]
	}
	close(batches)
	wg.Wait()
}

func (s *Snapshot) storeReads(batch []string, res []FileRead, max int64) {
	s.reads.mu.Lock()
	defer s.reads.mu.Unlock()
	for i, p := range batch {
		r := res[i]
		if r.Err != nil {
			continue
		}
		if _, done := s.reads.m[p]; done {
			continue
		}
		if r.Data == nil && r.Size > max {
			s.reads.m[p] = &readResult{b: nil, st: anchors.FileTooLarge}
			continue
		}
		s.reads.m[p] = &readResult{b: r.Data, st: classify(r.Data, max)}
	}
}
