package lsp

import (
	"context"
	"fmt"
	"sync"

	"github.com/clew-lsp/clew-lsp/internal/workspace"
)

// reportCache memoises one Check per folder snapshot. A snapshot is
// immutable, so its report is too: the diagnosis pass and every query on
// the same snapshot (code actions, lenses, hovers, …) share one check
// instead of each running their own.
//
// A check runs under the context of the caller that started it. When that
// caller is cancelled (a newer edit superseded its diagnosis pass) the
// entry is dropped, and whoever else waits for it starts again under its
// own context.
type reportCache struct {
	mu      sync.Mutex // guards the fields below
	entries map[*workspace.Snapshot]*reportEntry
	order   []*workspace.Snapshot // oldest first, for eviction
}

type reportEntry struct {
	done chan struct{} // closed when rep/err are set
	rep  *workspace.Report
	err  error
}

// maxCachedReports bounds the memo. Only the newest snapshot of each folder
// matters for long; older ones serve requests still in flight.
const maxCachedReports = 8

func newReportCache() *reportCache {
	return &reportCache{entries: map[*workspace.Snapshot]*reportEntry{}}
}

// get returns the report of snap, checking it at most once however many
// callers ask concurrently.
func (c *reportCache) get(ctx context.Context, snap *workspace.Snapshot) (*workspace.Report, error) {
	for {
		c.mu.Lock()
		e, ok := c.entries[snap]
		if !ok {
			e = &reportEntry{done: make(chan struct{})}
			c.entries[snap] = e
			c.order = append(c.order, snap)
			for len(c.order) > maxCachedReports {
				delete(c.entries, c.order[0])
				c.order = c.order[1:]
			}
			c.mu.Unlock()
			return c.compute(ctx, snap, e)
		}
		c.mu.Unlock()
		select {
		case <-e.done:
			if e.err == nil {
				return e.rep, nil
			}
			if err := ctx.Err(); err != nil {
				return nil, err
			}
			// The caller that ran the check was cancelled, not us: run it
			// again under our own context (the failed entry is gone).
		case <-ctx.Done():
			return nil, ctx.Err()
		}
	}
}

func (c *reportCache) compute(ctx context.Context, snap *workspace.Snapshot, e *reportEntry) (rep *workspace.Report, err error) {
	defer func() {
		if p := recover(); p != nil {
			e.err = fmt.Errorf("check panicked: %v", p)
			c.drop(snap, e)
			close(e.done)
			panic(p) // the caller's recovery logs it and answers with an error
		}
	}()
	e.rep, e.err = snap.Check(ctx, workspace.CheckOptions{})
	if e.err != nil {
		c.drop(snap, e)
	}
	close(e.done)
	return e.rep, e.err
}

func (c *reportCache) drop(snap *workspace.Snapshot, e *reportEntry) {
	c.mu.Lock()
	defer c.mu.Unlock()
	if c.entries[snap] != e {
		return
	}
	delete(c.entries, snap)
	for i, s := range c.order {
		if s == snap {
			c.order = append(c.order[:i:i], c.order[i+1:]...)
			break
		}
	}
}
