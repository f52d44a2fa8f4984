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
			fs.PrintDefaults()
		}
	}
	return fs
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
