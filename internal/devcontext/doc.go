// Package devcontext compiles the token-budgeted context an engineer or a coding
// agent should read for the symbol under the cursor (docs/context.md; the choices inside the package are in DESIGN.md).
//
// It is pure: the workspace layer fills a World from a snapshot, and Compile,
// Explain and Policy turn that World and a Request into plain values whose JSON
// is byte-stable. Architecture invariant: this package imports no os, os/exec,
// net, go-git, fsnotify, go.lsp.dev, nor internal/workspace; broken input
// becomes a diagnostic or an exclusion, never a panic. Only an invalid request
// is an error (ErrInvalidRequest, ErrUnknownTarget).
package devcontext
