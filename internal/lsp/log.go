package lsp

import (
	"fmt"
	"runtime/debug"

	"go.lsp.dev/protocol"
)

// logToClient shows a message in the editor's log (window/logMessage). It is
// a notification, so it is safe from the read loop too.
func (s *server) logToClient(typ protocol.MessageType, msg string) {
	err := s.conn.Notify(s.ctx, protocol.MethodWindowLogMessage, &protocol.LogMessageParams{Type: typ, Message: msg})
	if err != nil {
		s.logger.Debug("window/logMessage not sent", "error", err)
	}
}

// recoverBackground is deferred by background goroutines.
func (s *server) recoverBackground(name string) {
	if p := recover(); p != nil {
		s.logger.Error("background task panicked", "task", name, "panic", p, "stack", string(debug.Stack()))
		s.logToClient(protocol.MessageTypeError, fmt.Sprintf("clew-lsp: internal error in %s: %v (the server keeps running; please report this)", name, p))
	}
}
