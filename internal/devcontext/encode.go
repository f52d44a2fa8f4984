package devcontext

import (
	"bytes"
	"encoding/json"
)

// Encode is the one JSON encoding every surface prints (CLI, LSP, golden
// files): two-space indent, no HTML escaping (anchors hold "<!--"), a final
// newline. Field order is declaration order and facts keys are sorted, so
// equal values encode to equal bytes.
func Encode(v any) ([]byte, error) {
	var buf bytes.Buffer
	enc := json.NewEncoder(&buf)
	enc.SetEscapeHTML(false)
	enc.SetIndent("", "  ")
	if err := enc.Encode(v); err != nil {
		return nil, err
	}
	return buf.Bytes(), nil
}
