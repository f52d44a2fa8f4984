//go:build linux

package symbols

import (
	"bytes"
	"fmt"
	"testing"
	"time"

	sitter "github.com/smacker/go-tree-sitter"
	"golang.org/x/sys/unix"
)

// The clock lockParseThread reads is the locked thread's own processor
// time, read from another goroutine: while it sleeps (and another thread
// spins) it stays put; while it spins it grows.
func TestParseThreadClockIsProcessorTime(t *testing.T) {
	clock := make(chan func() (time.Duration, bool))
	slept, spin, spun := make(chan struct{}), make(chan struct{}), make(chan struct{})
	go func() {
		unlock, used, ok := lockParseThread()
		defer unlock()
		if !ok {
			close(clock)
			return
		}
		clock <- used
		time.Sleep(150 * time.Millisecond)
		slept <- struct{}{}
		<-spin // the reader has read the clock after the sleep
		// Spin for 30 ms of this thread's own processor time (read by the
		// thread itself, CLOCK_THREAD_CPUTIME_ID), however long a loaded
		// machine makes that on the wall clock.
		self := func() time.Duration {
			var ts unix.Timespec
			unix.ClockGettime(unix.CLOCK_THREAD_CPUTIME_ID, &ts)
			return time.Duration(ts.Nano())
		}
		for end := self() + 30*time.Millisecond; self() < end; {
		}
		spun <- struct{}{}
	}()
	used, ok := <-clock
	if !ok {
		t.Fatal("no thread processor clock on Linux")
	}
	before, _ := used()
	stopSpin := make(chan struct{})
	go func() { // another thread busy while the locked one sleeps
		for {
			select {
			case <-stopSpin:
				return
			default:
			}
		}
	}()
	<-slept
	close(stopSpin)
	afterSleep, ok1 := used()
	close(spin)
	<-spun
	afterSpin, ok2 := used()
	if !ok1 || !ok2 {
		t.Fatal("the locked thread's clock could not be read")
	}
	if d := afterSleep - before; d > 50*time.Millisecond {
		t.Errorf("a sleeping thread used %v of processor time in 150 ms (another thread's time counted?)", d)
	}
	if d := afterSpin - afterSleep; d < 25*time.Millisecond {
		t.Errorf("a thread that spun for 30 ms of its own processor time shows %v", d)
	}
}

// A parse that needs more processor time than its budget is cut; the same
// parse within a budget it fits completes.
func TestParseBoundedCutsAtTheBudget(t *testing.T) {
	var src bytes.Buffer
	src.WriteString("package big\n")
	for i := range 20000 {
		fmt.Fprintf(&src, "func f%d(a, b int) int { if a > b { return a - b }; return b*%d + a }\n", i, i)
	}
	parse := func(budget time.Duration) (*sitter.Tree, error) {
		p := sitter.NewParser()
		defer p.Close()
		p.SetLanguage(grammar(Go))
		return parseBounded(p, nil, src.Bytes(), budget)
	}
	if tree, err := parse(time.Millisecond); err == nil || tree != nil {
		t.Fatalf("a %d-byte parse within 1 ms of processor time: tree %v, err %v", src.Len(), tree != nil, err)
	}
	tree, err := parse(time.Minute)
	if err != nil || tree == nil {
		t.Fatalf("the same parse within a minute: %v", err)
	}
	tree.Close()
}
