// Command clew-lsp keeps documentation honest about code: a language server
// (no arguments, or `serve`) and the command line that CI gates on.
package main

import (
	"context"
	"fmt"
	"io"
	"os"
	"os/signal"
	"runtime/debug"
	"sort"
	"strings"
	"time"
)

// version is set by -ldflags "-X main.version=…"; otherwise the build info
// gives one (versionString).
var version = ""

// command is one sub-command: it gets its arguments and the standard
// streams and returns the process exit code.
type command struct {
	summary string
	run     func(ctx context.Context, args []string, stdout, stderr io.Writer) int
}

var commands map[string]command

func init() {
	commands = map[string]command{
		"verify":  {"check every code anchor and claim; rebind moved anchors unless --check", runVerify},
		"confirm": {"pin unpinned anchors and confirm reviewed ones (writes current hashes)", runConfirm},
		"version": {"print the version", runVersion},
		"diff":    {"show what changed in an anchor's code since it was reviewed (DOC:LINE)", runDiff},
		"anchor":  {"print the @code anchor (pinned) for the declaration at FILE:LINE[:COL]", runAnchor},
		"serve":   {"serve the Language Server Protocol on stdio (the default)", runServe},
		"context": {"compile what to read for the declaration at FILE:LINE (JSON or Markdown)", runContext},
		"explain": {"say where one URI stands in the context compiled at a position", runExplain},
		"policy":  {"print the context compiler's tiers, selectors, edges and defaults", runPolicy},
		"mcp":     {"serve the Model Context Protocol on stdio for coding agents (read-only tools)", runMCP},
		"suggest": {"list backticked mentions of code that no anchor binds yet; --write inserts the anchors", runSuggest},
		"count":   {"dry-run one claim leg: what '<repo>:<glob> /re/ [each]' matches, per file", runCount},
	}
}

func main() {
	ctx, stop := signal.NotifyContext(context.Background(), os.Interrupt)
	code := run(ctx, os.Args[1:], os.Stdout, os.Stderr)
	stop()
	os.Exit(code)
}

func run(ctx context.Context, args []string, stdout, stderr io.Writer) int {
	if len(args) == 0 {
		args = []string{"serve"}
	}
	name := args[0]
	if name == "-h" || name == "--help" || name == "help" {
		usage(stdout)
		return 0
	}
	cmd, ok := commands[name]
	if !ok {
		fmt.Fprintf(stderr, "clew-lsp: unknown command %q\n\n", name)
		usage(stderr)
		return 2
	}
	// What the command stored reaches the disk before the process exits.
	defer flushStores()
	return cmd.run(ctx, args[1:], stdout, stderr)
}

func usage(w io.Writer) {
	fmt.Fprintln(w, "usage: clew-lsp [command] [arguments]")
	fmt.Fprintln(w, "\nWith no command, clew-lsp serves the Language Server Protocol on stdio.")
	fmt.Fprintln(w, "\ncommands:")
	names := make([]string, 0, len(commands))
	for n := range commands {
		names = append(names, n)
	}
	sort.Strings(names)
	for _, n := range names {
		fmt.Fprintf(w, "  %-8s %s\n", n, commands[n].summary)
	}
	fmt.Fprintln(w, "\nRun `clew-lsp <command> --help` for a command's flags.")
}

// versionString is the -ldflags version, else what the build info says
// (buildVersion). It always starts with a number, as SARIF consumers and
// version comparisons expect.
func versionString() string {
	if version != "" {
		return version
	}
	bi, ok := debug.ReadBuildInfo()
	if !ok {
		return develVersion
	}
	return buildVersion(bi)
}

// develVersion: a build that carries no version and no VCS stamp (for
// instance `go build -buildvcs=false`, or a source tree without .git).
const develVersion = "0.0.0-devel"

// buildVersion: the module version of a `go install …@v0.4.1` build
// ("0.4.1"), or the pseudo-version Go stamps into a `go build` from a
// checkout; else one made the same way from the VCS settings
// ("0.0.0-20261201182300-3f2a1c0e8b7a", "+dirty" when the tree was
// modified); else develVersion.
func buildVersion(bi *debug.BuildInfo) string {
	if v := bi.Main.Version; v != "" && v != "(devel)" {
		return strings.TrimPrefix(v, "v")
	}
	var rev, at, dirty string
	for _, s := range bi.Settings {
		switch s.Key {
		case "vcs.revision":
			rev = s.Value
		case "vcs.time":
			at = s.Value
		case "vcs.modified":
			if s.Value == "true" {
				dirty = "+dirty"
			}
		}
	}
	if rev == "" {
		return develVersion
	}
	if len(rev) > 12 {
		rev = rev[:12]
	}
	if t, err := time.Parse(time.RFC3339, at); err == nil {
		rev = t.UTC().Format("20060102150405") + "-" + rev
	}
	return "0.0.0-" + rev + dirty
}

func runVersion(_ context.Context, args []string, stdout, stderr io.Writer) int {
	fs := newFlags("version", "", "print the version", stderr)
	if _, code, done := parse(fs, args); done {
		return code
	}
	fmt.Fprintf(stdout, "clew-lsp %s\n", versionString())
	return 0
}
