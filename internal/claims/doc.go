// Package claims is the pure core of multivac-compatible claims (docs/claims.md):
// the `@anchor` grammar, the law table, the POSIX ERE gate, picomatch
// globs, SQL statements, leg evaluation, `.multivac/config.yml`, the text
// report and the `count` dry-run.
//
// Architecture invariant: this package takes bytes and returns values. It
// imports no os, os/exec, net, go-git, fsnotify or LSP types. Broken input
// (a malformed leg, a refused regex, a bad config, an unknown repo key)
// becomes a Diagnostic; the only error is a cancelled context.
//
// Wiring (the workspace layer):
//
//  1. Read `.multivac/config.yml` and call ParseConfig (no file but a law:
//     DefaultConfig and Input.ConfigMissing). Its Repos say which sibling
//     checkouts to open and Config.ChannelFor which ref to read them at.
//  2. Implement Repo for the brain (key "brain", always its working tree,
//     ReadBrain facts) and for each declared repo: Files from the git index
//     or `ls-tree` of the channel ref (symlinks and submodules dropped,
//     conflicted stages collapsed, sorted), Read from the working tree with
//     editor overlays or from blobs, Untracked only for working-tree reads,
//     Identity = real path + ref so aliases of one directory are scanned
//     once, OnDisk=false for a declared repo that is not cloned, Facts for
//     the read line (ReadChannel, ReadFellBack when the channel does not
//     resolve, ReadWorktree under --worktree, ReadConsumer, ReadNotOnDisk).
//     MemRepo is a ready-made in-memory implementation.
//  3. Pass the brain's Markdown files that LawDoc selects as Input.Docs,
//     the resolved `@code` legs that carry a claim ID as Input.CodeLegs,
//     and the flags as Options; call Evaluate.
//  4. Print Report(result) (after the code anchors), or marshal the tagged
//     fields for `verify --json`; apply Result.Edits when writing is on;
//     Result.EditorDiagnostics feeds the language server. Count serves
//     `clew-lsp count`.
//
// Each file is read at most once per Evaluate, however many legs cover it.
package claims
