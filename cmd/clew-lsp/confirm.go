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
	fs := newFlags("confirm", "[--all] [--rehash] [--dir DIR] [DOC[:LINE]…]",
		"Pins unpinned anchors and confirms stale, moved or renamed ones: writes the current\n"+
			"binding and hashes into the anchor comment. This is the one act that turns a flag\n"+
			"green; commit the change so the review is in git history. An anchor whose target\n"+
			"does not resolve is refused (exit 1) with the declarations of that name that exist;\n"+
			"an anchor that does not parse is printed with its parse error (exit 1), as verify prints it.", stderr)
	all := fs.Bool("all", false, "confirm every anchor of the workspace")
	rehash := fs.Bool("rehash", false, "re-pin under the current hash scheme exactly the anchors of an older scheme whose\ncode is unchanged since the commit that wrote their pin; list the rest (all anchors without targets)")
	dir := fs.String("dir", ".", "the workspace directory")
	pos, code, done := parse(fs, args)
	if done {
		return code
	}
	if !*all && !*rehash && len(pos) == 0 {
		fmt.Fprintln(stderr, "clew-lsp confirm: name DOC[:LINE] targets or pass --all")
		return 2
	}
	files, snap, err := disk.LoadFiles(*dir)
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
	snap.UseTableStore(tableStore())
	rep, err := snap.Check(ctx, workspace.CheckOptions{})
	if err != nil {
		fmt.Fprintf(stderr, "clew-lsp confirm: %v\n", err)
		return 2
	}
	if *rehash {
		return printRehash(snap.Rehash(rep, targets, *all || len(targets) == 0), snap, files, stdout, stderr)
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

// printRehash writes the re-pins and says what was left and why: exit 0
// when every old-scheme pin was re-pinned, 1 when some need a review.
func printRehash(res workspace.RehashResult, snap *workspace.Snapshot, files *disk.Files, stdout, stderr io.Writer) int {
	if err := writeEdits(snap, files, res.Edits); err != nil {
		fmt.Fprintf(stderr, "clew-lsp confirm: %v\n", err)
		return 2
	}
	for _, r := range res.Rehashed {
		why := "its hash is the same under both schemes"
		if r.Commit != "" {
			why = "code unchanged since " + r.Commit[:min(12, len(r.Commit))] + ", the commit that wrote its pin"
		}
		fmt.Fprintf(stdout, "rehashed %s (%s)\n", r.Anchor.ID, why)
	}
	for _, l := range res.Left {
		fmt.Fprintf(stderr, "not rehashed %s\n", l.Message)
	}
	if len(res.Rehashed) == 0 && len(res.Left) == 0 {
		fmt.Fprintln(stdout, "nothing to rehash: every pin is of the current hash scheme")
	}
	if len(res.Left) > 0 {
		return 1
	}
	return 0
}
