package symbols

import (
	"context"
	"sync"
	"time"

	sitter "github.com/smacker/go-tree-sitter"
)

// A parse is bounded by the processor time it has used, not by the
// wall-clock time since it started: tree-sitter's own timeout
// (ts_parser_set_timeout_micros) reads a monotonic clock, so on a machine
// with many more runnable threads than cores a healthy parse of a large
// file was cut, and a fresh anchor became a repository-wide search (or a
// dumped answer differed from the same dump on an idle machine). Where the
// parsing thread's processor clock can be read (Linux), a watcher cancels
// the parse once that clock passes the budget; elsewhere tree-sitter's
// wall-clock timeout stays.

// parseBounded parses src with p within budget of the parsing thread's
// processor time.
func parseBounded(p *sitter.Parser, old *sitter.Tree, src []byte, budget time.Duration) (*sitter.Tree, error) {
	unlock, cpu, ok := lockParseThread()
	defer unlock()
	if !ok {
		p.SetOperationLimit(int(budget / time.Microsecond))
		return p.ParseCtx(context.Background(), old, src)
	}
	p.SetOperationLimit(0) // no wall-clock bound: the watcher's bound instead
	ctx := &stopContext{Context: context.Background(), done: make(chan struct{})}
	stop := watchProcessorTime(budget, cpu, ctx.stop)
	defer stop()
	return p.ParseCtx(ctx, old, src)
}

// stopContext is a context only the watcher ends. A context cancelled
// after the parse (a deferred cancel) would race the bindings' goroutine
// that copies the cancellation into the parser's flag: it may see the
// context done before it sees the parse complete, and leave the flag set
// on a parser that goes back to the free list, whose next parse then
// stops at once.
type stopContext struct {
	context.Context // Background: no deadline, no values
	done            chan struct{}
	once            sync.Once
}

func (c *stopContext) Done() <-chan struct{} { return c.done }

func (c *stopContext) Err() error {
	select {
	case <-c.done:
		return context.Canceled
	default:
		return nil
	}
}

func (c *stopContext) stop() { c.once.Do(func() { close(c.done) }) }

// minRecheck is the least wait between two reads of the parsing thread's
// clock: a starved parse near its budget is not polled in a tight loop.
const minRecheck = 10 * time.Millisecond

// watchProcessorTime calls cancel once used, read when budget has passed
// on the wall clock and again after each wait for the rest of the budget,
// reaches budget (or cannot be read: then the wall clock decides, as
// before). stop ends the watch; cancel is not called after stop returns.
func watchProcessorTime(budget time.Duration, used func() (time.Duration, bool), cancel func()) (stop func()) {
	var mu sync.Mutex
	stopped := false
	var t *time.Timer
	var check func()
	check = func() {
		mu.Lock()
		defer mu.Unlock()
		if stopped {
			return
		}
		spent, ok := used()
		if !ok || spent >= budget {
			stopped = true
			cancel()
			return
		}
		t = time.AfterFunc(max(budget-spent, minRecheck), check)
	}
	mu.Lock()
	t = time.AfterFunc(budget, check)
	mu.Unlock()
	return func() {
		mu.Lock()
		defer mu.Unlock()
		stopped = true
		t.Stop()
	}
}
