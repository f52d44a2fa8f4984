package contextmap

import (
	"context"
	"path"
	"runtime"
	"strconv"
	"sync"
	"time"
	"weak"

	"github.com/clew-lsp/clew-lsp/internal/anchors"
	"github.com/clew-lsp/clew-lsp/internal/workspace"
)

// readFiles fills the base's files and identifier index. A file whose
// stat matches the record the previous index (this Load's newest, else the
// persisted one) kept is taken from the record; the others — changed,
// new, racy, overlaid, docs — are read, hashed and scanned, and the index
// is the previous one patched for them.
func (b *ctxBase) readFiles(ctx context.Context, s *workspace.Snapshot) error {
	// A record keeps only a stat older than the Load: a file's content may
	// come from a read made before this call (the check's, an earlier
	// request's), its stat after a write that followed it.
	start := s.LoadedAt()
	paths := s.Files()
	b.files = make([]cxFile, len(paths))
	b.byPath = make(map[string]int, len(paths))
	for i, p := range paths {
		b.byPath[p] = i
	}
	docs := map[string]bool{}
	for _, p := range s.Docs() {
		docs[p] = true
	}
	memo := contextMemo(s)
	prev, fromStore := memo.get(), false
	if prev == nil {
		prev, fromStore = loadIndex(s), true
	}
	if prev != nil && lexIdxBits(len(paths)) != prev.lex.idxBits {
		prev = nil
	}
	switch {
	case prev == nil:
		b.indexFrom = "scratch"
	case fromStore:
		b.indexFrom = "store"
	default:
		b.indexFrom = "memo"
	}
	stats := s.FileStats(paths)
	maxBytes := s.Config().Budget.MaxFileBytes
	if maxBytes == 0 {
		maxBytes = workspace.DefaultBudget().MaxFileBytes
	}
	recs := make([]cxRecord, len(paths))
	reused := make([]int, len(paths))
	var todo []int
	for i, p := range paths {
		reused[i] = -1
		f := cxFile{path: p, dir: path.Dir(p), doc: docs[p], test: isTestFile(p)}
		_, f.overlay = s.Overlay(p)
		if !f.doc {
			f.lang, f.code = s.Language(p)
		}
		b.files[i] = f
		if f.doc || f.overlay {
			todo = append(todo, i)
			continue
		}
		lang := f.lang
		if !f.code {
			lang = ""
		}
		j, ok := prev.reusable(p, stats[i], lang)
		// A file over the size limit is recorded unread; its record holds
		// while it stays over (the limit is the config's, it may move).
		tooLarge := stats[i].Size > maxBytes
		if !ok || tooLarge != (prev.recs[j].st == anchors.FileTooLarge) {
			todo = append(todo, i)
			continue
		}
		r := prev.recs[j]
		recs[i], reused[i] = r, j
		f.st, f.size, f.blob = r.st, int(stats[i].Size), r.blob
		if tooLarge {
			f.size = 0 // as readFile sets it: nothing was read
		}
		f.code = f.code && r.st == anchors.FileOK
		b.files[i] = f
	}
	if err := ctx.Err(); err != nil {
		return err
	}

	// Read, hash and scan the rest on all cores.
	todoPaths := make([]string, len(todo))
	for k, i := range todo {
		todoPaths[k] = paths[i]
	}
	// The files are read in batches on their own goroutines, and scanned
	// in the same order as the batches come in. With reads in memory,
	// hashing and scanning are work for the cores: more workers would only
	// keep more vocabularies to merge.
	workers := workspace.ReadWorkers
	inMemory, readsDone := s.PreloadAsync(todoPaths)
	if inMemory {
		workers = min(workers, runtime.GOMAXPROCS(0))
	}
	scans := make([]*cxLexFile, len(paths))
	sinks := make([]*vocabSink, workers)
	sorted := make([][]vocabWord, workers) // from scratch: each sink's words, sorted by its worker
	diskRead := 0
	var wg sync.WaitGroup
	next := make(chan int)
	for w := range sinks {
		sinks[w] = newVocabSink()
		wg.Add(1)
		go func() {
			defer wg.Done()
			for i := range next {
				recs[i], scans[i] = b.readFile(s, i, stats[i], start, sinks[w])
			}
			if prev == nil {
				sorted[w] = sinks[w].sorted()
			}
		}()
	}
	for k, i := range todo {
		if k%256 == 0 && ctx.Err() != nil {
			break
		}
		if !b.files[i].overlay && !b.files[i].doc {
			diskRead++
		}
		next <- i
	}
	close(next)
	wg.Wait()
	readsDone()
	if err := ctx.Err(); err != nil {
		return err
	}
	b.indexReads = len(todo)

	var lex *cxLex
	if prev != nil {
		words := sinks[0]
		for _, o := range sinks[1:] {
			words.merge(o)
		}
		lex = prev.patch(reused, scans, words)
	} else {
		// The vocabulary and the sorted keys, on two cores.
		vocab := make(chan *cxVocab, 1)
		go func() { vocab <- vocabOfSinks(sinks, sorted) }()
		lex = newCxLex(scans, nil, nil)
		lex.vocab = <-vocab
	}
	b.setLex(s, lex)
	idx := &cxIndexed{paths: paths, recs: recs, lex: lex}
	memo.put(idx)
	if diskRead > 0 || fromStore && prev == nil || prev != nil && len(prev.paths) != len(paths) {
		storeIndex(s, idx)
	}
	return nil
}

// setLex gives the index a way to read a file's bytes for an ambiguous
// hash that does not keep the snapshot alive (the base must not point
// back at it).
func (b *ctxBase) setLex(s *workspace.Snapshot, lex *cxLex) {
	snap := weak.Make(s)
	lex.read = func(i int) []byte {
		if s := snap.Value(); s != nil {
			data, _ := s.ReadFile(b.files[i].path)
			return data
		}
		return nil
	}
	b.lex = lex
}

// readFile reads, hashes and (for a code file) scans file i.
func (b *ctxBase) readFile(s *workspace.Snapshot, i int, st workspace.FileStat, start time.Time, words *vocabSink) (cxRecord, *cxLexFile) {
	f := &b.files[i]
	data, fst := s.ReadFile(f.path)
	f.st, f.size = fst, len(data)
	switch {
	case fst == anchors.FileMissing:
		f.blob = "missing"
	case data == nil && fst != anchors.FileOK:
		f.blob = "unread:" + strconv.Itoa(int(fst))
	default:
		f.blob = gitBlobID(data)
	}
	f.code = f.code && fst == anchors.FileOK
	rec := cxRecord{blob: f.blob, st: fst}
	if !f.overlay && !f.doc {
		rec.stat = workspace.TrustedStat(st, start)
	}
	if !f.code {
		return rec, nil
	}
	rec.lang = f.lang
	return rec, lexScan(data, f.lang, words)
}
