package main

import (
	"context"
	"encoding/json"
	"errors"
	"fmt"
	"io"

	"github.com/clew-lsp/clew-lsp/internal/workspace"
	"github.com/clew-lsp/clew-lsp/internal/workspace/disk"
)

// runAnchor prints the anchor line for the declaration at a position: the
// same line the editor's "Copy anchor" code action copies.
func runAnchor(_ context.Context, args []string, stdout, stderr io.Writer) int {
	fs := newFlags("anchor", "FILE:LINE[:COL] [--unpinned] [--json] [--dir DIR]",
		"Prints the @code anchor for the declaration at FILE:LINE[:COL], pinned with sha= (the current\n"+
			"hashes, as confirm would write them) unless --unpinned. LINE is 1-based; COL is a 1-based byte\n"+
			"column (0 or absent: the declaration whose name is on the line, else the innermost one holding\n"+
			"it). Paste the line under the passage that describes the code. Exit 0; 1 when no declaration\n"+
			"is there (the message names the nearest one); 2 usage error.", stderr)
	unpinned := fs.Bool("unpinned", false, "leave sha= out: the anchor resolves, but nobody has reviewed it yet")
	asJSON := fs.Bool("json", false, "print the answer as JSON (anchor, kind, qualified_name, path, lines, warning)")
	dir := fs.String("dir", ".", "the workspace directory")
	pos, code, done := parse(fs, args)
	if done {
		return code
	}
	if len(pos) != 1 {
		fmt.Fprintln(stderr, "clew-lsp anchor: want exactly one FILE:LINE[:COL]")
		return 2
	}
	snap, err := disk.Load(*dir)
	if err != nil {
		fmt.Fprintf(stderr, "clew-lsp anchor: %v\n", err)
		return 2
	}
	at, err := parseAt(snap.Root(), pos[0])
	if err != nil {
		fmt.Fprintf(stderr, "clew-lsp anchor: %v\n", err)
		return 2
	}
	l, err := snap.AnchorFor(at.Path, at.Line, at.Column, !*unpinned)
	if err != nil {
		fmt.Fprintf(stderr, "clew-lsp anchor: %v\n", err)
		var nf *workspace.AnchorForError
		if errors.As(err, &nf) {
			return 1
		}
		return 2
	}
	if *asJSON {
		enc := json.NewEncoder(stdout)
		enc.SetEscapeHTML(false) // the anchor is an HTML comment: keep it readable
		enc.SetIndent("", "  ")
		enc.Encode(l)
	} else {
		fmt.Fprintln(stdout, l.Anchor)
	}
	if l.Warning != "" {
		fmt.Fprintf(stderr, "clew-lsp anchor: warning: %s\n", l.Warning)
	}
	return 0
}
