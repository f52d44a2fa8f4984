package main

import (
	"context"
	"fmt"
	"io"

	"github.com/clew-lsp/clew-lsp/internal/claims"
	"github.com/clew-lsp/clew-lsp/internal/workspace/disk"
)

// runCount dry-runs one claim leg (docs/claims.md) over the same bytes verify
// reads: in a brain, its working tree and every declared repo at its
// channel ref (or working tree with --worktree); in a checkout that mounts
// a brain, this checkout's working tree under its repo key.
func runCount(_ context.Context, args []string, stdout, stderr io.Writer) int {
	fs := newFlags("count", "'<repo>:<glob> [!<glob> …] /<regex>/[i] [each|each!]' [DIR] [--worktree] [--repo KEY]",
		"Counts what one @anchor leg would match, per file, without a claim: the dry run before\n"+
			"writing a leg. Exit 0 whatever the count; 2 for a malformed spec, a refused regex, an\n"+
			"unknown repo key, a repo that is not on disk, or a bad configuration.", stderr)
	worktree := fs.Bool("worktree", false, "read sibling repos' working trees instead of their channel refs")
	repoKey := fs.String("repo", "", "consumer scope: this checkout's repo key in the mounted brain")
	pos, code, done := parse(fs, args)
	if done {
		return code
	}
	if len(pos) < 1 || len(pos) > 2 {
		fmt.Fprintln(stderr, "clew-lsp count: give one leg spec, quoted, and at most one directory")
		fs.Usage()
		return 2
	}
	dir := "."
	if len(pos) == 2 {
		dir = pos[1]
	}
	snap, err := disk.Load(dir)
	if err != nil {
		fmt.Fprintf(stderr, "clew-lsp count: %v\n", err)
		return 2
	}
	var (
		cfg   claims.Config
		diags []claims.Diagnostic
		repos []claims.Repo
	)
	if snap.IsBrain() {
		if *repoKey != "" {
			fmt.Fprintln(stderr, "clew-lsp count: --repo is ignored in a brain checkout")
		}
		cfg, diags, repos = snap.ClaimSources(*worktree)
	} else {
		sc, ok, doc, problem := disk.ConsumerScope(snap, *repoKey)
		if problem != "" {
			fmt.Fprintf(stderr, "clew-lsp count: %s: %s\n", doc, problem)
			return 2
		}
		if !ok {
			fmt.Fprintf(stderr, "clew-lsp count: %s is not a brain (no %s) and mounts none (%s, or one child directory holding it)\n",
				snap.Root(), claims.ConfigFile, disk.DefaultMount)
			return 2
		}
		prefix := sc.Mount + "/"
		cfg, diags, repos = snap.ConsumerSources(sc)
		for i := range diags {
			diags[i].Doc = prefix + diags[i].Doc
		}
	}
	bad := false
	for _, d := range diags {
		fmt.Fprintf(stderr, "%s:%d: %s %s: %s\n", d.Doc, d.Line, d.Severity, d.Code, d.Message)
		bad = bad || d.Severity == claims.SeverityError
	}
	if bad {
		return 2
	}
	out, code := claims.Count(pos[0], cfg, repos)
	if code != 0 {
		fmt.Fprint(stderr, out)
		return code
	}
	fmt.Fprint(stdout, out)
	return 0
}
