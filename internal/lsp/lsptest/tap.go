package lsptest

import (
	"bytes"
	"encoding/json"
	"io"
	"strconv"

	"go.lsp.dev/jsonrpc2"
)

// ErrorResponse is one error response seen on the wire. ID is the raw JSON
// id ("null" for answers to unparseable input).
type ErrorResponse struct {
	ID      string
	Code    jsonrpc2.Code
	Message string
}

// frameTap watches the frames the server sends and reports every error
// response, including answers to malformed input, which jsonrpc2 drops as
// unmatched responses.
type frameTap struct {
	io.ReadWriteCloser
	onError func(ErrorResponse)
	buf     []byte
}

func (t *frameTap) Read(p []byte) (int, error) {
	n, err := t.ReadWriteCloser.Read(p)
	if n > 0 {
		t.buf = append(t.buf, p[:n]...)
		t.scan()
	}
	return n, err
}

func (t *frameTap) scan() {
	for {
		end := bytes.Index(t.buf, []byte("\r\n\r\n"))
		if end < 0 {
			return
		}
		length := -1
		for _, line := range bytes.Split(t.buf[:end], []byte("\r\n")) {
			if name, value, ok := bytes.Cut(line, []byte(":")); ok && bytes.EqualFold(bytes.TrimSpace(name), []byte("Content-Length")) {
				length, _ = strconv.Atoi(string(bytes.TrimSpace(value)))
			}
		}
		if length < 0 || len(t.buf) < end+4+length {
			return
		}
		body := t.buf[end+4 : end+4+length]
		var m struct {
			ID    json.RawMessage `json:"id"`
			Error *jsonrpc2.Error `json:"error"`
		}
		if json.Unmarshal(body, &m) == nil && m.Error != nil {
			id := string(m.ID)
			if id == "" {
				id = "null"
			}
			t.onError(ErrorResponse{ID: id, Code: m.Error.Code, Message: m.Error.Message})
		}
		t.buf = t.buf[end+4+length:]
	}
}
