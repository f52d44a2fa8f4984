package devcontext

import "strings"

// tour is the Part B fixture of the public cases: a small Go module with
// anchored docs, ADRs, claims, AGENTS.md files and git history.
type tour struct {
	b                                    *Builder
	server, initialize, shutdown, run    string
	helper, testInit, mainFn, serverFile string
	testFile, mainFile                   string
	pInit, pShutdown, pStart, pLegacy    string
	legacy                               string
	adr1, adr2, ops, lspDoc, readme      string
	inv1, inv2, inv3, inv4, inv5, inv6   string
	rootAgents, internalAgents           string
	commits                              []string
}

const (
	srcServer = `// Server is the clew language server.
type Server struct {
	conn   *jsonrpc2.Conn
	ws     *workspace.Session
	closed bool
}`
	srcInitialize = `// Initialize answers the client's initialize request: it loads the
// workspace, indexes declarations and anchors, and advertises what is
// implemented.
func (s *Server) Initialize(ctx context.Context, p *protocol.InitializeParams) (*protocol.InitializeResult, error) {
	root, err := rootOf(p)
	if err != nil {
		return nil, err
	}
	s.ws, err = workspace.Load(ctx, root)
	if err != nil {
		return nil, fmt.Errorf("load %s: %w", root, err)
	}
	helper()
	return &protocol.InitializeResult{Capabilities: capabilities()}, nil
}`
	srcShutdown = `// Shutdown stops the server after the client asked it to.
func (s *Server) Shutdown(ctx context.Context) error {
	s.closed = true
	return s.ws.Close()
}`
	srcRun = `// Run serves requests until the connection closes.
func (s *Server) Run(ctx context.Context) error {
	<-s.conn.Done()
	return s.conn.Err()
}`
	srcHelper = `func helper() { debug.SetGCPercent(400) }`
	srcTest   = `func TestInitialize(t *testing.T) {
	s := &Server{}
	if _, err := s.Initialize(context.Background(), params(t)); err != nil {
		t.Fatal(err)
	}
}`
	srcMain = `func main() {
	s := lsp.NewServer(os.Stdin, os.Stdout)
	if _, err := s.Initialize(context.Background(), nil); err != nil {
		log.Fatal(err)
	}
}`
)

func newTour() *tour {
	b := NewBuilder("example.com/clew")
	t := &tour{b: b}
	t.serverFile = b.File("internal/lsp/server.go", "package lsp\n\n"+strings.Join([]string{srcServer, srcInitialize, srcShutdown, srcRun, srcHelper}, "\n\n"))
	t.testFile = b.File("internal/lsp/server_test.go", "package lsp\n\n"+srcTest)
	t.mainFile = b.File("internal/cmd/main.go", "package main\n\n"+srcMain)

	t.server = b.Symbol("internal/lsp/server.go", "Server", 10, 20, srcServer)
	b.Get(t.server).Range = &Range{StartLine: 10, EndLine: 20}
	t.initialize = b.Symbol("internal/lsp/server.go", "Server.Initialize", 40, 80, srcInitialize)
	t.shutdown = b.Symbol("internal/lsp/server.go", "Server.Shutdown", 82, 95, srcShutdown)
	t.run = b.Symbol("internal/lsp/server.go", "Server.Run", 97, 110, srcRun)
	t.helper = b.Symbol("internal/lsp/server.go", "helper", 112, 120, srcHelper)
	for _, m := range []string{t.initialize, t.shutdown, t.run} {
		b.Edge(EdgeMethodOf, m, t.server)
	}
	b.Calls(t.initialize, t.helper)
	t.testInit = b.Test("internal/lsp/server_test.go", "TestInitialize", 5, 20, srcTest, t.initialize)
	b.Calls(t.testInit, t.initialize)
	t.mainFn = b.Symbol("internal/cmd/main.go", "main", 5, 15, srcMain)
	b.Calls(t.mainFn, t.initialize)

	t.lspDoc = b.Doc("docs/lsp.md", "# The language server\n\nHow the server starts, runs and stops.\n")
	t.pInit = b.Passage("docs/lsp.md", "Server.Initialize", 1, t.initialize, AnchorFresh,
		"## Initialize\n\n<!-- @code method Server.Initialize internal/lsp/server.go sha=0123456789ab -->\n\nInitialize loads the workspace once and advertises only what is implemented.\n")
	t.pShutdown = b.Passage("docs/lsp.md", "Server.Shutdown", 1, t.shutdown, AnchorStale,
		"## Shutdown\n\n<!-- @code method Server.Shutdown internal/lsp/server.go sha=aaaaaaaaaaaa -->\n\nShutdown flushes pending diagnostics before it closes.\n")
	b.Get(t.pShutdown).AnchorDetail = "body_changed"
	t.pStart = b.Passage("docs/lsp.md", "Server.Start", 1, t.run, AnchorMoved,
		"## Start\n\n<!-- @code method Server.Start internal/lsp/server.go sha=bbbbbbbbbbbb -->\n\nStart serves until the connection closes.\n")
	b.Get(t.pStart).AnchorDetail = "renamed to Server.Run"
	t.legacy = SymbolURI("example.com/clew/internal/lsp", "Server.Legacy")
	t.pLegacy = b.Passage("docs/lsp.md", "Server.Legacy", 1, t.legacy, AnchorLost,
		"## Legacy mode\n\n<!-- @code method Server.Legacy internal/lsp/server.go sha=cccccccccccc -->\n\nLegacy mode speaks LSP 2.\n")
	b.Get(t.pLegacy).AnchorDetail = "declaration_missing"

	t.ops = b.Doc("docs/ops.md", "# Operations\n\nWhen Initialize fails the editor shows the error; restart the server after fixing the workspace.\n")
	t.adr1 = b.ADR("docs/adr/0001-init.md", "adr-0001", "superseded",
		"---\nid: adr-0001\nstatus: superseded\n---\n# Index eagerly at initialize\n")
	t.adr2 = b.ADR("docs/adr/0002-init-v2.md", "adr-0002", "accepted",
		"---\nid: adr-0002\nstatus: accepted\nsupersedes: adr-0001\n---\n# Index lazily after initialize\n\nInitialize returns before indexing finishes.\n", "adr-0001")
	b.Edge(EdgeDecides, t.adr1, t.initialize)
	b.Edge(EdgeDecides, t.adr2, t.initialize)

	t.inv1 = b.Claim("INV-1", "active", "| INV-1 | Initialize loads the workspace exactly once | team | active | 2026-01-10 | docs/lsp.md |\n<!-- @anchor INV-1 clew:internal/lsp/*.go /workspace\\.Load/ -->", true)
	t.inv2 = b.Claim("INV-2", "proposed", "| INV-2 | internal code never logs to stdout | team | proposed | 2026-02-01 | |\n<!-- @anchor INV-2 clew:internal/** /fmt\\.Print/ absent -->", false)
	t.inv3 = b.Claim("INV-3", "active", "| INV-3 | nothing lives under nothing/ | team | active | 2026-02-02 | |\n<!-- @anchor INV-3 clew:nothing/** /x/ -->", true)
	b.Get(t.inv3).Facts["worst_leg"] = "vacuous"
	t.inv4 = b.Claim("INV-4", "retired", "| INV-4 | no global logger | team | retired | 2025-12-01 | |\n<!-- @anchor INV-4 clew:internal/lsp/*.go /log\\.Default/ absent -->", true)
	t.inv5 = b.Claim("INV-5", "retired", "| INV-5 | a Start method exists | team | retired | 2025-12-01 | |\n<!-- @anchor INV-5 clew:internal/lsp/*.go /func \\(s \\*Server\\) Start/ -->", false)
	t.inv6 = b.Claim("INV-6", "drift", "| INV-6 | handlers never block | team | drift | 2026-03-01 | |\n<!-- @anchor INV-6 clew:internal/lsp/*.go /time\\.Sleep/ absent -->", false)
	for _, f := range []string{t.serverFile, t.testFile} {
		b.Covers(t.inv1, f, true)
		b.Covers(t.inv2, f, false)
		b.Covers(t.inv4, f, true)
		b.Covers(t.inv5, f, false)
		b.Covers(t.inv6, f, false)
	}
	b.Covers(t.inv2, t.mainFile, false)
	b.Pins(t.inv1, t.initialize, true)

	t.rootAgents = b.Agents(".", "# Agents\n\nRun `go test ./...` before you commit. Never write files outside the workspace.\n")
	t.internalAgents = b.Agents("internal", "# Agents in internal/\n\nPure packages import no os.\n")
	t.readme = b.Readme("README.md", "# clew-lsp\n\nA language server that keeps docs honest. The server's Initialize loads the workspace.\n")

	for i, c := range []struct{ sha, date, subject string }{
		{"1111111111111111111111111111111111111111", "2026-03-01T10:00:00Z", "lsp: index lazily after initialize"},
		{"2222222222222222222222222222222222222222", "2026-02-01T10:00:00Z", "lsp: report load errors with the root"},
		{"3333333333333333333333333333333333333333", "2026-01-01T10:00:00Z", "lsp: first Initialize"},
	} {
		t.commits = append(t.commits, b.Commit(c.sha, c.date, c.subject))
		b.Edge(EdgeChangedIn, t.initialize, t.commits[i])
	}
	return t
}

func (t *tour) world() World { return t.b.Build() }

// at is a request at a position in the tour, with knobs.
func at(path string, line int) Request {
	return Request{Position: &Position{Path: path, Line: line}}
}

func inInitialize() Request { return at("internal/lsp/server.go", 50) }
