package claims

import (
	"fmt"
	"runtime"
	"slices"
	"strings"
	"sync"
)

// A run scans in batches: every leg's file set is known before any file
// is read, so each file is read once and gone through once for all the
// legs that cover it (scan.go). The first batch holds every leg; the
// second only the present legs whose match is gone (the moved rule scans
// every tracked file for them).

// Sizer is implemented by a Repo that knows a file's size before reading
// it, so the byte budget can refuse a file without reading it.
type Sizer interface {
	Size(path string) (int64, bool)
}

// legJob is one `@anchor` leg of a run.
type legJob struct {
	leg     *Leg
	pending string   // slug of the open change holding the claim
	onDisk  []Repo   // the leg's targets that are on disk
	set     *fileSet // the surviving file set, shared by legs with the same spec
	matches []hit    // the entries of set with a match, in entry order (see keepAll)
	total   int      // matching units over the whole set
	keepAll bool     // every hit kept (each, the count command); else hits stop once they hold maxMatches lines
	heal    *fileSet // present legs without a match: every tracked file
	healed  []hit
	hint    string // the untracked hint when set is empty
	rid     int32  // the regex's index in the batch's scanner
	// nhits and ntotal count a batch's hits before they are kept, so
	// matches (or healed) is allocated once at its size.
	nhits, ntotal int
}

// fileSet is the files a leg spec names (key, include, exclusions), shared
// by every leg with that spec: it is computed and registered once.
type fileSet struct {
	entries []member
	jobs    []*legJob // of the current batch
}

// member is one file of a set.
type member struct {
	repo   Repo
	idx    int32 // in repo.Files()
	path   string
	unread bool // the byte budget ran out before this file was read
}

func (m member) label() string { return m.repo.Key() + ":" + m.path }

// hit is one entry of a set with its matching units' lines (most entries
// of a wide leg match nothing, and a Match is only built for what a
// report or an editor shows).
type hit struct {
	k     int32
	lines []int32
}

// matchesOf builds the Matches of one hit of fs.
func matchesOf(fs *fileSet, h hit, max int) []Match {
	return appendMatches(make([]Match, 0, min(len(h.lines), max)), fs, h, max)
}

// appendMatches appends the first max Matches of one hit of fs.
func appendMatches(out []Match, fs *fileSet, h hit, max int) []Match {
	m := &fs.entries[h.k]
	key := m.repo.Key()
	for _, n := range h.lines[:min(len(h.lines), max)] {
		out = append(out, Match{Repo: key, Path: m.path, Line: int(n)})
	}
	return out
}

// prepare computes a leg's targets and surviving file set.
func (e *evaluator) prepare(l *Leg, pending string) *legJob {
	job := &legJob{leg: l, pending: pending, keepAll: l.Mode == ModeEach}
	for _, r := range e.targets(l) {
		if r.OnDisk() {
			job.onDisk = append(job.onDisk, r)
		}
	}
	key := setKey("set", l)
	if fs, ok := e.fileSets[key]; ok {
		job.set = fs
	} else {
		fs := &fileSet{}
		inc, _ := e.glob(l.Include) // globError has vetted it
		for _, r := range job.onDisk {
			files := r.Files()
			for _, i := range e.matchingFiles(r, inc) {
				if !e.excluded(l, r, files[i]) {
					fs.entries = append(fs.entries, member{repo: r, idx: i, path: files[i]})
				}
			}
		}
		e.fileSets[key] = fs
		job.set = fs
	}
	if len(job.set.entries) == 0 && len(job.onDisk) > 0 {
		inc, _ := e.glob(l.Include)
		job.hint = e.untrackedHint(l, inc, job.onDisk)
	}
	return job
}

// setKey names a leg's file set: its repo key, include and exclusions.
func setKey(kind string, l *Leg) string {
	var b strings.Builder
	b.WriteString(kind + "\x00" + l.Repo + "\x00")
	if kind == "set" {
		b.WriteString(l.Include)
	}
	for _, x := range l.Exclusions {
		b.WriteString("\x00" + x.Repo + ":" + x.Glob)
	}
	return b.String()
}

// healSet lists every tracked file the moved rule may land in: all files of
// the leg's targets but `.multivac` and the leg's exclusions.
func (e *evaluator) healSet(job *legJob) *fileSet {
	key := setKey("heal", job.leg)
	if fs, ok := e.fileSets[key]; ok {
		return fs
	}
	fs := &fileSet{}
	for _, r := range job.onDisk {
		for i, p := range r.Files() {
			if p == ".multivac" || strings.HasPrefix(p, ".multivac/") || e.excluded(job.leg, r, p) {
				continue // the law row quotes its own pattern: never a heal target
			}
			fs.entries = append(fs.entries, member{repo: r, idx: int32(i), path: p})
		}
	}
	e.fileSets[key] = fs
	return fs
}

// fileTask is one file of a batch, the sets waiting for it and, once
// scanned, each regex's matching lines in it.
type fileTask struct {
	repo    Repo
	path    string
	refs    []setRef
	content []byte
	found   []regexLines
}

type setRef struct {
	fs *fileSet
	k  int32 // entry index in fs
}

// regexLines is one regex's matching units in one file.
type regexLines struct {
	rid   int32
	lines []int32
}

// batch reads each file the jobs' sets name once and fills their matches.
// heal chooses the heal sets (the second batch) instead of the file sets.
//
// Files are read one after the other in run order (so the byte budget
// stops at the same file every run) and scanned by a pool of goroutines;
// the results are merged in run order, so a report never depends on which
// goroutine was faster (TestParallelScanSame).
func (e *evaluator) batch(jobs []*legJob, heal bool) {
	pick := func(j *legJob) *fileSet {
		if heal {
			return j.heal
		}
		return j.set
	}
	var res []*Regex
	var sets []*fileSet
	for _, j := range jobs {
		fs := pick(j)
		if fs == nil || len(fs.entries) == 0 {
			continue
		}
		res = append(res, j.leg.Regex)
		if len(fs.jobs) == 0 {
			sets = append(sets, fs)
		}
		fs.jobs = append(fs.jobs, j)
	}
	defer func() {
		for _, fs := range sets {
			fs.jobs = nil
		}
	}()
	if len(res) == 0 {
		return
	}
	sc := newScanner(res)
	for _, j := range jobs {
		j.rid = sc.byRegex[j.leg.Regex]
	}
	tasks := map[string][]*fileTask{} // identity → by index in Files()
	for _, fs := range sets {
		var cur []*fileTask
		curID := "\x00none"
		for k := range fs.entries {
			m := &fs.entries[k]
			if id := m.repo.Identity(); id != curID { // entries come grouped by checkout
				curID = id
				if tasks[id] == nil {
					tasks[id] = make([]*fileTask, len(m.repo.Files()))
				}
				cur = tasks[id]
			}
			t := cur[m.idx]
			if t == nil {
				t = &fileTask{repo: m.repo, path: m.path}
				cur[m.idx] = t
			}
			t.refs = append(t.refs, setRef{fs, int32(k)})
		}
	}
	var ordered []*fileTask // checkouts in run order, files in path order
	for _, r := range e.all {
		for _, t := range tasks[r.Identity()] {
			if t != nil {
				ordered = append(ordered, t)
			}
		}
	}
	if len(e.contents) == 0 { // the first batch: one map of its size, not a doubling per file
		e.contents = make(map[fileKey]readResult, len(ordered))
	}
	e.scanTasks(sc, ordered)

	lines := make([][]int32, len(sc.regexes)) // this file's view of each regex's lines
	// Count the hits each job keeps, the loop below without the appends:
	// a wide leg gathers hundreds, and growing the slices one doubling
	// at a time was a visible share of a run.
	for _, j := range jobs {
		j.nhits, j.ntotal = 0, j.total
	}
	for _, t := range ordered {
		for _, f := range t.found {
			lines[f.rid] = f.lines
		}
		for _, ref := range t.refs {
			for _, j := range ref.fs.jobs {
				if l := lines[j.rid]; len(l) > 0 {
					if heal || j.keepAll || j.ntotal < maxMatches {
						j.nhits++
					}
					j.ntotal += len(l)
				}
			}
		}
		for _, f := range t.found {
			lines[f.rid] = nil
		}
	}
	for _, j := range jobs {
		switch {
		case j.nhits == 0:
		case heal:
			j.healed = slices.Grow(j.healed, j.nhits)
		default:
			j.matches = slices.Grow(j.matches, j.nhits)
		}
	}
	for _, t := range ordered {
		for _, f := range t.found {
			lines[f.rid] = f.lines
		}
		for _, ref := range t.refs {
			for _, j := range ref.fs.jobs {
				l := lines[j.rid]
				if len(l) == 0 {
					continue
				}
				if heal {
					j.healed = append(j.healed, hit{ref.k, l})
					continue
				}
				// A verdict needs the count; the report shows the first
				// maxMatches lines: a wide leg's later hits are not kept.
				if j.keepAll || j.total < maxMatches {
					j.matches = append(j.matches, hit{ref.k, l})
				}
				j.total += len(l)
			}
		}
		for _, f := range t.found {
			lines[f.rid] = nil
		}
		t.found, t.content = nil, nil
	}
}

// scanWorkers bounds a batch's scanning goroutines and filesPerWorker is
// the share of files worth one more goroutine; tests change both to run
// the same batch serially and in parallel.
var (
	scanWorkers    = func() int { return runtime.GOMAXPROCS(0) }
	filesPerWorker = 16
)

// scanTasks reads every task's file (in order, within the budget) and
// fills its found lines, scanning on up to GOMAXPROCS goroutines.
func (e *evaluator) scanTasks(sc *scanner, ordered []*fileTask) {
	workers := min(scanWorkers(), len(ordered)/filesPerWorker+1)
	if workers <= 1 {
		w := newScanWorker(sc)
		for _, t := range ordered {
			if e.load(t) {
				w.scan(t)
			}
		}
		return
	}
	queue := make(chan *fileTask, 4*workers)
	var wg sync.WaitGroup
	var crash any // a worker's panic, raised again here: Evaluate turns it into a finding
	var crashOnce sync.Once
	for i := 0; i < workers; i++ {
		wg.Add(1)
		go func() {
			defer wg.Done()
			defer func() {
				if r := recover(); r != nil {
					crashOnce.Do(func() { crash = r })
					for range queue { // drain so the reader never blocks
					}
				}
			}()
			w := newScanWorker(sc)
			for t := range queue {
				w.scan(t)
			}
		}()
	}
	for _, t := range ordered {
		if e.load(t) {
			queue <- t
		}
	}
	close(queue)
	wg.Wait()
	if crash != nil {
		panic(crash)
	}
}

// load reads a task's file for the scan; false when there is nothing to
// scan (unread by the budget, or tracked but unreadable: a member that
// never matches).
func (e *evaluator) load(t *fileTask) bool {
	content, ok, unread := e.read(t.repo, t.path)
	if unread {
		for _, ref := range t.refs {
			ref.fs.entries[ref.k].unread = true
		}
		return false
	}
	t.content = content
	return ok
}

// scanWorker is one goroutine's side of a batch: its scanner state and the
// scratch of one file's results.
type scanWorker struct {
	st      *scanState
	seen    []bool
	scratch [][]int32 // by regex, reused across files
	rids    []int32
	arena   []int32 // every file's lines, appended: one allocation per growth, not per file
}

func newScanWorker(sc *scanner) *scanWorker {
	return &scanWorker{st: sc.newState(), seen: make([]bool, len(sc.regexes)), scratch: make([][]int32, len(sc.regexes))}
}

// scan runs the regexes of every leg waiting for t over its content.
func (w *scanWorker) scan(t *fileTask) {
	w.rids = w.rids[:0]
	for _, ref := range t.refs {
		for _, j := range ref.fs.jobs {
			if !w.seen[j.rid] {
				w.seen[j.rid] = true
				w.rids = append(w.rids, j.rid)
			}
		}
	}
	w.st.scanFile(t.path, t.content, w.rids, func(rid int32, line int) { w.scratch[rid] = append(w.scratch[rid], int32(line)) })
	for _, rid := range w.rids { // one copy per regex and file, shared by its legs
		w.seen[rid] = false
		if len(w.scratch[rid]) > 0 {
			start := len(w.arena)
			w.arena = append(w.arena, w.scratch[rid]...)
			t.found = append(t.found, regexLines{rid, w.arena[start:len(w.arena):len(w.arena)]})
			w.scratch[rid] = w.scratch[rid][:0]
		}
	}
}

// read returns a file's bytes once per run (later asks are answered from
// memory), within the run's byte budget: once a file does not fit, it and
// every later file are unread, and the legs over them unevaluated.
func (e *evaluator) read(r Repo, p string) (content []byte, ok, unread bool) {
	key := fileKey{r.Identity(), p}
	if c, done := e.contents[key]; done {
		return c.content, c.ok, c.unread
	}
	c := readResult{}
	defer func() { e.contents[key] = c }()
	max := e.in.Options.MaxBytes
	if max > 0 {
		if e.budgetStop == "" {
			if sz, known := sizeOf(r, p); known && e.bytesRead+sz > max {
				e.budgetStop = r.Key() + ":" + p
			}
		}
		if e.budgetStop != "" {
			c.unread = true
			return nil, false, true
		}
	}
	c.content, c.ok = r.Read(p)
	if max > 0 && e.bytesRead+int64(len(c.content)) > max {
		e.budgetStop = r.Key() + ":" + p
		c = readResult{unread: true}
		return nil, false, true
	}
	e.bytesRead += int64(len(c.content))
	return c.content, c.ok, false
}

func sizeOf(r Repo, p string) (int64, bool) {
	if s, ok := r.(Sizer); ok {
		return s.Size(p)
	}
	return 0, false
}

type fileKey struct{ identity, path string }

type readResult struct {
	content    []byte
	ok, unread bool
}

// budgetDetail explains an unevaluated leg whose files the budget kept unread.
func (e *evaluator) budgetDetail(first string) string {
	return fmt.Sprintf("not evaluated — the byte budget (budget.max_bytes = %d) ran out before %s was read; never ok: raise budget.max_bytes in .clew.yml", e.in.Options.MaxBytes, first)
}
