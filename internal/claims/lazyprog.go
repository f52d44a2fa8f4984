package claims

import (
	"regexp"
	"sync"
)

// lazyProgram is a validated RE2 pattern compiled on first use. Shared by
// the scan's goroutines (a Regex is cached across laws), hence the Once.
type lazyProgram struct {
	src  string
	once sync.Once
	re   *regexp.Regexp
}

func (p *lazyProgram) get() *regexp.Regexp {
	p.once.Do(func() {
		// The pattern parsed without error when the leg was read, and
		// RE2's compile of a parsed pattern cannot fail.
		p.re = regexp.MustCompile(p.src)
	})
	return p.re
}
