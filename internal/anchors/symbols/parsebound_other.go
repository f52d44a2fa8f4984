//go:build !linux

package symbols

import "time"

// lockParseThread: no thread processor clock is read here; tree-sitter's
// wall-clock timeout bounds the parse.
func lockParseThread() (unlock func(), used func() (time.Duration, bool), ok bool) {
	return func() {}, nil, false
}
