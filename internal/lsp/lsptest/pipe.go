package lsptest

import (
	"bytes"
	"io"
	"sync"
)

// pipe is one direction of an in-memory connection whose writes never
// block. net.Pipe has no buffer at all, so a server writing a reply while
// the client writes a reply to the server's own request would deadlock both
// read loops; editors read asynchronously and OS pipes buffer, so tests
// should not be stricter than reality.
type pipe struct {
	mu     sync.Mutex
	cond   *sync.Cond
	buf    bytes.Buffer
	closed bool
}

func newPipe() *pipe {
	p := &pipe{}
	p.cond = sync.NewCond(&p.mu)
	return p
}

func (p *pipe) Read(b []byte) (int, error) {
	p.mu.Lock()
	defer p.mu.Unlock()
	for p.buf.Len() == 0 && !p.closed {
		p.cond.Wait()
	}
	if p.buf.Len() == 0 {
		return 0, io.EOF
	}
	return p.buf.Read(b)
}

func (p *pipe) Write(b []byte) (int, error) {
	p.mu.Lock()
	defer p.mu.Unlock()
	if p.closed {
		return 0, io.ErrClosedPipe
	}
	p.buf.Write(b)
	p.cond.Broadcast()
	return len(b), nil
}

func (p *pipe) close() {
	p.mu.Lock()
	p.closed = true
	p.cond.Broadcast()
	p.mu.Unlock()
}

// end is one side of a duplex connection.
type end struct {
	r, w *pipe
}

func (e *end) Read(b []byte) (int, error)  { return e.r.Read(b) }
func (e *end) Write(b []byte) (int, error) { return e.w.Write(b) }

// Close ends both directions, as closing a socket does.
func (e *end) Close() error {
	e.r.close()
	e.w.close()
	return nil
}

// duplex returns the two ends of an in-memory connection.
func duplex() (a, b io.ReadWriteCloser) {
	ab, ba := newPipe(), newPipe()
	return &end{r: ba, w: ab}, &end{r: ab, w: ba}
}
