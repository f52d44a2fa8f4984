package main

import (
	"context"
	"fmt"
	"io"
	"os"
	"path/filepath"
	"strconv"
	"strings"

	"github.com/clew-lsp/clew-lsp/internal/workspace"
	"github.com/clew-lsp/clew-lsp/internal/workspace/disk"
)

func runConfirm(ctx context.Context, args []string, stdout, stderr io.Writer) int {
	fs := newFlags("confirm", "[--all] [--dir DIR] [DOC[:LINE]…]",
		"Pins unpinned anchors and confirms stale, moved or renamed ones: writes the current\n"+
			"binding and hashes into the anchor comment. This is the one act that turns a flag\n"+
			"green; commit the change so the review is in git history. An anchor whose target\n"+
			"does not resolve is refused (exit 1) with the declarations of that name that exist;\n"+
			"an anchor that does not parse is printed with its parse error (exit 1), as verify prints it.", stderr)
	all := fs.Bool("all", false, "confirm every anchor of the workspace")
	dir := fs.String("dir", ".", "the workspace directory")
	pos, code, done := parse(fs, args)
	if done {
		return code
	}
	if !*all && len(pos) == 0 {
		fmt.Fprintln(stderr, "clew-lsp confirm: name DOC[:LINE] targets or pass --all")
		return 2
	}
	files, _, err := disk.Open(*dir)
	if err != nil {
		fmt.Fprintf(stderr, "clew-lsp confirm: %v\n", err)
		return 2
	}
	var targets []workspace.Target
	for _, p := range pos {
		t, err := parseTarget(files.Root(), p)
		if err != nil {
			fmt.Fprintf(stderr, "clew-lsp confirm: %v\n", err)
			return 2
		}
		targets = append(targets, t)
	}
	snap, err := disk.Load(files.Root())
	if err != nil {
		fmt.Fprintf(stderr, "clew-lsp confirm: %v\n", err)
		return 2
	}
	rep, err := snap.Check(ctx, workspace.CheckOptions{})
	if err != nil {
		fmt.Fprintf(stderr, "clew-lsp confirm: %v\n", err)
		return 2
	}
	res := rep.Confirm(targets, *all)
	if err := writeEdits(snap, files, res.Edits); err != nil {
		fmt.Fprintf(stderr, "clew-lsp confirm: %v\n", err)
		return 2
	}
	for _, a := range res.Confirmed {
		verb := "confirmed"
		if !a.Anchor.Pinned() {
			verb = "pinned"
		}
		fmt.Fprintf(stdout, "%s %s (was %s)\n", verb, a.ID, a.State)
	}
	for _, r := range res.Refused {
		fmt.Fprintf(stderr, "refused %s\n", r.Message)
	}
	for _, t := range res.Unmatched {
		fmt.Fprintf(stderr, "no anchor at %s\n", formatTarget(t))
	}
	for _, d := range res.Unparsed {
		fmt.Fprintf(stderr, "%s:%d: %s %s: %s\n", d.Doc, d.Line, d.Severity, d.Code, d.Message)
	}
	if len(res.Refused) > 0 || len(res.Unmatched) > 0 || len(res.Unparsed) > 0 {
		return 1
	}
	return 0
}

// parseTarget reads DOC[:LINE]. A DOC that exists relative to the current
// directory is made relative to the workspace root, so both
// `confirm docs/a.md:3` inside the workspace and
// `confirm --dir ws ws/docs/a.md:3` from outside work.
func parseTarget(root, s string) (workspace.Target, error) {
	doc, line := s, 0
	if i := strings.LastIndex(s, ":"); i > 0 {
		if n, err := strconv.Atoi(s[i+1:]); err == nil {
			if n < 1 {
				return workspace.Target{}, fmt.Errorf("%s: line numbers start at 1", s)
			}
			doc, line = s[:i], n
		}
	}
	if abs, err := filepath.Abs(doc); err == nil {
		if _, err := os.Stat(abs); err == nil {
			if rel, err := filepath.Rel(root, abs); err == nil && !strings.HasPrefix(rel, "..") {
				doc = filepath.ToSlash(rel)
			}
		}
	}
	return workspace.Target{Doc: doc, Line: line}, nil
}

func formatTarget(t workspace.Target) string {
	if t.Line == 0 {
		return t.Doc
	}
	return t.Doc + ":" + strconv.Itoa(t.Line)
}
