package devcontext

// Node kinds the compiler knows. Any other word is accepted: it lands in the
// history tier and is never governance (an unknown kind must not gate).
const (
	KindSymbol  = "symbol"  // a declaration: function, method, type, …
	KindFile    = "file"    // a source file
	KindTest    = "test"    // a test function
	KindPassage = "passage" // the doc text a @code anchor binds to code
	KindDoc     = "doc"     // a Markdown file
	KindReadme  = "readme"  // a README
	KindADR     = "adr"     // a decision record (front matter id/status/supersedes)
	KindAgents  = "agents"  // an AGENTS.md; identity is its directory
	KindClaim   = "claim"   // a row of .multivac/invariants.md
	KindCommit  = "commit"  // a git commit
	KindLocal   = "local"   // an uncommitted working-tree change (local:diff/<path>)
	// KindOutline is an entry, never a node: a declaration given by its
	// signature line only (outline.go).
	KindOutline = "outline"
	// KindSkeleton is an entry, never a node: a seed declaration given by
	// its signature and those of the declarations inside it (skeleton.go).
	KindSkeleton = "skeleton"
)

// AnchorState is the state of a passage's @code anchor (docs/anchors.md).
type AnchorState string

const (
	AnchorFresh     AnchorState = "fresh"
	AnchorStale     AnchorState = "stale"
	AnchorMoved     AnchorState = "moved-renamed"
	AnchorLost      AnchorState = "lost"
	AnchorUnpinned  AnchorState = "unpinned"
	AnchorUnchecked AnchorState = "unchecked"
)

// World is everything the compiler may read: an in-memory graph the
// workspace layer builds from one snapshot. The compiler never mutates it and
// its answer does not depend on the order of Nodes, Edges or Files.
type World struct {
	Nodes []Node
	// Shared are more nodes, by pointer, read like Nodes (the first of a
	// duplicate URI wins, Nodes before Shared): a caller that builds many
	// worlds from the same parts lists them here instead of copying them
	// into every world (the workspace layer keeps one node per declaration
	// of a parsed file per Load). Nothing in this package writes through
	// them; the caller must not change them while a Prepared of the world
	// is in use. A nil entry is ignored.
	Shared []*Node
	Edges  []Edge
	Git    Git
	// Files are the (path, content hash) pairs the fingerprint is computed
	// over: every indexed file, with the hash of the editor's unsaved buffer
	// where one exists, so the answer is true of what the editor shows.
	Files []FileHash
	// Fingerprint, when set, is Fingerprint(Files), computed by the
	// caller: one that prepares many worlds over the same Files (the
	// workspace layer, once per snapshot) hashes them once. Prepare
	// takes it as given; empty means Prepare computes it.
	Fingerprint string
	// Diagnostics the workspace layer wants carried into every answer
	// (a file it could not read, git it could not ask).
	Diagnostics []Diagnostic
}

// Node is one object of the world, keyed by its canonical URI
// (clew://<kind>/<identity>, see uri.go).
type Node struct {
	URI   string
	Kind  string
	Title string
	// Name is the qualified name of a symbol or test ("Server.Initialize").
	// Its last two segments are the intent terms the cursor contributes.
	Name string
	// Path is repository-relative with forward slashes; empty for commits.
	Path    string
	Section string // heading of a passage
	// Range is where a symbol or test is declared; the cursor seed is the
	// innermost Range containing the position.
	Range *Range
	// Hunks are the changed lines of a local record, in the new text.
	Hunks []Range
	// Bytes is the cost. When 0, the cost is len(Text).
	Bytes int
	// Text is the node's own words, searched by the intent selector (docs,
	// readmes, ADRs, passages) and the cost when Bytes is 0. It is not carried
	// into the answer.
	Text string
	// Outline is a symbol's or test's signature line (one line, no body):
	// what an outline entry shows and costs. Empty: no outline.
	Outline string
	Status  string // declared status word: ADR status, claim row state, …
	Version string // declared updated_at/version/date; commits: ISO date (newest first)
	Facts   map[string]string
	// Anchor is the state of a passage's @code anchor; AnchorDetail its
	// reason (body_changed, declaration_missing, …) for the exclusion detail.
	Anchor       AnchorState
	AnchorDetail string
	// DocLines are the lines of its doc's Text a passage covers (1-based,
	// inclusive), so a doc selected whole can leave a stale passage out.
	// Without them the passage is found by its Text.
	DocLines *Range
	// Gating is set on a claim that has at least one gating leg anywhere
	// (what all_blocking_claims selects). Which file or symbol a gating leg
	// covers is on the edge (Edge.Gating).
	Gating bool
	// Aliases are other names a request's uris may use for the node (an ADR's
	// file stem when its front matter declares an id). The seed then carries
	// `resolved`.
	Aliases []string
	// Cites are commits this record names as its evidence; selected entries'
	// cites become git.commits.
	Cites []Cite
}

// Cite is one commit a record names, with what it says the commit was for.
type Cite struct {
	Commit string
	Covers string
}

// Range is a span of 1-based lines and columns, inclusive. A column of 0
// means the whole line (start of line for StartCol, end for EndCol).
type Range struct {
	StartLine, StartCol int
	EndLine, EndCol     int
}

// Edge is one declared fact between two nodes, stored once in its forward
// direction (see the edge table in policy.go: anchors is passage → symbol,
// calls is caller → callee, changed_in is symbol → commit, …). The walk
// follows it both ways with the direction's weight. An endpoint that is not
// a node is a dangling reference: reached, it is excluded as unresolved.
type Edge struct {
	Kind     string
	From, To string
	// Gating marks a claim leg (covers, pins) that gates: the claim is then
	// required whenever the file or symbol it lands on is in scope.
	Gating bool
	// Strength scales a measured edge's weights (co_changed: the share of
	// the file's recent commits that also changed the target), in (0, 1];
	// 0 means 1. Ignored on other kinds.
	Strength float64
	// FromNode and ToNode, when > 0, say where the ends are as nodes:
	// 1 + the index in World.Shared of the node whose URI is From (To).
	// A caller that knows them spares Prepare a lookup by URI per end. A
	// hint that is out of range or names a node of another URI is
	// ignored (the end is looked up by URI), so a hint never changes the
	// answer; 0 is no hint.
	FromNode, ToNode int32
}

// Git is the repository state the snapshot was taken at.
type Git struct {
	Branch      string // empty when detached or unknown
	Head        string // full sha; empty when unknown
	WorkingTree string // "clean", "dirty", or git's word; forced "dirty" by an overlay
	// Unavailable, when set, says why git could not be asked; the answer then
	// reports "unavailable: <reason>" and no branch or head.
	Unavailable string
}

// FileHash is one fingerprint input. Overlay marks an unsaved editor buffer.
type FileHash struct {
	Path    string
	Hash    string
	Overlay bool
}

// CostBytes is what the node costs: Bytes, else the length of its Text.
func (n *Node) CostBytes() int {
	if n.Bytes > 0 {
		return n.Bytes
	}
	return len(n.Text)
}
