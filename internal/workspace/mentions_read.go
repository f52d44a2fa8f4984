package workspace

import (
	"sync"

	"github.com/clew-lsp/clew-lsp/internal/anchors"
)

// readEach reads every path once and calls do with its text and status, on
// several goroutines (reads are mostly system calls). Through the adapter's
// ReadMany when it has one — a directory opened once for all its files,
// instead of a stat and a walk from the root per file — else one by one;
// buffers and failed batch reads go through readUncached, so the answers
// are readUncached's. Nothing is kept in the snapshot's read cache: verify
// reads every code file for its mentions once, and keeping their texts
// would only hold memory. With the adapter's VisitMany the text is in a
// buffer reused for the next file: do must not keep it (nor anything that
// aliases it).
func (s *Snapshot) readEach(paths []string, do func(i int, text []byte, st anchors.FileStatus)) {
	mr, ok := s.files.(ManyReader)
	if !ok {
		parallel(len(paths), func(i int) {
			text, st := s.readUncached(paths[i])
			do(i, text, st)
		})
		return
	}
	max := s.config.Budget.MaxFileBytes
	if max == 0 {
		max = DefaultBudget().MaxFileBytes
	}
	type batch struct{ from, to int }
	batches := make(chan batch)
	var wg sync.WaitGroup
	for w := 0; w < ReadWorkers; w++ {
		wg.Add(1)
		go func() {
			defer wg.Done()
			var disk []string
			var at []int
			for b := range batches {
				disk, at = disk[:0], at[:0]
				for i := b.from; i < b.to; i++ {
					if _, over := s.overlays[paths[i]]; over || anchors.CheckPath(paths[i]) != "" {
						text, st := s.readUncached(paths[i])
						do(i, text, st)
						continue
					}
					disk, at = append(disk, paths[i]), append(at, i)
				}
				one := func(k int, r FileRead) {
					i := at[k]
					text, st, ok := r.content(max)
					if !ok {
						text, st = s.readUncached(paths[i])
					}
					do(i, text, st)
				}
				if mv, ok := mr.(ManyVisitor); ok {
					mv.VisitMany(disk, max, one)
					continue
				}
				for k, r := range mr.ReadMany(disk, max) {
					one(k, r)
				}
			}
		}()
	}
	for from := 0; from < len(paths); from += preloadBatch {
		batches <- batch{from, min(from+preloadBatch, len(paths))}
	}
	close(batches)
	wg.Wait()
}
