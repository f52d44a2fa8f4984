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

// ManyVisitor is an optional extension of ManyReader: each file's bytes
// are handed to visit, in paths' order, in a buffer the adapter reuses for
// the next file, so visit must not keep them (nor anything that aliases
// them). Reading thousands of files to look at each once then allocates
// no copy of each (workspace/disk has it).
type ManyVisitor interface {
	VisitMany(paths []string, maxBytes int64, visit func(i int, r FileRead))
}

// FileRead is one file of ReadMany.
type FileRead struct {
	Data []byte
	Size int64
	Err  error
}

// content is the read as readUncached gives a file under the size limit
// max: its bytes and status; ok is false when the read failed (the caller
// reads the file alone).
func (r FileRead) content(max int64) (b []byte, st anchors.FileStatus, ok bool) {
	switch {
	case r.Err != nil:
		return nil, 0, false
	case r.Data == nil && r.Size > max:
		return nil, anchors.FileTooLarge, true
	}
	return r.Data, classify(r.Data, max), true
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
	_, wait := s.PreloadAsync(paths)
	wait()
}

// PreloadAsync is Preload returning as soon as the paths are in flight:
// a ReadFile of one of them waits for its batch, so a caller that reads
// the paths in order works on the first batches while the later ones are
// read. wait returns when every batch is stored. inMemory reports whether
// the adapter reads many files at once: the paths' reads are then memory
// hits (those ReadMany failed on excepted).
func (s *Snapshot) PreloadAsync(paths []string) (inMemory bool, wait func()) {
	mr, ok := s.files.(ManyReader)
	if !ok {
		return false, func() {}
	}
	max := s.config.Budget.MaxFileBytes
	if max == 0 {
		max = DefaultBudget().MaxFileBytes
	}
	var todo []string
	// Each batch is a read in flight for its paths: a ReadFile of one of
	// them waits for the batch instead of reading it a second time.
	var flights []*flight
	s.reads.mu.Lock()
	if s.reads.inflight == nil {
		s.reads.inflight = map[string]*flight{}
	}
	for _, p := range paths {
		if _, done := s.reads.m[p]; done {
			continue
		}
		if _, reading := s.reads.inflight[p]; reading {
			continue
		}
		if _, over := s.overlays[p]; over {
			continue
		}
		if anchors.CheckPath(p) != "" {
			continue
		}
		if len(todo)%preloadBatch == 0 {
			flights = append(flights, &flight{done: make(chan struct{})})
		}
		s.reads.inflight[p] = flights[len(flights)-1]
		todo = append(todo, p)
	}
	s.reads.mu.Unlock()
	if len(todo) == 0 {
		return true, func() {}
	}
	type batch struct {
		paths []string
		f     *flight
	}
	batches := make(chan batch)
	var wg sync.WaitGroup
	for w := 0; w < min(ReadWorkers, len(flights)); w++ {
		wg.Add(1)
		go func() {
			defer wg.Done()
			for b := range batches {
				s.storeReads(b.paths, mr.ReadMany(b.paths, max), max)
				close(b.f.done) // after the store: the waiters find their answer, or read for themselves
			}
		}()
	}
	go func() {
		for k := 0; len(todo) > 0; k++ {
			n := min(len(todo), preloadBatch)
			batches <- batch{todo[:n], flights[k]}
			todo = todo[n:]
		}
		close(batches)
	}()
	return true, wg.Wait
}

func (s *Snapshot) storeReads(batch []string, res []FileRead, max int64) {
	s.reads.mu.Lock()
	defer s.reads.mu.Unlock()
	for i, p := range batch {
		delete(s.reads.inflight, p)
		b, st, ok := res[i].content(max)
		if !ok {
			continue
		}
		if _, done := s.reads.m[p]; done {
			continue
		}
		s.reads.m[p] = &readResult{b: b, st: st}
	}
}

// FileStater is an optional extension of Files: the metadata of many files
// without reading them. A feature that keeps what it derived from a file's
// content (keyed by that content's id) trusts a file whose stat is the one
// it recorded, instead of reading and hashing it again (workspace/disk has
// it).
type FileStater interface {
	StatFiles(paths []string) []FileStat
}

// FileStat is one file's metadata. Ok is false when it could not be had;
// Ctime and Inode are 0 where the platform has none.
type FileStat struct {
	Size, ModTime, Ctime int64 // bytes; nanoseconds since the epoch
	Inode                uint64
	Ok                   bool
}

// FileStats returns the disk metadata of paths (Ok false for each when the
// adapter cannot stat, and for paths overlaid by a buffer or outside the
// workspace: their content is not the disk's).
//
// As a read, a path's first stat is the snapshot's answer for its whole
// life (readCache), so the features that each stat the code files (the
// mention records, the stored repository-wide pass, the context's index)
// stat them once. A stat taken before a read is one a record may keep: a
// write between them leaves the file with another stat, so the record is
// not taken.
func (s *Snapshot) FileStats(paths []string) []FileStat {
	st, ok := s.files.(FileStater)
	if !ok {
		return make([]FileStat, len(paths))
	}
	out := s.reads.stats(paths, st.StatFiles)
	for i, p := range paths {
		if _, over := s.overlays[p]; over || anchors.CheckPath(p) != "" {
			out[i] = FileStat{}
		}
	}
	return out
}
