package contextmap_test

import (
	"context"
	"strings"
	"testing"

	"github.com/clew-lsp/clew-lsp/internal/devcontext"
	"github.com/clew-lsp/clew-lsp/internal/workspace"
	"github.com/clew-lsp/clew-lsp/internal/workspace/contextmap"
	"github.com/clew-lsp/clew-lsp/internal/workspace/disk"
	"github.com/clew-lsp/clew-lsp/internal/workspace/wstest"
)

// The Part B fixture of the public devcontext conformance cases,
// as a real git repository:
// a Go module with anchored docs, ADRs, AGENTS.md files, a README, claims
// (through the claims hook) and a history in which three commits touched
// Server.Initialize.

const bModule = "example.com/clew"

// serverGo renders internal/lsp/server.go. initBody is Initialize's body;
// late switches to the version after the anchors were pinned: Shutdown's
// body changed, Start renamed to Run, Legacy deleted.
func serverGo(initBody string, late bool) string {
	shutdown := "\ts.closed = true\n\ts.loaded = 0\n\treturn nil\n"
	start := "// Start serves requests until the connection closes.\nfunc (s *Server) Start(ctx context.Context) error {\n\t<-ctx.Done()\n\treturn ctx.Err()\n}\n"
	legacy := "\n// Legacy speaks LSP 2 to old clients.\nfunc (s *Server) Legacy() string {\n\treturn fmt.Sprintf(\"legacy %d\", s.loaded)\n}\n"
	if late {
		shutdown = "\ts.closed = true\n\ts.loaded = -1\n\tfmt.Println(\"flushed pending diagnostics\")\n\treturn nil\n"
		start = strings.Replace(start, "Start serves", "Run serves", 1)
		start = strings.Replace(start, ") Start(", ") Run(", 1)
		legacy = ""
	}
	return `package lsp

import (
	"context"
	"fmt"
)

// Server is the clew language server.
type Server struct {
	root   string
	loaded int
	closed bool
}

// Initialize answers the client's initialize request: it loads the
// workspace and advertises what is implemented.
func (s *Server) Initialize(ctx context.Context, root string) (string, error) {
` + initBody + `}

// Shutdown stops the server after the client asked it to.
func (s *Server) Shutdown(ctx context.Context) error {
` + shutdown + `}

` + start + legacy + `
func helper() {
	_ = fmt.Sprint("gc percent", 400)
}
`
}

var initBodies = []string{
	"\tif root == \"\" {\n\t\treturn \"\", fmt.Errorf(\"no root\")\n\t}\n\ts.root = root\n\thelper()\n\treturn \"ok\", nil\n",
	"\tif root == \"\" {\n\t\treturn \"\", fmt.Errorf(\"load %s: no root\", root)\n\t}\n\ts.root = root\n\thelper()\n\treturn \"ok\", nil\n",
	"\tif root == \"\" {\n\t\treturn \"\", fmt.Errorf(\"load %s: no root\", root)\n\t}\n\ts.root = root\n\ts.loaded++\n\thelper()\n\treturn \"ok\", nil\n",
}

var bFiles = map[string]string{
	"go.mod": "module " + bModule + "\n\ngo 1.22\n",
	"internal/lsp/server_test.go": `package lsp

import (
	"context"
	"testing"
)

func TestInitialize(t *testing.T) {
	s := &Server{}
	if _, err := s.Initialize(context.Background(), "/tmp"); err != nil {
		t.Fatal(err)
	}
}
`,
	"internal/cmd/main.go": `package main

import (
	"context"
	"log"

	"example.com/clew/internal/lsp"
)

func main() {
	s := &lsp.Server{}
	if _, err := s.Initialize(context.Background(), "."); err != nil {
		log.Fatal(err)
	}
}
`,
	"docs/lsp.md": `# The language server

How the server starts, runs and stops.

## Initialize

Initialize loads the workspace once and advertises only what is implemented.
<!-- @code method Server.Initialize internal/lsp/server.go -->

## Shutdown

Shutdown flushes pending diagnostics before it closes.
<!-- @code method Server.Shutdown internal/lsp/server.go -->

## Start

Start serves until the connection closes.
<!-- @code method Server.Start internal/lsp/server.go -->

## Legacy mode

Legacy mode speaks LSP 2; Shutdown used to drain legacy clients.
<!-- @code method Server.Legacy internal/lsp/server.go -->
`,
	"docs/ops.md": "# Operations\n\nWhen Initialize fails the editor shows the error; restart the server after fixing the workspace.\n",
	"docs/adr/0001-init.md": `---
id: adr-0001
status: superseded
---
# Index eagerly at initialize

<!-- @code method Server.Initialize internal/lsp/server.go -->
`,
	"docs/adr/0002-init-v2.md": `---
id: adr-0002
status: accepted
supersedes: adr-0001
---
# Index lazily after initialize

Initialize returns before indexing finishes.
<!-- @code method Server.Initialize internal/lsp/server.go -->
`,
	"AGENTS.md":          "# Agents\n\nRun `go test ./...` before you commit. Never write files outside the workspace.\n",
	"internal/AGENTS.md": "# Agents in internal/\n\nPure packages import no os.\n",
	"README.md":          "# clew-lsp\n\nA language server that keeps docs honest. The server's Initialize loads the workspace.\n",
}

// bURIs are the fixture's identifiers.
var (
	bServer     = devcontext.SymbolURI(bModule+"/internal/lsp", "Server")
	bInitialize = devcontext.SymbolURI(bModule+"/internal/lsp", "Server.Initialize")
	bShutdown   = devcontext.SymbolURI(bModule+"/internal/lsp", "Server.Shutdown")
	bRun        = devcontext.SymbolURI(bModule+"/internal/lsp", "Server.Run")
	bHelper     = devcontext.SymbolURI(bModule+"/internal/lsp", "helper")
	bLegacy     = devcontext.SymbolURI(bModule+"/internal/lsp", "Server.Legacy")
	bMain       = devcontext.SymbolURI(bModule+"/internal/cmd", "main")
	bTestInit   = devcontext.TestURI(bModule+"/internal/lsp", "TestInitialize")
	bServerFile = devcontext.FileURI("internal/lsp/server.go")
	bPInit      = devcontext.PassageURI("docs/lsp.md", "Server.Initialize", 1)
	bPShutdown  = devcontext.PassageURI("docs/lsp.md", "Server.Shutdown", 1)
	bPStart     = devcontext.PassageURI("docs/lsp.md", "Server.Start", 1)
	bPLegacy    = devcontext.PassageURI("docs/lsp.md", "Server.Legacy", 1)
	bADR1       = devcontext.ADRURI("adr-0001")
	bADR2       = devcontext.ADRURI("adr-0002")
	bOps        = devcontext.DocURI("docs/ops.md")
	bLspDoc     = devcontext.DocURI("docs/lsp.md")
	bReadme     = devcontext.ReadmeURI("README.md")
	bRootAgents = devcontext.AgentsURI(".")
	bIntAgents  = devcontext.AgentsURI("internal")
)

func bClaim(id string) string { return devcontext.ClaimURI(id) }

// bFixture is the repository and its commits (newest last).
type bFixture struct {
	r       *wstest.Repo
	commits []string // the three commits that touched Initialize, oldest first
	snap    *workspace.Snapshot
}

// newBFixture builds the repository: three commits change Initialize, the
// anchors are pinned, then Shutdown's body changes, Start becomes Run and
// Legacy goes (one commit). The claims hook serves the fixture's claims
// for as long as the test runs.
func newBFixture(t *testing.T) *bFixture {
	t.Helper()
	f := &bFixture{r: wstest.New(t)}
	f.r.Write(bFiles)
	for i, body := range initBodies {
		f.r.Write(map[string]string{"internal/lsp/server.go": serverGo(body, false)})
		f.commits = append(f.commits, f.r.Commit([]string{"lsp: first Initialize", "lsp: report load errors with the root", "lsp: count loads"}[i]))
	}
	rep := check(t, f.r.Dir, workspace.CheckOptions{})
	res := rep.Confirm(nil, true)
	if len(res.Refused) > 0 {
		t.Fatalf("pinning refused: %+v", res.Refused)
	}
	files, _, err := disk.Open(f.r.Dir)
	if err != nil {
		t.Fatal(err)
	}
	for _, de := range res.Edits {
		if err := files.WriteFile(de.Doc, de.Apply([]byte(f.r.Read(de.Doc)))); err != nil {
			t.Fatal(err)
		}
	}
	f.r.Commit("docs: pin the anchors")
	f.r.Write(map[string]string{"internal/lsp/server.go": serverGo(initBodies[2], true)})
	f.r.Commit("lsp: flush on shutdown, Start is Run, no legacy mode")
	t.Cleanup(contextmap.SetClaims(bClaims))
	f.snap = f.load(t)
	return f
}

func (f *bFixture) load(t *testing.T) *workspace.Snapshot {
	t.Helper()
	snap, err := disk.Load(f.r.Dir)
	if err != nil {
		t.Fatal(err)
	}
	return snap
}

// lineOf is the 1-based line of the first line of p holding sub.
func lineOf(t *testing.T, snap *workspace.Snapshot, p, sub string) int {
	t.Helper()
	b, _ := snap.ReadFile(p)
	for i, l := range strings.Split(string(b), "\n") {
		if strings.Contains(l, sub) {
			return i + 1
		}
	}
	t.Fatalf("%s holds no %q", p, sub)
	return 0
}

// bClaims are the fixture's claims rows (INV-1 … INV-6), as the claims
// engine would report them.
func bClaims(_ context.Context, s *workspace.Snapshot, _ *workspace.Report) ([]contextmap.Claim, error) {
	lsp := []string{"internal/lsp/server.go", "internal/lsp/server_test.go"}
	b, _ := s.ReadFile("internal/lsp/server.go")
	pinLine := 0
	for i, l := range strings.Split(string(b), "\n") {
		if strings.Contains(l, "s.root = root") {
			pinLine = i + 1
		}
	}
	row := func(id, statement, state string) string {
		return "| " + id + " | " + statement + " | team | " + state + " | 2026-01-10 | |"
	}
	return []contextmap.Claim{
		{ID: "INV-1", Statement: "Initialize records the root", State: "active", Authority: "team", Worst: "ok",
			Text: row("INV-1", "Initialize records the root", "active") + "\n<!-- @anchor INV-1 clew:internal/lsp/*.go /s\\.root = root/ -->",
			Legs: []contextmap.Leg{{Mode: "present", State: "ok", Gating: true, Files: lsp,
				Matches: []contextmap.Match{{Path: "internal/lsp/server.go", Line: pinLine}}}}},
		{ID: "INV-2", Statement: "internal code never logs", State: "proposed", Authority: "team",
			Text: row("INV-2", "internal code never logs", "proposed"),
			Legs: []contextmap.Leg{{Mode: "absent", State: "ok", Files: append(lsp, "internal/cmd/main.go")}}},
		{ID: "INV-3", Statement: "nothing lives under nothing/", State: "active", Worst: "vacuous",
			Text: row("INV-3", "nothing lives under nothing/", "active"),
			Legs: []contextmap.Leg{{Mode: "present", State: "vacuous", Gating: true}}},
		{ID: "INV-4", Statement: "no global logger", State: "retired",
			Text: row("INV-4", "no global logger", "retired"),
			Legs: []contextmap.Leg{{Mode: "absent", State: "ok", Gating: true, Files: lsp}}},
		{ID: "INV-5", Statement: "a Start method exists", State: "retired",
			Text: row("INV-5", "a Start method exists", "retired"),
			Legs: []contextmap.Leg{{Mode: "present", State: "broken", Files: lsp}}},
		{ID: "INV-6", Statement: "handlers never block", State: "drift",
			Text: row("INV-6", "handlers never block", "drift"),
			Legs: []contextmap.Leg{{Mode: "absent", State: "ok", Files: lsp}}},
	}, nil
}

// compile runs a request over the snapshot and fails the test on error.
func compile(t *testing.T, snap *workspace.Snapshot, r devcontext.Request) devcontext.CompiledContext {
	t.Helper()
	c, err := contextmap.Compile(context.Background(), snap, r)
	if err != nil {
		t.Fatalf("Context: %v", err)
	}
	return c
}

func at(p string, line int) devcontext.Request {
	return devcontext.Request{Position: &devcontext.Position{Path: p, Line: line}}
}

func (f *bFixture) in(t *testing.T, symbol string) devcontext.Request {
	return at("internal/lsp/server.go", lineOf(t, f.snap, "internal/lsp/server.go", symbol)+1)
}

func entry(c devcontext.CompiledContext, uri string) *devcontext.Entry {
	for i := range c.Selected {
		if c.Selected[i].URI == uri {
			return &c.Selected[i]
		}
	}
	return nil
}

func excluded(c devcontext.CompiledContext, uri string) *devcontext.Excluded {
	for i := range c.Excluded {
		if c.Excluded[i].URI == uri {
			return &c.Excluded[i]
		}
	}
	return nil
}

func hasDiagnostic(c devcontext.CompiledContext, code, sub string) bool {
	for _, d := range c.Diagnostics {
		if d.Code == code && strings.Contains(d.Message, sub) {
			return true
		}
	}
	return false
}

func budgetOf(n uint64) *uint64 { return &n }

func encode(t *testing.T, v any) []byte {
	t.Helper()
	b, err := devcontext.Encode(v)
	if err != nil {
		t.Fatal(err)
	}
	return b
}
