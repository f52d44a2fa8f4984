package lsp

import (
	"encoding/json"
	"fmt"
	"strings"

	"go.lsp.dev/protocol"
	"go.lsp.dev/uri"

	"github.com/clew-lsp/clew-lsp/internal/workspace/query"
)

// "Show what changed since review": a quick fix on anchor/stale and a line
// of the stale anchor's hover, both running clew.showChange (whose answer
// the client shows as a diff).

// showChangeArgs is the argument the action and the hover link carry.
type showChangeArgs struct {
	TextDocument protocol.TextDocumentIdentifier `json:"textDocument"`
	Line         int                             `json:"line"`
}

// showChangeAction is the code action for one stale anchor's diagnostic.
func showChangeAction(doc uri.URI, t query.ChangeTarget, d protocol.Diagnostic) protocol.CodeAction {
	arg, _ := protocol.Marshal(&showChangeArgs{TextDocument: protocol.TextDocumentIdentifier{URI: doc}, Line: t.Line})
	return protocol.CodeAction{
		Title:       query.ShowChangeTitle,
		Kind:        ptr(protocol.CodeActionKindQuickFix),
		Diagnostics: []protocol.Diagnostic{d},
		Command: protocol.Command{Title: query.ShowChangeTitle, Command: cmdShowChange,
			Arguments: []protocol.LSPAny{protocol.LSPAny(arg)}},
	}
}

// clewClientCaps is what a client says about itself under
// capabilities.experimental.clew (docs/server.md#client-capabilities).
type clewClientCaps struct {
	// CommandLinks: the client runs `command:` links of hover Markdown
	// (VS Code, for the commands the extension trusts).
	CommandLinks bool `json:"commandLinks"`
	// ShowChangeCommand is the client's own name for showing the change,
	// named in the hover (Neovim: ":ClewShowChange").
	ShowChangeCommand string `json:"showChangeCommand"`
}

func clewCaps(c protocol.ClientCapabilities) clewClientCaps {
	var x struct {
		Clew clewClientCaps `json:"clew"`
	}
	if len(c.Experimental) > 0 {
		_ = json.Unmarshal(c.Experimental, &x) // not ours to refuse: an unknown shape means no extras
	}
	return x.Clew
}

// showChangeHover is the hover's last line for a stale anchor: a command
// link where the client runs them, else the words that say how.
func showChangeHover(caps clewClientCaps, doc uri.URI, t query.ChangeTarget) string {
	if caps.CommandLinks {
		arg, _ := json.Marshal([]showChangeArgs{{TextDocument: protocol.TextDocumentIdentifier{URI: doc}, Line: t.Line}})
		return fmt.Sprintf("\n[Show what changed since review](command:%s?%s)\n", cmdShowChange, componentEscape(string(arg)))
	}
	if caps.ShowChangeCommand != "" {
		return fmt.Sprintf("\nShow what changed since review: `%s` on this line (or the code action).\n", caps.ShowChangeCommand)
	}
	return fmt.Sprintf("\nShow what changed since review: the code action on this line, or `clew-lsp diff %s:%d`.\n", t.Doc, t.Line)
}

// componentEscape percent-encodes all but unreserved characters, so the
// JSON argument survives both URI parsing and the Markdown link's
// parentheses.
func componentEscape(s string) string {
	var b strings.Builder
	for i := 0; i < len(s); i++ {
		c := s[i]
		if 'a' <= c && c <= 'z' || 'A' <= c && c <= 'Z' || '0' <= c && c <= '9' || c == '-' || c == '_' || c == '.' || c == '~' {
			b.WriteByte(c)
			continue
		}
		fmt.Fprintf(&b, "%%%02X", c)
	}
	return b.String()
}
