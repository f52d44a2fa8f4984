package main

import (
	"context"
	"fmt"
	"io"
	"log/slog"
	"os"

	sdk "github.com/modelcontextprotocol/go-sdk/mcp"

	"github.com/clew-lsp/clew-lsp/internal/mcp"
)

func runMCP(ctx context.Context, args []string, stdout, stderr io.Writer) int {
	fs := newFlags("mcp", "[DIR]",
		"Serves the Model Context Protocol on stdio for coding agents, over the workspace DIR (default:\n"+
			"the current directory): the tools context, explain, verify, doc_passages and anchor_for, and the\n"+
			"resources clew://policy and clew://doc/<path>. Every tool is read-only; the answers equal the\n"+
			"CLI's for the same tree, re-reading what changed on disk before each call. Logs go to stderr.\n"+
			"See docs/agents.md for client configuration.", stderr)
	pos, code, done := parse(fs, args)
	if done {
		return code
	}
	dir, ok := optionalDir("mcp", pos, stderr)
	if !ok {
		return 2
	}
	ws, err := mcp.Open(dir)
	if err != nil {
		fmt.Fprintf(stderr, "clew-lsp mcp: %v\n", err)
		return 2
	}
	logger := slog.New(slog.NewTextHandler(stderr, &slog.HandlerOptions{Level: slog.LevelWarn}))
	if stdout != os.Stdout {
		fmt.Fprintln(stderr, "clew-lsp mcp: serves on the process's stdin and stdout only")
		return 2
	}
	if err := mcp.Serve(ctx, ws, versionString(), logger, &sdk.StdioTransport{}); err != nil && ctx.Err() == nil {
		fmt.Fprintf(stderr, "clew-lsp mcp: %v\n", err)
		return 1
	}
	return 0
}
