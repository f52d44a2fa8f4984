package main

import (
	"context"
	"errors"
	"flag"
	"fmt"
	"io"
	"math"
	"os"
	"path/filepath"
	"strconv"
	"strings"

	"github.com/clew-lsp/clew-lsp/internal/devcontext"
	"github.com/clew-lsp/clew-lsp/internal/workspace"
	"github.com/clew-lsp/clew-lsp/internal/workspace/contextmap"
	"github.com/clew-lsp/clew-lsp/internal/workspace/disk"
)

// The devcontext commands (docs/context.md): context, explain, policy. They
// print the same JSON the language server's clew.compileContext,
// clew.explainContext and clew.contextPolicy answer.

// contextKnobs are the request flags context and explain share.
type contextKnobs struct {
	budget, depth, floor string
	intent               string
	dir                  string
}

func (k *contextKnobs) register(fs *flag.FlagSet) {
	fs.StringVar(&k.budget, "budget", "", "token budget, above 0 (default 24000)")
	fs.StringVar(&k.depth, "depth", "", "how many hops the walk may go from a seed (default 3)")
	fs.StringVar(&k.floor, "floor", "", "lowest relevance a walked or inferred entry may have, in [0, 1] (default 0.25)")
	fs.StringVar(&k.intent, "intent", "", "free text: words that make docs mentioning them relevant")
	fs.StringVar(&k.dir, "dir", ".", "the workspace directory")
}

// request turns the knobs and a FILE:LINE[:COL] into a devcontext request; the
// file is resolved against the workspace root.
func (k *contextKnobs) request(root, at string) (devcontext.Request, error) {
	var r devcontext.Request
	if at != "" {
		p, err := parseAt(root, at)
		if err != nil {
			return r, err
		}
		r.Position = &p
	}
	if k.budget != "" {
		n, err := strconv.ParseUint(k.budget, 10, 64)
		if err != nil || n == 0 {
			return r, fmt.Errorf("--budget %q: want a whole number above 0", k.budget)
		}
		r.BudgetTokens = &n
	}
	if k.depth != "" {
		n, err := strconv.Atoi(k.depth)
		if err != nil || n < 0 {
			return r, fmt.Errorf("--depth %q: want a whole number, 0 or more", k.depth)
		}
		r.MaxDepth = &n
	}
	if k.floor != "" {
		f, err := strconv.ParseFloat(k.floor, 64)
		if err != nil || math.IsNaN(f) || f < 0 || f > 1 {
			return r, fmt.Errorf("--floor %q: want a number from 0 to 1", k.floor)
		}
		r.Floor = &f
	}
	r.Intent = strings.TrimSpace(k.intent)
	return r, nil
}

// parseAt reads FILE:LINE[:COL]. LINE and COL are 1-based; COL counts
// bytes (as compilers print it) and 0 or absent means the whole line. FILE
// is a path inside the workspace: relative to the current directory when
// such a file exists there, else relative to the workspace root.
func parseAt(root, at string) (devcontext.Position, error) {
	bad := fmt.Errorf("%q: want FILE:LINE or FILE:LINE:COL (1-based line)", at)
	parts := strings.Split(at, ":")
	if len(parts) < 2 {
		return devcontext.Position{}, bad
	}
	nums := []int{}
	for len(parts) > 1 && len(nums) < 2 {
		n, err := strconv.Atoi(parts[len(parts)-1])
		if err != nil {
			break
		}
		nums = append([]int{n}, nums...)
		parts = parts[:len(parts)-1]
	}
	file := strings.Join(parts, ":")
	if len(nums) == 0 || file == "" || nums[0] < 1 || (len(nums) == 2 && nums[1] < 0) {
		return devcontext.Position{}, bad
	}
	p := devcontext.Position{Path: workspacePath(root, file), Line: nums[0]}
	if len(nums) == 2 {
		p.Column = nums[1]
	}
	return p, nil
}

// workspacePath maps a command-line path onto the workspace: an absolute
// path, or one that exists relative to the current directory, is made
// relative to the root; anything else is taken as root-relative already.
func workspacePath(root, file string) string {
	cand := file
	if !filepath.IsAbs(cand) {
		if _, err := os.Stat(cand); err != nil {
			return filepath.ToSlash(file)
		}
	}
	abs, err := filepath.Abs(cand)
	if err == nil {
		if real, err := filepath.EvalSymlinks(abs); err == nil {
			abs = real
		}
		if rel, err := filepath.Rel(root, abs); err == nil && rel != ".." && !strings.HasPrefix(rel, ".."+string(filepath.Separator)) {
			return filepath.ToSlash(rel)
		}
	}
	return filepath.ToSlash(file)
}

func runContext(ctx context.Context, args []string, stdout, stderr io.Writer) int {
	fs := newFlags("context", "FILE:LINE[:COL] [--budget N] [--depth N] [--floor F] [--intent TEXT] [--json|--markdown] [--dir DIR]",
		"Compiles what to read for the declaration at FILE:LINE[:COL] (docs/context.md): the innermost declaration,\n"+
			"its tests, callers and callees, the doc passages anchored to it (stale ones excluded and said so),\n"+
			"the claims and AGENTS.md files that govern its file, docs that mention it, and the commits that\n"+
			"touched it, spent first-fit within the token budget. LINE is 1-based; COL is a 1-based byte\n"+
			"column (0 or absent: the whole line). Prints the JSON answer (the default, --json) or its\n"+
			"Markdown rendering (--markdown). Exit 0; 10 over budget (the required entries alone exceed it);\n"+
			"12 unknown target; 2 usage error.", stderr)
	var k contextKnobs
	k.register(fs)
	asJSON := fs.Bool("json", false, "print the JSON answer (the default)")
	asMarkdown := fs.Bool("markdown", false, "print the answer as Markdown, with the selected texts")
	pos, code, done := parse(fs, args)
	if done {
		return code
	}
	if len(pos) != 1 {
		fmt.Fprintln(stderr, "clew-lsp context: want exactly one FILE:LINE[:COL]")
		return devcontext.ExitInvalid
	}
	if *asJSON && *asMarkdown {
		fmt.Fprintln(stderr, "clew-lsp context: --json and --markdown exclude each other")
		return devcontext.ExitInvalid
	}
	defer deferGC(contextRunHeap)() // a one-shot command: its first collections free what exit frees
	snap, err := disk.Load(k.dir)
	if err != nil {
		fmt.Fprintf(stderr, "clew-lsp context: %v\n", err)
		return devcontext.ExitInvalid
	}
	if flush := oneShotContext(snap); flush != nil {
		defer flush()
	}
	req, err := k.request(snap.Root(), pos[0])
	if err != nil {
		fmt.Fprintf(stderr, "clew-lsp context: %v\n", err)
		return devcontext.ExitInvalid
	}
	var out []byte
	var c devcontext.CompiledContext
	if *asMarkdown {
		var md string
		md, c, err = contextmap.Markdown(ctx, snap, req)
		out = []byte(md)
	} else {
		c, err = contextmap.Compile(ctx, snap, req)
		if err == nil {
			out, err = devcontext.Encode(c)
		}
	}
	if err != nil {
		return contextError(stderr, "context", c, err)
	}
	stdout.Write(out)
	return devcontext.ExitCode(c, nil)
}

// oneShotContext is what a one-shot context command sets on its snapshot
// before the first request: partial parses of the anchors' hinted files
// (contextmap.PartialChecks), and the persistent store through one bundle
// per root for the dev context (workspace.NewBundleStoreFor), as verify
// has one: the check's tables and the search's declaration packs are one
// entry, read at once by the next run, instead of a file each (a first
// run on a workspace whose docs anchor a thousand files created 2,300).
// The identifier index stays an entry of its own. The returned flush
// writes the bundle; nil without a store.
func oneShotContext(snap *workspace.Snapshot) (flush func()) {
	contextmap.PartialChecks(snap)
	store := tableStore()
	if store == nil {
		return nil
	}
	bundle := workspace.NewBundleStoreFor(store, snap.Root(), "context")
	snap.UseTableStore(bundle)
	return bundle.Flush
}

// contextError reports a failed request with its exit code: 12 for an
// unknown target, 2 for an invalid request or anything else.
func contextError(stderr io.Writer, cmd string, c devcontext.CompiledContext, err error) int {
	fmt.Fprintf(stderr, "clew-lsp %s: %v\n", cmd, err)
	if errors.Is(err, devcontext.ErrUnknownTarget) || errors.Is(err, devcontext.ErrInvalidRequest) {
		return devcontext.ExitCode(c, err)
	}
	return devcontext.ExitInvalid
}

func runExplain(ctx context.Context, args []string, stdout, stderr io.Writer) int {
	fs := newFlags("explain", "URI --at FILE:LINE[:COL] [--budget N] [--depth N] [--floor F] [--intent TEXT] [--dir DIR]",
		"Says where URI stands in the context compiled at FILE:LINE[:COL]: selected, excluded (and why),\n"+
			"deduplicated, not_reached or unknown, with the budget. Prints JSON. Exit 0; 12 when the\n"+
			"position names nothing; 2 usage error.", stderr)
	var k contextKnobs
	k.register(fs)
	at := fs.String("at", "", "the cursor, FILE:LINE[:COL], as for context")
	pos, code, done := parse(fs, args)
	if done {
		return code
	}
	if len(pos) != 1 || strings.TrimSpace(pos[0]) == "" {
		fmt.Fprintln(stderr, "clew-lsp explain: want exactly one URI")
		return devcontext.ExitInvalid
	}
	defer deferGC(contextRunHeap)()
	snap, err := disk.Load(k.dir)
	if err != nil {
		fmt.Fprintf(stderr, "clew-lsp explain: %v\n", err)
		return devcontext.ExitInvalid
	}
	if flush := oneShotContext(snap); flush != nil {
		defer flush()
	}
	req, err := k.request(snap.Root(), *at)
	if err != nil {
		fmt.Fprintf(stderr, "clew-lsp explain: %v\n", err)
		return devcontext.ExitInvalid
	}
	ex, err := contextmap.Explain(ctx, snap, pos[0], req)
	if err != nil {
		return contextError(stderr, "explain", devcontext.CompiledContext{}, err)
	}
	out, err := devcontext.Encode(ex)
	if err != nil {
		fmt.Fprintf(stderr, "clew-lsp explain: %v\n", err)
		return devcontext.ExitInvalid
	}
	stdout.Write(out)
	return devcontext.ExitOK
}

func runPolicy(_ context.Context, args []string, stdout, stderr io.Writer) int {
	fs := newFlags("policy", "",
		"Prints the context compiler's policy as JSON: the seven tiers with their kinds, the eight\n"+
			"selectors, the followed and refused edges with weights and reasons, and the defaults.", stderr)
	pos, code, done := parse(fs, args)
	if done {
		return code
	}
	if len(pos) > 0 {
		fmt.Fprintln(stderr, "clew-lsp policy: takes no arguments")
		return devcontext.ExitInvalid
	}
	out, err := devcontext.Encode(contextmap.Policy())
	if err != nil {
		fmt.Fprintf(stderr, "clew-lsp policy: %v\n", err)
		return devcontext.ExitInvalid
	}
	stdout.Write(out)
	return devcontext.ExitOK
}
