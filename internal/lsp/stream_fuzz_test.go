package lsp

import (
	"bytes"
	"context"
	"errors"
	"io"
	"log/slog"
	"testing"

	"go.lsp.dev/jsonrpc2"
)

// rw feeds fixed input and collects output.
type rw struct {
	in  *bytes.Reader
	out bytes.Buffer
}

func (r *rw) Read(p []byte) (int, error)  { return r.in.Read(p) }
func (r *rw) Write(p []byte) (int, error) { return r.out.Write(p) }
func (r *rw) Close() error                { return nil }

// FuzzStream feeds arbitrary bytes to the reader: it must never panic, every
// frame it returns must decode, and a valid frame after the garbage must
// still come through.
func FuzzStream(f *testing.F) {
	valid := frame(`{"jsonrpc":"2.0","id":1,"method":"m"}`)
	f.Add([]byte(valid))
	f.Add([]byte("Content-Length: abc\r\n\r\n{}"))
	f.Add([]byte(`{"a":1}Content-Length: 3`))
	f.Add([]byte("Content-Length: 5\r\n\r\n[1,2]"))
	f.Add([]byte("\r\n\r\nX: y\r\n\r\n"))
	f.Fuzz(func(t *testing.T, garbage []byte) {
		input := append(append([]byte{}, garbage...), []byte("\r\n\r\n"+valid)...)
		conn := &rw{in: bytes.NewReader(input)}
		s := newStream(conn, slog.New(slog.DiscardHandler))
		sawValid := false
		for i := 0; i < 1000; i++ {
			body, _, err := s.ReadFrame(context.Background())
			if err != nil {
				if !errors.Is(err, io.EOF) && !errors.Is(err, io.ErrUnexpectedEOF) {
					t.Fatalf("unexpected error %v", err)
				}
				break
			}
			if len(bytes.TrimSpace(body)) > 0 && body[0] != '[' {
				if _, err := jsonrpc2.DecodeMessage(body); err != nil {
					t.Fatalf("returned an undecodable frame %q: %v", body, err)
				}
			}
			if string(body) == `{"jsonrpc":"2.0","id":1,"method":"m"}` {
				sawValid = true
			}
		}
		// Garbage may legitimately swallow the next frame (a Content-Length
		// that covers it); one line that claims no length must not.
		oneLine := !bytes.ContainsAny(garbage, "\r\n")
		claims := bytes.Contains(bytes.ToLower(garbage), []byte("content-length"))
		if oneLine && !claims && !sawValid {
			t.Fatalf("valid frame lost after %q", garbage)
		}
	})
}
