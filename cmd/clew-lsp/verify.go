package main

import (
	"context"
	"fmt"
	"io"
	"strings"

	"github.com/clew-lsp/clew-lsp/internal/workspace"
	"github.com/clew-lsp/clew-lsp/internal/workspace/disk"
)

func runVerify(ctx context.Context, args []string, stdout, stderr io.Writer) int {
	fs := newFlags("verify", "[DIR] [--check] [--strict] [--format text|json|github|sarif|gitlab] [--json] [--worktree] [--repo KEY]",
		"Checks every code anchor and claim of the workspace DIR (default: the current directory).\n"+
			"Without --check, moved and renamed anchors are rebound in place (hashes kept), so the\n"+
			"diff lands in the working tree for review. Exit 0: nothing gates; 1: something gates;\n"+
			"2: usage or configuration error.", stderr)
	check := fs.Bool("check", false, "write nothing; only report")
	strict := fs.Bool("strict", false, "unpinned anchors gate too")
	asJSON := fs.Bool("json", false, "short for --format json")
	format := fs.String("format", "text", "output: text, json (one object), github (workflow commands + job summary),\nsarif (SARIF 2.1.0), gitlab (code-quality report); see docs/ci.md")
	worktree := fs.Bool("worktree", false, "read sibling repos' working trees instead of their channel refs")
	repoKey := fs.String("repo", "", "consumer scope: this checkout's repo key in the mounted brain")
	pos, code, done := parse(fs, args)
	if done {
		return code
	}
	dir, ok := optionalDir("verify", pos, stderr)
	if !ok {
		return 2
	}
	if !knownFormat(*format) {
		fmt.Fprintf(stderr, "clew-lsp verify: unknown --format %q (one of %s)\n", *format, strings.Join(verifyFormats, ", "))
		return 2
	}
	if *asJSON {
		*format = "json"
	}
	defer deferGC(shortRunHeap)()
	// The folder is listed only if the check needs the list (a glob doc
	// include, an anchor not settled in its hinted file, a mention, a
	// claim); a listing that failed fails the run as a failed load does.
	files, snap, err := disk.LoadFilesDeferred(dir)
	if err != nil {
		fmt.Fprintf(stderr, "clew-lsp verify: %v\n", err)
		return 2
	}
	// What the check stores goes to one entry of the root, written when it
	// is done (workspace.BundleStore).
	if store := tableStore(); store != nil {
		bundle := workspace.NewBundleStore(store, files.Root())
		defer bundle.Flush()
		snap.UseTableStore(bundle)
	}
	// The law and the files its legs cover are read while the anchors
	// are checked.
	snap.WarmClaims()
	opt := workspace.CheckOptions{Strict: *strict, Write: !*check, Worktree: *worktree, Mentions: true, PartialHinted: true, Clock: cpuClock}
	rep, err := snap.Check(ctx, opt)
	if err == nil {
		err = disk.CheckScope(ctx, snap, rep, *repoKey, opt)
	}
	if err == nil {
		err = snap.ListErr()
	}
	if err != nil {
		fmt.Fprintf(stderr, "clew-lsp verify: %v\n", err)
		return 2
	}
	if *repoKey != "" && snap.IsBrain() {
		fmt.Fprintln(stderr, "clew-lsp verify: --repo is ignored in a brain checkout")
	}
	var heal []workspace.DocEdit
	rebound := false
	if !*check {
		heal = selfHeal(rep)
		if err := writeEdits(snap, files, heal); err != nil {
			fmt.Fprintf(stderr, "clew-lsp verify: %v\n", err)
			return 2
		}
		rebound = len(rep.Rebinds()) > 0
	} else {
		heal = selfHeal(rep) // offered as fixes by sarif, never written
	}
	out := verifyOutput{snap: snap, rep: rep, heal: heal, root: files.Root(), rebound: rebound}
	if err := out.write(*format, stdout); err != nil {
		fmt.Fprintf(stderr, "clew-lsp verify: %v\n", err)
		return 2
	}
	return rep.Exit
}

// writeEdits applies doc edits computed against the snapshot. A doc that
// changed on disk since the snapshot read it is left alone: the edits were
// computed for other bytes.
func writeEdits(snap *workspace.Snapshot, files *disk.Files, edits []workspace.DocEdit) error {
	for _, de := range edits {
		before, _ := snap.ReadFile(de.Doc)
		now, err := files.Read(de.Doc)
		if err != nil || string(now) != string(before) {
			return fmt.Errorf("%s changed while it was checked; run again", de.Doc)
		}
		if err := files.WriteFile(de.Doc, de.Apply(before)); err != nil {
			return fmt.Errorf("writing %s: %w", de.Doc, err)
		}
	}
	return nil
}
