package contextmap

import (
	"runtime"
	"sync"
	"sync/atomic"

	"github.com/clew-lsp/clew-lsp/internal/workspace"
)

// The search reads candidate files in batches (a declaration's callers,
// users, tests, callees), in an order that decides the world. A prefetch
// builds a batch's declarations (parsedfiles.go) on every core while the
// walk goes on: the walk takes each file's as it reaches it — waiting
// for a worker that is building it, or building it itself when no
// worker has started — so it never waits for a whole batch, and a large
// file of one batch overlaps the walk of the files before it. It changes
// no answer: the world is still built in order, from the same
// declarations.

// prefetch queues the files parse(p, true) is about to read in this
// order (the same budget arithmetic); words says the caller will ask
// their holders, so their words are indexed too.
func (w *worldBuilder) prefetch(paths []string, words bool) {
	var todo []string
	spent, spentB := w.spent, w.spentB
	for _, p := range paths {
		if _, ok := w.parsed[p]; ok {
			continue
		}
		f, ok := w.b.file(p)
		if !ok || !f.code {
			continue
		}
		if spent >= maxSearchParses || spentB+f.size > maxSearchBytes {
			continue
		}
		spent++
		spentB += f.size
		todo = append(todo, p)
	}
	w.prefetchTables(todo, words)
}

// prefetchTables queues code files' declarations for the workers: those
// this world or the Load holds are taken from there (their words queued
// when asked and not indexed yet), the others are built.
func (w *worldBuilder) prefetchTables(paths []string, words bool) {
	var jobs []*contentJob
	for _, p := range paths {
		f, ok := w.b.file(p)
		if !ok || !f.code {
			continue
		}
		if _, ok := w.pending[p]; ok {
			continue
		}
		c, ok := w.contents[p]
		if !ok {
			if c = w.b.contents.get(w.contentKey(f)); c != nil {
				w.contents[p] = c
				ok = true
			}
		}
		if ok {
			if words && c != nil && !c.wordsDone.Load() {
				jobs = append(jobs, &contentJob{c: c, words: true, done: make(chan struct{})})
			}
			continue
		}
		j := &contentJob{f: f, k: w.contentKey(f), words: words, build: true, done: make(chan struct{})}
		if w.pending == nil {
			w.pending = map[string]*contentJob{}
		}
		w.pending[p] = j
		jobs = append(jobs, j)
	}
	if len(jobs) < 2 {
		// Not worth a worker: the walk builds a lone file itself.
		return
	}
	if w.pool == nil {
		w.pool = newContentPool(w.s, w.b)
	}
	for _, j := range jobs {
		w.pool.queue(j)
	}
}

// takePending is file p's declarations when a prefetch queued them: a
// worker's, or built here when none has started.
func (w *worldBuilder) takePending(p string) (*cxContent, bool) {
	j, ok := w.pending[p]
	if !ok {
		return nil, false
	}
	delete(w.pending, p)
	if j.claim() {
		j.run(w.s, w.b)
	} else {
		<-j.done
	}
	return j.c, true
}

// contentJob is one file's declarations to build, or a kept one's words
// to index.
type contentJob struct {
	f     cxFile
	k     cxContentKey
	build bool // c is to be built (else it is given, for its words)
	words bool
	c     *cxContent
	state atomic.Bool // claimed
	done  chan struct{}
}

// claim reports whether the caller is the one to run j.
func (j *contentJob) claim() bool { return j.state.CompareAndSwap(false, true) }

func (j *contentJob) run(s *workspace.Snapshot, b *ctxBase) {
	defer close(j.done)
	if j.build {
		j.c = buildContent(s, b, j.f, j.k)
		if j.c != nil {
			b.contents.name(j.c) // here, not on the walk's goroutine
		}
	}
	if j.words && j.c != nil {
		j.c.indexWordsOnce()
	}
}

// contentPool is a world's prefetch workers, one per core. It holds the
// snapshot and base itself: the builder is reset when released, while a
// worker may still be finishing a job.
type contentPool struct {
	s      *workspace.Snapshot
	b      *ctxBase
	jobs   chan *contentJob
	closed atomic.Bool
	wg     sync.WaitGroup
}

func newContentPool(s *workspace.Snapshot, b *ctxBase) *contentPool {
	p := &contentPool{s: s, b: b, jobs: make(chan *contentJob, maxSearchParses)}
	for range runtime.GOMAXPROCS(0) {
		p.wg.Add(1)
		go func() {
			defer p.wg.Done()
			for j := range p.jobs {
				if !p.closed.Load() && j.claim() {
					j.run(p.s, p.b)
				}
			}
		}()
	}
	return p
}

// queue hands j to the workers (the walk builds it itself when they are
// behind: takePending).
func (p *contentPool) queue(j *contentJob) {
	select {
	case p.jobs <- j:
	default: // the queue is full: the walk will claim it
	}
}

// stop ends the workers once the jobs under way are done; queued jobs
// nobody took are dropped (the world did not need them).
func (p *contentPool) stop() {
	p.closed.Store(true)
	close(p.jobs)
	p.wg.Wait()
}
