package claims

import "fmt"

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
	set     []member // the surviving file set, filled by the first batch
	heal    []member // present legs without a match: every tracked file
	hint    string   // the untracked hint when set is empty
}

// member is one file a leg looks at.
type member struct {
	repo    Repo
	idx     int32 // in repo.Files()
	path    string
	matches []Match
	unread  bool // the byte budget ran out before this file was read
}

func (m member) label() string { return m.repo.Key() + ":" + m.path }

// prepare computes a leg's targets and surviving file set.
func (e *evaluator) prepare(l *Leg, pending string) *legJob {
	job := &legJob{leg: l, pending: pending}
	for _, r := range e.targets(l) {
		if r.OnDisk() {
			job.onDisk = append(job.onDisk, r)
		}
	}
	inc, _ := e.glob(l.Include) // globError has vetted it
	for _, r := range job.onDisk {
		files := r.Files()
		for _, i := range e.matchingFiles(r, inc) {
			if !e.excluded(l, r, files[i]) {
				job.set = append(job.set, member{repo: r, idx: i, path: files[i]})
			}
		}
	}
	if len(job.set) == 0 && len(job.onDisk) > 0 {
		job.hint = e.untrackedHint(l, inc, job.onDisk)
	}
	return job
}

// healSet lists every tracked file the moved rule may land in: all files of
// the leg's targets but `.multivac` and the leg's exclusions.
func (e *evaluator) healSet(job *legJob) []member {
	var out []member
	for _, r := range job.onDisk {
		for i, p := range r.Files() {
			if p == ".multivac" || len(p) > 9 && p[:10] == ".multivac/" || e.excluded(job.leg, r, p) {
				continue // the law row quotes its own pattern: never a heal target
			}
			out = append(out, member{repo: r, idx: int32(i), path: p})
		}
	}
	return out
}

// fileTask is one file of a batch and the members waiting for it.
type fileTask struct {
	repo Repo
	path string
	refs []memberRef
}

type memberRef struct {
	m   *member
	rid int32
}

// batch reads each file the jobs' members name once and fills their
// matches. pick chooses which members of a job (its set, or its heal set).
func (e *evaluator) batch(jobs []*legJob, pick func(*legJob) []member) {
	var res []*Regex
	for _, j := range jobs {
		if len(pick(j)) > 0 {
			res = append(res, j.leg.Regex)
		}
	}
	if len(res) == 0 {
		return
	}
	sc := newScanner(res)
	tasks := map[string][]*fileTask{} // identity → by index in Files()
	for _, j := range jobs {
		ms := pick(j)
		rid := sc.byRegex[j.leg.Regex]
		var cur []*fileTask
		curID := "\x00none"
		for k := range ms {
			m := &ms[k]
			if id := m.repo.Identity(); id != curID { // members come grouped by checkout
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
			t.refs = append(t.refs, memberRef{m, rid})
		}
	}
	lines := make([][]int, len(sc.regexes))
	seen := make([]bool, len(sc.regexes))
	var rids []int32
	for _, r := range e.all { // checkouts in run order, files in path order: a budget stops deterministically
		for _, t := range tasks[r.Identity()] {
			if t == nil {
				continue
			}
			content, ok, unread := e.read(t.repo, t.path)
			if unread {
				for _, ref := range t.refs {
					ref.m.unread = true
				}
				continue
			}
			if !ok {
				continue // tracked but unreadable: a member that never matches
			}
			rids = rids[:0]
			for _, ref := range t.refs {
				if !seen[ref.rid] {
					seen[ref.rid] = true
					rids = append(rids, ref.rid)
				}
			}
			sc.scanFile(t.path, content, rids, func(rid int32, line int) { lines[rid] = append(lines[rid], line) })
			for _, ref := range t.refs {
				for _, n := range lines[ref.rid] {
					ref.m.matches = append(ref.m.matches, Match{Repo: ref.m.repo.Key(), Path: t.path, Line: n})
				}
			}
			for _, rid := range rids {
				seen[rid], lines[rid] = false, lines[rid][:0]
			}
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
