package lsp

import (
	"context"
	"fmt"
	"strings"
	"sync/atomic"
	"testing"
	"time"

	"go.lsp.dev/uri"

	"github.com/clew-lsp/clew-lsp/internal/lsp/lsptest"
)

// publishesSince counts publishDiagnostics per URI after the first n.
func publishesSince(st lsptest.State, n int) map[uri.URI]int {
	out := make(map[uri.URI]int)
	for _, p := range st.Publishes[n:] {
		out[p.URI]++
	}
	return out
}

func TestDiagnosticsClearedWhenNoneLeft(t *testing.T) {
	e := newEnv(t, lsptest.Options{})
	e.start()
	doc := e.path("a.md")
	must(t, e.client.Open(e.ctx, doc, "markdown", "BAD\nBAD\n"))
	e.settle()
	if n := len(e.client.Diagnostics(doc)); n != 2 {
		t.Fatalf("got %d diagnostics, want 2", n)
	}
	must(t, e.client.Change(e.ctx, doc, lsptest.Replace(0, 0, 2, 0, "fine\n")))
	st := e.settle()
	p, ok := st.Diagnostics[uriOf(doc)]
	if !ok || len(p.Diagnostics) != 0 {
		t.Fatalf("diagnostics not cleared: %+v", p)
	}
	if p.Diagnostics == nil {
		t.Error("cleared diagnostics must be [] on the wire, not null")
	}
	// Nothing left to clear: a further edit publishes nothing.
	n := len(st.Publishes)
	must(t, e.client.Change(e.ctx, doc, lsptest.Whole("still fine")))
	st = e.settle()
	if got := publishesSince(st, n); len(got) != 0 {
		t.Errorf("republished a clean file: %v", got)
	}
}

func TestOnlyChangedDocumentsRepublished(t *testing.T) {
	e := newEnv(t, lsptest.Options{})
	e.start()
	a, b := e.path("a.md"), e.path("b.md")
	must(t, e.client.Open(e.ctx, a, "markdown", "BAD"))
	must(t, e.client.Open(e.ctx, b, "markdown", "x BAD"))
	st := e.settle()
	if len(st.Diagnostics) != 2 {
		t.Fatalf("want diagnostics for two files:\n%s", describe(st))
	}

	// Change a's diagnostics; b's stay the same and must not be resent.
	n := len(st.Publishes)
	must(t, e.client.Change(e.ctx, a, lsptest.Replace(0, 0, 0, 0, "  ")))
	st = e.settle()
	if got := publishesSince(st, n); got[uriOf(a)] != 1 || got[uriOf(b)] != 0 {
		t.Errorf("publishes after editing a: %v\n%s", got, describe(st))
	}

	// An edit that leaves every diagnostic where it was publishes nothing,
	// but the pass is still announced.
	n, passes := len(st.Publishes), len(st.Diagnosed)
	must(t, e.client.Change(e.ctx, a, lsptest.Replace(0, 5, 0, 5, " tail")))
	st = e.settle()
	if got := publishesSince(st, n); len(got) != 0 {
		t.Errorf("unchanged diagnostics republished: %v", got)
	}
	if len(st.Diagnosed) <= passes {
		t.Error("no $/clew/diagnosed for a pass that published nothing")
	}
}

// TestBurstPublishesOnlyNewest: while diagnosis is slow, a burst of edits
// must end with diagnostics of the last snapshot only; every superseded pass
// is cancelled and publishes nothing.
func TestBurstPublishesOnlyNewest(t *testing.T) {
	e := newEnv(t, lsptest.Options{})
	gate := make(chan struct{})
	var cancelled atomic.Int32
	e.backend.rule = func(id uint64, _ string, text []byte) []Diagnostic {
		return []Diagnostic{{Start: 0, End: 1, Severity: SeverityError, Message: fmt.Sprintf("snapshot %d", id)}}
	}
	e.backend.onDiag = func(ctx context.Context, id uint64) error {
		select {
		case <-gate:
			return nil
		case <-ctx.Done():
			cancelled.Add(1)
			return ctx.Err()
		}
	}
	close(gate) // let the first pass (after indexing) through
	e.start()
	doc := e.path("a.md")
	must(t, e.client.Open(e.ctx, doc, "markdown", "x"))
	st := e.settle()
	before, passes := len(st.Publishes), len(st.Diagnosed)

	gate = make(chan struct{})
	for i := 0; i < 30; i++ {
		must(t, e.client.Change(e.ctx, doc, lsptest.Whole(strings.Repeat("x", i+2))))
	}
	must(t, e.client.Sync(e.ctx))
	final := e.backend.lastID()
	close(gate)
	st = e.settle()

	for _, id := range st.Diagnosed[passes:] {
		if id != final {
			t.Errorf("a pass over superseded snapshot %d published (final %d)", id, final)
		}
	}
	for _, p := range st.Publishes[before:] {
		if msg := fmt.Sprint(p.Diagnostics[0].Message); msg != fmt.Sprintf("snapshot %d", final) {
			t.Errorf("published %q, want only snapshot %d", msg, final)
		}
	}
	if got := len(st.Publishes) - before; got != 1 {
		t.Errorf("%d publishes for the burst, want 1", got)
	}
	t.Logf("burst of 30 edits: %d passes cancelled, 1 published", cancelled.Load())
}

// TestNoDiagnosticsBeforeIndexing: a half-loaded workspace would report
// anchors as lost; the first pass waits for Load.
func TestNoDiagnosticsBeforeIndexing(t *testing.T) {
	e := newEnv(t, lsptest.Options{})
	release := make(chan struct{})
	e.backend.onLoad = func(ctx context.Context, p Progress) error {
		<-release
		return nil
	}
	_, err := e.client.Initialize(e.ctx, e.root)
	must(t, err)
	doc := e.path("a.md")
	must(t, e.client.Open(e.ctx, doc, "markdown", "BAD"))
	must(t, e.client.Sync(e.ctx))
	if st := e.client.State(); len(st.Publishes) != 0 || len(st.Diagnosed) != 0 {
		t.Fatalf("published before indexing finished: %+v", st.Publishes)
	}
	close(release)
	e.settle()
	if n := len(e.client.Diagnostics(doc)); n != 1 {
		t.Errorf("after indexing: %d diagnostics, want 1", n)
	}
}

func TestDiagnosticFieldsAndClamping(t *testing.T) {
	e := newEnv(t, lsptest.Options{})
	e.backend.rule = func(id uint64, _ string, text []byte) []Diagnostic {
		return []Diagnostic{
			{Start: 2, End: 4, Severity: SeverityError, Code: "anchor/stale", CodeHref: "https://example.invalid/docs#anchor-stale", Source: "clew-anchors", Message: "stale"},
			{Start: -5, End: 999, Severity: Severity(0), Message: "clamped"},
		}
	}
	e.start()
	doc := e.path("a.md")
	must(t, e.client.Open(e.ctx, doc, "markdown", "ab\ncd"))
	e.settle()
	d := e.client.Diagnostics(doc)
	if len(d) != 2 {
		t.Fatalf("got %d diagnostics", len(d))
	}
	if d[0].Range.Start.Line != 0 || d[0].Range.Start.Character != 2 || d[0].Range.End.Line != 1 || d[0].Range.End.Character != 1 {
		t.Errorf("range = %+v", d[0].Range)
	}
	if string(d[0].CodeDescription.Href) != "https://example.invalid/docs#anchor-stale" {
		t.Errorf("codeDescription = %+v", d[0].CodeDescription)
	}
	if src, _ := d[0].Source.Get(); src != "clew-anchors" {
		t.Errorf("source = %q", src)
	}
	if d[1].Range.Start.Character != 0 || d[1].Range.End.Line != 1 || d[1].Range.End.Character != 2 {
		t.Errorf("clamped range = %+v", d[1].Range)
	}
	if d[1].Severity != 3 {
		t.Errorf("unknown severity became %d, want Information (3)", d[1].Severity)
	}
}

// TestRunningPassIsCancelledBySupersedingEdit: a pass already computing
// when an edit arrives is cancelled, and only the newer one publishes.
func TestRunningPassIsCancelledBySupersedingEdit(t *testing.T) {
	e := newEnv(t, lsptest.Options{})
	e.backend.rule = func(id uint64, _ string, text []byte) []Diagnostic {
		return []Diagnostic{{Start: 0, End: 1, Message: fmt.Sprintf("snapshot %d", id)}}
	}
	started := make(chan uint64, 10)
	cancelled := make(chan uint64, 10)
	var block atomic.Bool
	e.backend.onDiag = func(ctx context.Context, id uint64) error {
		if !block.Load() {
			return nil
		}
		started <- id
		<-ctx.Done()
		cancelled <- id
		return ctx.Err()
	}
	e.start()
	doc := e.path("a.md")
	must(t, e.client.Open(e.ctx, doc, "markdown", "x"))
	st := e.settle()
	before := len(st.Publishes)

	block.Store(true)
	must(t, e.client.Change(e.ctx, doc, lsptest.Whole("xx")))
	var first uint64
	select {
	case first = <-started:
	case <-e.ctx.Done():
		t.Fatal("pass never started")
	}
	block.Store(false)
	must(t, e.client.Change(e.ctx, doc, lsptest.Whole("xxx")))
	select {
	case id := <-cancelled:
		if id != first {
			t.Errorf("cancelled pass %d, want %d", id, first)
		}
	case <-e.ctx.Done():
		t.Fatal("running pass was not cancelled by the newer edit")
	}
	st = e.settle()
	final := e.backend.lastID()
	if got := st.Publishes[before:]; len(got) != 1 || fmt.Sprint(got[0].Diagnostics[0].Message) != fmt.Sprintf("snapshot %d", final) {
		t.Errorf("publishes after the edits: %+v, want one for snapshot %d", got, final)
	}
}

// TestEditRightAfterPublishIsDiagnosedAtOnce: an edit that finds no pass
// computing and none pending is diagnosed at once, however soon after the
// previous one. The debounce is an hour here, so an edit that waited for
// it would never be published within the test's deadline.
func TestEditRightAfterPublishIsDiagnosedAtOnce(t *testing.T) {
	e := newEnv(t, lsptest.Options{}, WithDiagnosticsDelay(time.Hour))
	e.backend.rule = func(id uint64, _ string, text []byte) []Diagnostic {
		return []Diagnostic{{Start: 0, End: 1, Message: fmt.Sprintf("snapshot %d", id)}}
	}
	e.start()
	e.settle() // the pass after indexing
	doc := e.path("a.md")
	must(t, e.client.Open(e.ctx, doc, "markdown", "x"))
	e.settle()
	for i := range 20 {
		// Each change is sent the moment the previous one's pass is
		// announced: well within the debounce of the one before.
		must(t, e.client.Change(e.ctx, doc, lsptest.Whole(strings.Repeat("x", i+2))))
		st := e.settle()
		want := fmt.Sprintf("snapshot %d", e.backend.lastID())
		if got := st.Diagnostics[uriOf(doc)]; len(got.Diagnostics) != 1 || fmt.Sprint(got.Diagnostics[0].Message) != want {
			t.Fatalf("edit %d: published %+v, want %q", i, got.Diagnostics, want)
		}
	}
}

// TestDebounceOnlyWhileBusy: the wait is the debounce exactly when a pass
// is computing or a timer is pending (the change is part of a burst), and
// nothing otherwise.
func TestDebounceOnlyWhileBusy(t *testing.T) {
	const d = 25 * time.Millisecond
	for _, c := range []struct {
		running int
		pending bool
		want    time.Duration
	}{
		{0, false, 0},
		{1, false, d},
		{0, true, d},
		{2, true, d},
	} {
		if got := debounce(c.running, c.pending, d); got != c.want {
			t.Errorf("debounce(running %d, pending %v) = %v, want %v", c.running, c.pending, got, c.want)
		}
	}
}
