package lsp

import (
	"context"
	"fmt"
	"maps"
	"slices"
	"strings"
	"sync"
)

// MethodStatus is the server's status notification (server → client). It is
// sent after initialized, when indexing starts, and after every diagnosis
// pass, so an editor can show the state and the workspace's health without
// asking. Its params are StatusParams (documented in docs/server.md).
const MethodStatus = "clew/status"

// The states of StatusParams.State.
const (
	StatusStarting = "starting"
	StatusIndexing = "indexing"
	StatusReady    = "ready"
	StatusError    = "error"
)

// StatusParams are the params of MethodStatus. Anchors and Claims count the
// workspace's anchors and claims by state (as `verify --json` names them);
// ConfigErrors counts config/invalid diagnostics.
type StatusParams struct {
	State        string         `json:"state"`
	Version      string         `json:"version"`
	Message      string         `json:"message"`
	Anchors      map[string]int `json:"anchors"`
	Claims       map[string]int `json:"claims"`
	ConfigErrors int            `json:"configErrors"`
}

// StatusCounts is what a snapshot reports for the status line.
type StatusCounts struct {
	Anchors      map[string]int
	Claims       map[string]int
	ConfigErrors int
}

// statusSnapshot is implemented by snapshots that can count their anchors
// and claims (the workspace's); others report none.
type statusSnapshot interface {
	Status(ctx context.Context) (StatusCounts, error)
}

// statusState remembers a failure that must stay visible: a load error is
// not undone by the diagnosis passes that follow it.
type statusState struct {
	mu      sync.Mutex
	loadErr string
}

func (s *server) setLoadError(msg string) {
	s.status.mu.Lock()
	s.status.loadErr = msg
	s.status.mu.Unlock()
}

// sendStatus notifies the client of a state with a one-line message.
func (s *server) sendStatus(state, message string, counts StatusCounts) {
	p := &StatusParams{State: state, Version: s.cfg.version, Message: message,
		Anchors: counts.Anchors, Claims: counts.Claims, ConfigErrors: counts.ConfigErrors}
	if p.Anchors == nil {
		p.Anchors = map[string]int{}
	}
	if p.Claims == nil {
		p.Claims = map[string]int{}
	}
	if err := s.conn.Notify(s.ctx, MethodStatus, p); err != nil {
		s.logger.Debug("clew/status not sent", "error", err)
	}
}

// statusAfterPass is the status of a finished diagnosis pass: ready with
// the health in words, or error when indexing failed or the counts could
// not be taken.
func (s *server) statusAfterPass(ctx context.Context, snap Snapshot) (string, string, StatusCounts) {
	var counts StatusCounts
	if ss, ok := snap.(statusSnapshot); ok {
		c, err := ss.Status(ctx)
		if err != nil {
			return StatusError, "could not count anchors: " + err.Error(), counts
		}
		counts = c
	}
	s.status.mu.Lock()
	loadErr := s.status.loadErr
	s.status.mu.Unlock()
	if loadErr != "" {
		return StatusError, loadErr, counts
	}
	return StatusReady, healthLine(counts), counts
}

// healthLine says the counts in one line, in verify's order: "5 anchors:
// 3 fresh · 1 stale · 1 lost; 2 claims: 2 ok; 1 config error".
func healthLine(c StatusCounts) string {
	var parts []string
	if n := total(c.Anchors); n > 0 {
		parts = append(parts, fmt.Sprintf("%s: %s", plural(n, "anchor"), byState(c.Anchors)))
	} else {
		parts = append(parts, "no anchors")
	}
	if n := total(c.Claims); n > 0 {
		parts = append(parts, fmt.Sprintf("%s: %s", plural(n, "claim"), byState(c.Claims)))
	}
	if c.ConfigErrors > 0 {
		parts = append(parts, plural(c.ConfigErrors, "config error"))
	}
	return strings.Join(parts, "; ")
}

func total(m map[string]int) int {
	n := 0
	for _, v := range m {
		n += v
	}
	return n
}

// stateOrder is the order verify prints states in, best first; a state
// not listed follows in name order.
var stateOrder = []string{"fresh", "stale", "moved-renamed", "lost", "unpinned", "unchecked",
	"ok", "pending", "unevaluated", "moved", "vacuous", "broken", "retired"}

func byState(m map[string]int) string {
	var out []string
	for _, k := range stateOrder {
		if m[k] > 0 {
			out = append(out, fmt.Sprintf("%d %s", m[k], k))
		}
	}
	for _, k := range slices.Sorted(maps.Keys(m)) {
		if !slices.Contains(stateOrder, k) && m[k] > 0 {
			out = append(out, fmt.Sprintf("%d %s", m[k], k))
		}
	}
	return strings.Join(out, " · ")
}

func plural(n int, word string) string {
	if n == 1 {
		return "1 " + word
	}
	return fmt.Sprintf("%d %ss", n, word)
}
