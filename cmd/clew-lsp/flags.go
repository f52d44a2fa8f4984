package main

import (
	"errors"
	"flag"
	"fmt"
	"io"
	"strings"
)

// newFlags builds a command's flag set whose --help prints the synopsis.
func newFlags(name, synopsis, summary string, out io.Writer) *flag.FlagSet {
	fs := flag.NewFlagSet(name, flag.ContinueOnError)
	fs.SetOutput(out)
	fs.Usage = func() {
		fmt.Fprintf(out, "usage: clew-lsp %s %s\n\n%s\n", name, synopsis, summary)
		var any bool
		fs.VisitAll(func(*flag.Flag) { any = true })
		if any {
			fmt.Fprintln(out, "\nflags:")
			printFlags(out, fs)
		}
	}
	return fs
}

// printFlags lists the flags as the usage lines spell them (--name), which
// flag.PrintDefaults does not: it writes -name.
func printFlags(out io.Writer, fs *flag.FlagSet) {
	fs.VisitAll(func(f *flag.Flag) {
		arg, usage := flag.UnquoteUsage(f)
		line := "  --" + f.Name
		if arg != "" {
			line += " " + arg
		}
		fmt.Fprintln(out, line)
		if d := f.DefValue; d != "" && d != "false" && d != "0" {
			usage += fmt.Sprintf(" (default %s)", d)
		}
		fmt.Fprintf(out, "        %s\n", strings.ReplaceAll(usage, "\n", "\n        "))
	})
}

// parse accepts flags before, between and after positional arguments
// (`verify examples/tour --json` works like `verify --json examples/tour`).
// done is true when the command must stop with code (help or a usage error).
func parse(fs *flag.FlagSet, args []string) (positional []string, code int, done bool) {
	rest := args
	for {
		if err := fs.Parse(rest); err != nil {
			if errors.Is(err, flag.ErrHelp) {
				return nil, 0, true
			}
			return nil, 2, true
		}
		rest = fs.Args()
		if len(rest) == 0 {
			return positional, 0, false
		}
		if rest[0] == "--" {
			return append(positional, rest[1:]...), 0, false
		}
		positional = append(positional, rest[0])
		rest = rest[1:]
		if len(rest) == 0 || !strings.HasPrefix(rest[0], "-") {
			// Keep consuming positionals until the next flag.
			for len(rest) > 0 && !strings.HasPrefix(rest[0], "-") {
				positional = append(positional, rest[0])
				rest = rest[1:]
			}
			if len(rest) == 0 {
				return positional, 0, false
			}
		}
	}
}

// optionalDir is the [DIR] of a command that takes at most one workspace
// directory, the current one by default; ok is false once it has said why.
func optionalDir(cmd string, pos []string, stderr io.Writer) (dir string, ok bool) {
	switch len(pos) {
	case 0:
		return ".", true
	case 1:
		return pos[0], true
	}
	fmt.Fprintf(stderr, "clew-lsp %s: one workspace directory at most\n", cmd)
	return "", false
}
