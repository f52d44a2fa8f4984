package workspace

import (
	"sync"
	"time"
)

// Budget limit names, as reported in `budget.limit`.
const (
	LimitFiles = "files"
	LimitBytes = "bytes"
	LimitTime  = "time"
)

// spender enforces one check's budget across both passes. The first limit
// hit is recorded and every later read is refused, so the report can say
// exactly which limit stopped the check.
type spender struct {
	mu    sync.Mutex
	b     Budget
	start time.Time
	files int
	bytes int64
	limit string
	// clock, when set, is what max_ms bounds (CheckOptions.Clock), read
	// from clock0 on; else wall-clock time since start.
	clock  func() time.Duration
	clock0 time.Duration
}

func newSpender(b Budget, clock func() time.Duration) *spender {
	s := &spender{b: b, start: time.Now(), clock: clock}
	if clock != nil {
		s.clock0 = clock()
	}
	return s
}

// spent is the time max_ms bounds.
func (s *spender) spent() time.Duration {
	if s.clock != nil {
		return s.clock() - s.clock0
	}
	return time.Since(s.start)
}

// allow reports whether one more file may be read.
//
// The clock is read before the lock is taken: verify's clock is a system
// call (the process's processor time), and every reader asks per file —
// read under the lock, it made the readers queue behind one another.
func (s *spender) allow() bool {
	late := s.spent().Milliseconds() >= s.b.MaxMS
	s.mu.Lock()
	defer s.mu.Unlock()
	if s.limit != "" {
		return false
	}
	switch {
	case s.files >= s.b.MaxFiles:
		s.limit = LimitFiles
	case s.bytes >= s.b.MaxBytes:
		s.limit = LimitBytes
	case late:
		s.limit = LimitTime
	}
	return s.limit == ""
}

// allowScan reports whether one more file may be read only to be scanned
// by a prefilter: no limit was hit and there is time left.
// The clock is read outside the lock, as in allow.
func (s *spender) allowScan() bool {
	late := s.spent().Milliseconds() >= s.b.MaxMS
	s.mu.Lock()
	defer s.mu.Unlock()
	if s.limit == "" && late {
		s.limit = LimitTime
	}
	return s.limit == ""
}

func (s *spender) spend(n int) {
	s.mu.Lock()
	s.files++
	s.bytes += int64(n)
	s.mu.Unlock()
}

// read is what was read so far.
func (s *spender) read() (files int, bytes int64) {
	s.mu.Lock()
	defer s.mu.Unlock()
	return s.files, s.bytes
}

// spendN counts files already known to fit (a memoised pass's).
func (s *spender) spendN(files int, bytes int64) {
	s.mu.Lock()
	s.files += files
	s.bytes += bytes
	s.mu.Unlock()
}

func (s *spender) report() BudgetReport {
	s.mu.Lock()
	defer s.mu.Unlock()
	r := BudgetReport{FilesRead: s.files, BytesRead: s.bytes, ElapsedMS: time.Since(s.start).Milliseconds()}
	if s.limit != "" {
		l := s.limit
		r.Limit = &l
	}
	return r
}

func (s *spender) stopped() bool {
	s.mu.Lock()
	defer s.mu.Unlock()
	return s.limit != ""
}
