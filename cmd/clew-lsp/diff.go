package main

import (
	"context"
	"errors"
	"fmt"
	"io"

	"github.com/clew-lsp/clew-lsp/internal/anchors"
	"github.com/clew-lsp/clew-lsp/internal/workspace"
	"github.com/clew-lsp/clew-lsp/internal/workspace/disk"
)

// runDiff prints what changed in an anchor's code since it was reviewed.
func runDiff(ctx context.Context, args []string, stdout, stderr io.Writer) int {
	fs := newFlags("diff", "DOC:LINE [--dir DIR]",
		"Prints a unified diff of the code an anchor binds (declaration, line range or doc) between the\n"+
			"reviewed version — the newest commit, among the last 100 of its file, where it hashes as\n"+
			"pinned — and now. Exit 0; 1 when the history does not hold the reviewed version (the message\n"+
			"says so) or the anchor has none (unpinned, lost); 2 usage error.", stderr)
	dir := fs.String("dir", ".", "the workspace directory")
	pos, code, done := parse(fs, args)
	if done {
		return code
	}
	if len(pos) != 1 {
		fmt.Fprintln(stderr, "clew-lsp diff: want exactly one DOC:LINE")
		return 2
	}
	snap, err := disk.Load(*dir)
	if err != nil {
		fmt.Fprintf(stderr, "clew-lsp diff: %v\n", err)
		return 2
	}
	t, err := parseTarget(snap.Root(), pos[0])
	if err != nil || t.Line == 0 {
		fmt.Fprintf(stderr, "clew-lsp diff: %q: want DOC:LINE (the anchor's 1-based line)\n", pos[0])
		return 2
	}
	rep, err := snap.Check(ctx, workspace.CheckOptions{})
	if err != nil {
		fmt.Fprintf(stderr, "clew-lsp diff: %v\n", err)
		return 2
	}
	ch, err := snap.ChangeOf(rep, t.Doc, t.Line)
	if err != nil {
		fmt.Fprintf(stderr, "clew-lsp diff: %v\n", err)
		var ce *workspace.ChangeError
		if errors.As(err, &ce) {
			return 1
		}
		return 2
	}
	fmt.Fprint(stdout, anchors.UnifiedDiff(ch.Before, ch.After,
		"a/"+ch.Path+" (reviewed, "+ch.ReviewedCommit[:min(12, len(ch.ReviewedCommit))]+")", "b/"+ch.Path+" (now)"))
	return 0
}
