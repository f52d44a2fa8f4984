package devcontext

import (
	"crypto/sha256"
	"encoding/hex"
	"path"
	"strings"
)

// Builder assembles a World by hand, for tests and examples; the workspace
// layer fills a World from a snapshot instead. Each method adds one node (and
// the fingerprint input for a file it stands for) and returns its URI, so
// edges read naturally: b.Calls(caller, callee).
type Builder struct {
	module  string
	w       World
	at      map[string]int // uri → index in w.Nodes
	partOf  [][2]string    // passage → doc, drawn at Build when the doc exists
	content map[string]string
}

// NewBuilder starts a world for a Go module (import paths of symbols are
// module + "/" + directory). Git defaults to branch main, a fixed head, clean.
func NewBuilder(module string) *Builder {
	return &Builder{module: module, at: map[string]int{}, content: map[string]string{},
		w: World{Git: Git{Branch: "main", Head: strings.Repeat("ab12", 10), WorkingTree: "clean"}}}
}

// Node adds a node as given.
func (b *Builder) Node(n Node) string {
	if i, ok := b.at[n.URI]; ok {
		b.w.Nodes[i] = n
	} else {
		b.at[n.URI] = len(b.w.Nodes)
		b.w.Nodes = append(b.w.Nodes, n)
	}
	return n.URI
}

// Get returns the node with that URI for further changes (nil if absent).
func (b *Builder) Get(uri string) *Node {
	if i, ok := b.at[uri]; ok {
		return &b.w.Nodes[i]
	}
	return nil
}

// Git sets the repository state.
func (b *Builder) Git(g Git) *Builder { b.w.Git = g; return b }

// Diagnostic adds a workspace diagnostic carried into every answer.
func (b *Builder) Diagnostic(d Diagnostic) { b.w.Diagnostics = append(b.w.Diagnostics, d) }

// Content records a file's content for the fingerprint (a hash of it).
func (b *Builder) Content(p, content string) {
	b.content[p] = content
	b.setHash(p, content, false)
}

// Overlay records an unsaved editor buffer for p.
func (b *Builder) Overlay(p, content string) { b.setHash(p, content, true) }

func (b *Builder) setHash(p, content string, overlay bool) {
	sum := sha256.Sum256([]byte(content))
	h := FileHash{Path: p, Hash: hex.EncodeToString(sum[:6]), Overlay: overlay}
	for i := range b.w.Files {
		if b.w.Files[i].Path == p {
			b.w.Files[i] = h
			return
		}
	}
	b.w.Files = append(b.w.Files, h)
}

func (b *Builder) importPath(p string) string {
	if d := path.Dir(p); d != "." {
		return b.module + "/" + d
	}
	return b.module
}

// File adds a source file with its content.
func (b *Builder) File(p, content string) string {
	b.Content(p, content)
	return b.Node(Node{URI: FileURI(p), Kind: KindFile, Title: path.Base(p), Path: p, Text: content})
}

// Symbol adds a declaration at lines start..end of p; text is its source
// (declaration and doc comment), which is also its cost.
func (b *Builder) Symbol(p, qname string, start, end int, text string) string {
	return b.Node(Node{URI: SymbolURI(b.importPath(p), qname), Kind: KindSymbol, Title: qname, Name: qname, Path: p,
		Range: &Range{StartLine: start, EndLine: end}, Text: text})
}

// Test adds a test function; tested names the declarations it exercises.
func (b *Builder) Test(p, name string, start, end int, text string, tested ...string) string {
	u := b.Node(Node{URI: TestURI(b.importPath(p), name), Kind: KindTest, Title: name, Name: name, Path: p,
		Range: &Range{StartLine: start, EndLine: end}, Text: text})
	for _, t := range tested {
		b.Edge(EdgeTestedBy, t, u)
	}
	return u
}

// Doc adds a Markdown file.
func (b *Builder) Doc(p, text string) string {
	b.Content(p, text)
	return b.Node(Node{URI: DocURI(p), Kind: KindDoc, Title: path.Base(p), Path: p, Text: text})
}

// Readme adds a README.
func (b *Builder) Readme(p, text string) string {
	b.Content(p, text)
	return b.Node(Node{URI: ReadmeURI(p), Kind: KindReadme, Title: p, Path: p, Text: text})
}

// Agents adds an AGENTS.md in dir ("." for the root).
func (b *Builder) Agents(dir, text string) string {
	p := path.Join(dir, "AGENTS.md")
	b.Content(p, text)
	return b.Node(Node{URI: AgentsURI(dir), Kind: KindAgents, Title: p, Path: p, Text: text})
}

// ADR adds a decision record with front matter id and status; it
// supersedes the ADRs whose ids follow.
func (b *Builder) ADR(p, id, status, text string, supersedes ...string) string {
	b.Content(p, text)
	u := b.Node(Node{URI: ADRURI(id), Kind: KindADR, Title: id, Path: p, Status: status, Text: text,
		Aliases: []string{ADRURI(strings.TrimSuffix(path.Base(p), path.Ext(p)))}})
	for _, old := range supersedes {
		b.Edge(EdgeSupersede, u, ADRURI(old))
	}
	return u
}

// Passage adds the n-th passage of doc anchored to qname; target is the URI
// the anchor resolves to (it may name nothing when the anchor is lost).
func (b *Builder) Passage(doc, qname string, n int, target string, state AnchorState, text string) string {
	u := b.Node(Node{URI: PassageURI(doc, qname, n), Kind: KindPassage, Title: doc + " › " + qname, Path: doc,
		Section: qname, Anchor: state, Text: text})
	if target != "" {
		b.Edge(EdgeAnchors, u, target)
	}
	b.partOf = append(b.partOf, [2]string{u, DocURI(doc)})
	return u
}

// Claim adds a claims row; gating says some leg of it gates somewhere.
func (b *Builder) Claim(id, state, text string, gating bool) string {
	facts := map[string]string{}
	if state != "" {
		facts["state"] = state
	}
	return b.Node(Node{URI: ClaimURI(id), Kind: KindClaim, Title: id, Path: ".multivac/invariants.md", Status: state,
		Text: text, Gating: gating, Facts: facts})
}

// Commit adds a commit; date orders the newest first.
func (b *Builder) Commit(sha, date, subject string) string {
	return b.Node(Node{URI: CommitURI(sha), Kind: KindCommit, Title: subject, Version: date, Text: subject})
}

// Local adds the uncommitted change of p with its changed lines.
func (b *Builder) Local(p string, hunks ...Range) string {
	return b.Node(Node{URI: LocalDiffURI(p), Kind: KindLocal, Title: "uncommitted change to " + p, Path: p,
		Hunks: hunks, Bytes: 200})
}

// Edge adds one declared fact.
func (b *Builder) Edge(kind, from, to string) {
	b.w.Edges = append(b.w.Edges, Edge{Kind: kind, From: from, To: to})
}

// Calls, Covers and Pins are the common edges.
func (b *Builder) Calls(caller, callee string) { b.Edge(EdgeCalls, caller, callee) }

// Covers says a leg of claim matches file by glob.
func (b *Builder) Covers(claim, file string, gating bool) {
	b.w.Edges = append(b.w.Edges, Edge{Kind: EdgeCovers, From: claim, To: file, Gating: gating})
}

// Pins says a leg of claim matches inside the declaration sym.
func (b *Builder) Pins(claim, sym string, gating bool) {
	b.w.Edges = append(b.w.Edges, Edge{Kind: EdgePins, From: claim, To: sym, Gating: gating})
}

// Build returns the world; the builder can keep going afterwards.
func (b *Builder) Build() World {
	w := b.w
	w.Nodes = append([]Node(nil), b.w.Nodes...)
	w.Edges = append([]Edge(nil), b.w.Edges...)
	w.Files = append([]FileHash(nil), b.w.Files...)
	for _, po := range b.partOf {
		if _, ok := b.at[po[1]]; ok {
			w.Edges = append(w.Edges, Edge{Kind: EdgePartOf, From: po[0], To: po[1]})
		}
	}
	return w
}

// Texts returns every node's text by URI, what Markdown shows for entries.
func (b *Builder) Texts() map[string]string { return Texts(b.Build()) }

// Texts collects the nodes' own texts by URI, as the answer presents
// them: a doc's without its stale or lost passages.
func Texts(w World) map[string]string {
	p := Prepare(w)
	m := map[string]string{}
	for _, n := range p.ix.nodes {
		if n != nil && n.Text != "" {
			m[n.URI] = n.Text
		}
	}
	return m
}
