package lsp

import (
	"bufio"
	"bytes"
	"context"
	"encoding/json"
	"errors"
	"io"
	"log/slog"
	"strconv"

	"go.lsp.dev/jsonrpc2"
)

// stream is a jsonrpc2.Stream with LSP header framing that survives bad
// input. jsonrpc2 v1.0.1 ends the connection on the first frame it cannot
// decode (a bad Content-Length or a body that is not JSON), which would kill
// the editor's session over one buggy message. This reader answers such a
// frame with a JSON-RPC error (-32700 parse error, or -32600 for valid JSON
// that is not a request) and resynchronises on the next header.
//
// It implements ReadFrame/WriteFrame, the methods jsonrpc2 looks for to use
// its zero-copy frame path, so the connection behaves as with its own framer.
// Writes go through jsonrpc2's header stream over the same connection.
type stream struct {
	rwc    io.ReadWriteCloser
	in     *bufio.Reader
	out    jsonrpc2.Stream // write side only; its reader is never used
	logger *slog.Logger
	body   bytes.Buffer // reused frame buffer; valid until the next read

	// resyncing is set after a malformed header until a well-formed header
	// block is read, so one bad frame gets one error reply, not one per line.
	resyncing bool
}

// frameWriter is the raw-frame write method of jsonrpc2's header stream.
type frameWriter interface {
	WriteFrame(ctx context.Context, data []byte) (int64, error)
}

// maxContentLength bounds one frame; jsonrpc2 uses the same limit.
const maxContentLength = 1 << 30

var errBadHeader = errors.New("malformed header")

func newStream(rwc io.ReadWriteCloser, logger *slog.Logger) *stream {
	return &stream{
		rwc:    rwc,
		in:     bufio.NewReader(rwc),
		out:    jsonrpc2.NewHeaderStream(rwc),
		logger: logger,
	}
}

// ReadFrame returns the body of the next well-formed message. Malformed
// frames are answered and skipped here and never reach the connection.
func (s *stream) ReadFrame(ctx context.Context) ([]byte, int64, error) {
	for {
		if err := ctx.Err(); err != nil {
			return nil, 0, err
		}
		length, headerLen, err := s.readHeader(ctx)
		if err != nil {
			return nil, 0, err
		}
		// The buffer grows as bytes arrive, so a header that merely claims a
		// huge length costs nothing until the body really comes.
		s.body.Reset()
		if _, err := io.CopyN(&s.body, s.in, int64(length)); err != nil {
			if err == io.EOF {
				err = io.ErrUnexpectedEOF
			}
			return nil, 0, err
		}
		body := s.body.Bytes()
		if code, id, msg := validate(body); code != 0 {
			s.reject(ctx, id, code, msg)
			continue
		}
		return body, int64(headerLen + length), nil
	}
}

// readHeader reads header lines up to the blank line and returns the
// Content-Length. A block that is not a valid header is answered with a
// parse error and skipped; so is any garbage before the next header.
func (s *stream) readHeader(ctx context.Context) (length, consumed int, err error) {
	have, lines := false, 0
	reset := func(reason string) {
		if !s.resyncing {
			s.reject(ctx, jsonrpc2.ID{}, jsonrpc2.ParseError, "invalid message header: "+reason)
			s.resyncing = true
		}
		have, lines, length, consumed = false, 0, 0, 0
	}
	var pending []byte // a header line found glued to the end of garbage
	for {
		var line []byte
		if pending != nil {
			line, pending = pending, nil
		} else {
			line, err = s.in.ReadBytes('\n')
			if err != nil {
				if err == io.EOF && (lines > 0 || len(line) > 0) {
					err = io.ErrUnexpectedEOF
				}
				return 0, 0, err
			}
		}
		consumed += len(line)
		trimmed := bytes.TrimRight(line, "\r\n")
		if len(trimmed) == 0 {
			if lines == 0 {
				continue // stray blank line between frames
			}
			if !have {
				reset("no Content-Length")
				continue
			}
			s.resyncing = false
			return length, consumed, nil
		}
		lines++
		name, value, ok := splitHeader(trimmed)
		if !ok {
			// Not a header line: often a body sent without a header, glued to
			// the next frame's header. Recover that header if it is there.
			if i := lastIndexFold(trimmed, "content-length:"); i > 0 {
				pending = line[i:]
			}
			reset("not a header field")
			continue
		}
		if !bytes.EqualFold(name, []byte("Content-Length")) {
			continue // Content-Type and unknown fields are allowed
		}
		n, perr := strconv.Atoi(string(value))
		if perr != nil || n <= 0 || n > maxContentLength {
			reset("bad Content-Length " + strconv.Quote(string(value)))
			continue
		}
		length, have = n, true
	}
}

// splitHeader splits "Name: value". Names are HTTP tokens, which rules out
// JSON and most other garbage.
func splitHeader(line []byte) (name, value []byte, ok bool) {
	i := bytes.IndexByte(line, ':')
	if i <= 0 {
		return nil, nil, false
	}
	for _, c := range line[:i] {
		if !(c == '-' || c >= '0' && c <= '9' || c >= 'A' && c <= 'Z' || c >= 'a' && c <= 'z') {
			return nil, nil, false
		}
	}
	return line[:i], bytes.TrimSpace(line[i+1:]), true
}

func lastIndexFold(s []byte, lowerSub string) int {
	return bytes.LastIndex(bytes.ToLower(s), []byte(lowerSub))
}

// validate checks that body is one JSON-RPC message jsonrpc2 can decode. It
// returns code 0 when it can, else the error to answer with and, if the
// body carried one, the request id to answer to.
func validate(body []byte) (jsonrpc2.Code, jsonrpc2.ID, string) {
	if !json.Valid(body) {
		return jsonrpc2.ParseError, jsonrpc2.ID{}, "parse error: message body is not valid JSON"
	}
	if t := bytes.TrimLeft(body, " \t\r\n"); len(t) > 0 && t[0] == '[' {
		return 0, jsonrpc2.ID{}, "" // batches: jsonrpc2 answers bad members itself
	}
	if _, err := jsonrpc2.DecodeMessage(body); err != nil {
		return jsonrpc2.InvalidRequest, requestID(body), "invalid request: " + err.Error()
	}
	return 0, jsonrpc2.ID{}, ""
}

// requestID extracts a usable id from a JSON object, or the null id.
func requestID(body []byte) jsonrpc2.ID {
	var m struct {
		ID json.RawMessage `json:"id"`
	}
	if json.Unmarshal(body, &m) != nil || len(m.ID) == 0 {
		return jsonrpc2.ID{}
	}
	var n int64
	if json.Unmarshal(m.ID, &n) == nil {
		return jsonrpc2.NewNumberID(n)
	}
	var str string
	if json.Unmarshal(m.ID, &str) == nil {
		return jsonrpc2.NewStringID(str)
	}
	return jsonrpc2.ID{}
}

// reject answers a malformed frame. A failed write is left for the next
// read or write to surface: the connection is then broken anyway.
func (s *stream) reject(ctx context.Context, id jsonrpc2.ID, code jsonrpc2.Code, msg string) {
	s.logger.Warn("rejected malformed message", "code", int(code), "error", msg)
	resp := jsonrpc2.NewResponse(id, nil, jsonrpc2.NewError(code, msg))
	if _, err := s.out.Write(ctx, resp); err != nil {
		s.logger.Warn("could not answer malformed message", "error", err)
	}
}

// Read implements jsonrpc2.Stream for callers that do not use frames.
func (s *stream) Read(ctx context.Context) (jsonrpc2.Message, int64, error) {
	body, n, err := s.ReadFrame(ctx)
	if err != nil {
		return nil, 0, err
	}
	msg, err := jsonrpc2.DecodeMessage(body)
	return msg, n, err
}

func (s *stream) Write(ctx context.Context, msg jsonrpc2.Message) (int64, error) {
	return s.out.Write(ctx, msg)
}

func (s *stream) WriteFrame(ctx context.Context, data []byte) (int64, error) {
	return s.out.(frameWriter).WriteFrame(ctx, data)
}

func (s *stream) Close() error { return s.rwc.Close() }
