package devcontext

import "sort"

// Built-in numbers (docs/context.md). They are published by Policy so a caller
// reads them instead of inferring them.
const (
	Schema              = 1
	BytesPerToken       = 4
	DefaultBudgetTokens = 24000
	DefaultMaxDepth     = 3
	DefaultFloor        = 0.25
	// MaxCommitsPerNode caps changed_in: only the newest few commits that
	// touched a declaration are history worth reading.
	MaxCommitsPerNode = 5
)

// Base relevance of the fixed selectors.
const (
	relSeed            = 1.0
	relScopePath       = 0.8
	relContract        = 0.85
	relRootAgents      = 1.0
	relBlockingClaim   = 0.6
	relLocalInSymbol   = 0.95
	relLocalInFile     = 0.6
	relIntentFull      = 0.6
	confIntentFull     = 0.9 // an inference stays below a declaration's 1
	confDeclared       = 1.0
	depthFixedSelector = 1
)

// TokensFor estimates tokens from bytes: ceil(bytes/4), never below 1, so
// every entry costs something.
func TokensFor(bytes int) uint64 {
	if bytes <= 0 {
		return 1
	}
	return (uint64(bytes) + BytesPerToken - 1) / BytesPerToken
}

// Tier is where an entry's cost is spent from; tiers are spent in order.
type Tier string

const (
	TierTask       Tier = "task"
	TierGovernance Tier = "governance"
	TierSource     Tier = "source"
	TierDecision   Tier = "decision"
	TierKnowledge  Tier = "knowledge"
	TierHistory    Tier = "history"
	TierOutline    Tier = "outline"
)

// Tiers lists the seven tiers in spend order.
var Tiers = []Tier{TierTask, TierGovernance, TierSource, TierDecision, TierKnowledge, TierHistory, TierOutline}

var tierMeaning = map[Tier]string{
	TierTask:       "what was asked for: the declaration or file at the cursor, named uris — never dropped",
	TierGovernance: "what the work is judged against: claims over the file, AGENTS.md",
	TierSource:     "the code and tests the work touches",
	TierDecision:   "decisions and doc passages bound to the code",
	TierKnowledge:  "docs that mention it, uncommitted changes",
	TierHistory:    "supporting evidence: commits that touched it, the rest",
	TierOutline:    "signature lines of related declarations not given in full: fills what is left",
}

// tierPos is the 1-based spend position; unknown tiers sort last.
func tierPos(t Tier) int {
	for i, x := range Tiers {
		if x == t {
			return i + 1
		}
	}
	return len(Tiers) + 1
}

// tierKinds is the clew mapping of kinds onto tiers (docs/context.md). A seed is
// task whatever its kind; no kind is task by nature.
var tierKinds = map[Tier][]string{
	TierGovernance: {KindAgents, KindClaim},
	TierSource:     {KindFile, KindSymbol, KindTest},
	TierDecision:   {KindADR, KindPassage},
	TierKnowledge:  {KindDoc, KindLocal, KindReadme},
	TierHistory:    {KindCommit},
	TierOutline:    {KindOutline},
}

var kindTier = func() map[string]Tier {
	m := map[string]Tier{}
	for t, ks := range tierKinds {
		for _, k := range ks {
			m[k] = t
		}
	}
	return m
}()

// TierForKind is the tier a non-seed candidate of this kind is spent from.
// An unknown kind is history, never governance.
func TierForKind(kind string) Tier {
	if t, ok := kindTier[kind]; ok {
		return t
	}
	return TierHistory
}

// Selector names one way of reaching a candidate. The order is a sort key.
type Selector string

const (
	SelSeed         Selector = "seed"
	SelRelation     Selector = "relation"
	SelScopePath    Selector = "scope_path"
	SelContract     Selector = "contract"
	SelGovernance   Selector = "governance"
	SelSessionState Selector = "session_state"
	SelIntentMatch  Selector = "intent_match"
	SelOutline      Selector = "outline"
)

// Selectors lists the eight selectors in their fixed order.
var Selectors = []Selector{SelSeed, SelRelation, SelScopePath, SelContract, SelGovernance, SelSessionState, SelIntentMatch, SelOutline}

func selectorPos(s Selector) int {
	for i, x := range Selectors {
		if x == s {
			return i
		}
	}
	return len(Selectors)
}

// Edge kinds of the workspace graph (docs/context.md), each stored forward.
const (
	EdgeAnchors   = "anchors"    // passage → symbol/file/doc
	EdgePins      = "pins"       // claim → symbol
	EdgeCovers    = "covers"     // claim → file
	EdgeCalls     = "calls"      // caller → callee
	EdgeUsesType  = "uses_type"  // symbol → type
	EdgeUsesValue = "uses_value" // symbol → const, var, function used as a value
	EdgeMethodOf  = "method_of"  // method → receiver type
	EdgeTestedBy  = "tested_by"  // symbol → test
	EdgeDecides   = "decides"    // adr → file/symbol
	EdgeSupersede = "supersedes" // later adr → earlier adr
	EdgePartOf    = "part_of"    // passage → doc
	EdgeLinksTo   = "links_to"   // doc → doc
	EdgeChangedIn = "changed_in" // symbol → commit
	EdgeCoChanged = "co_changed" // symbol/file → file changed in the same commits
	EdgeSibling   = "sibling"    // symbol/file → file of the same package

	EdgeInPackage  = "in_package"
	EdgeImports    = "imports"     // seed → file its file (or a related file) imports
	EdgeImportedBy = "imported_by" // seed → file importing from the seed's file
	EdgeContains   = "contains"
	EdgeReferences = "references"
	EdgeMentions   = "mentions"
)

// edgeRule is one row of the edge table. A refused edge has a refusal reason
// and no weights: refusal is absence, not a zero weight.
type edgeRule struct {
	kind             string
	means            string
	forward, reverse float64
	fwdWhy, revWhy   string
	refused          string
	limit            int // forward arcs kept per node (newest first); 0 = all
	// index is the rule's place in edgeTable (an arc's ri), kindRank its
	// kind's among the kinds in string order (limitArcs sorts by kind).
	index    uint8
	kindRank int
	// measured: the edge carries a Strength (0,1] that scales the weights
	// (how strongly history or the package ties the two ends).
	measured bool
	// tier, when set, is the tier a candidate reached only this way is
	// spent from (sibling: history, so it fills what is left).
	tier Tier
	// leaf: the walk does not go on from what this edge reaches (a file
	// changed with the seed's is worth reading; what hangs off it is not).
	leaf bool
	// outline: a file reached only by this edge is given as the outlines
	// of its declarations, never whole (the package around the seed is
	// worth knowing by name, not worth reading in full).
	outline bool
	// outlineBelow: a code file reached by this edge only with a strength
	// below it is given as outlines (as if outline-only), when the world
	// holds outlines of its declarations; at or above it, whole.
	outlineBelow float64
}

var edgeTable = []edgeRule{
	{kind: EdgeAnchors, means: "a doc passage's @code anchor binds it to this code", forward: 0.8, reverse: 0.9,
		fwdWhy: "the code this passage documents", revWhy: "a passage anchored to it"},
	{kind: EdgePins, means: "a claim leg's regex matches inside this declaration", forward: 0.9, reverse: 0.95,
		fwdWhy: "the code this claim pins", revWhy: "a claim pinning it"},
	{kind: EdgeCovers, means: "a claim leg's glob matches this file", forward: 0.7, reverse: 0.9,
		fwdWhy: "a file this claim covers", revWhy: "a claim covering it"},
	{kind: EdgeCalls, means: "this declaration calls that one", forward: 0.7, reverse: 0.5,
		fwdWhy: "a callee's definition", revWhy: "a caller"},
	{kind: EdgeUsesType, means: "this declaration uses that type", forward: 0.6, reverse: 0.3,
		fwdWhy: "a type it uses", revWhy: "a user of this type"},
	{kind: EdgeUsesValue, means: "this declaration uses that constant, variable or function as a value (not a call)", forward: 0.6, reverse: 0.3,
		fwdWhy: "a constant, variable or function value it uses", revWhy: "a user of this value"},
	{kind: EdgeMethodOf, means: "this method's receiver is that type", forward: 0.8, reverse: 0.3,
		fwdWhy: "the receiver type", revWhy: "a method of it"},
	{kind: EdgeTestedBy, means: "that test exercises this declaration", forward: 0.8, reverse: 0.6,
		fwdWhy: "a test that exercises it", revWhy: "what this test exercises"},
	{kind: EdgeDecides, means: "this decision record governs that file or declaration", forward: 0.8, reverse: 0.85,
		fwdWhy: "what the decision governs", revWhy: "the decision in force over it"},
	{kind: EdgeSupersede, means: "this decision record stands in for that one", forward: 0.7, reverse: 0.7,
		fwdWhy: "it stands in for this", revWhy: "this stands in for it"},
	{kind: EdgePartOf, means: "this passage is part of that document", forward: 0.6, reverse: 0.3,
		fwdWhy: "the document holding the passage", revWhy: "a passage of it"},
	{kind: EdgeLinksTo, means: "this document links to that one", forward: 0.5, reverse: 0.4,
		fwdWhy: "a document it links to", revWhy: "a document linking here"},
	{kind: EdgeChangedIn, means: "this commit changed the declaration's lines", forward: 0.5, reverse: 0.3,
		fwdWhy: "a commit that changed it", revWhy: "what this commit changed", limit: MaxCommitsPerNode},
	{kind: EdgeCoChanged, means: "that file changed in the same commits as this declaration's file (git history); below outline_below, a code file is given as its declarations' outlines and a file with none is not given", forward: 0.9,
		fwdWhy: "a file changed together with it", measured: true, leaf: true, outlineBelow: 0.75},
	{kind: EdgeSibling, means: "that file belongs to the same package (directory and language) as this declaration; not drawn for JS/TS and Python, whose import statements say which files belong together", forward: 0.3,
		fwdWhy: "a file of the same package", measured: true, tier: TierHistory, leaf: true, outline: true},

	{kind: EdgeInPackage, means: "this declaration belongs to that package",
		refused: "every symbol of a package hangs off it; following it selects the whole package"},
	{kind: EdgeImports, means: "the seed's file, or a file changed with it or of its package, imports that file (JS/TS, Python import statements)", forward: 0.5,
		fwdWhy: "a file the seed's code imports from", measured: true, leaf: true, outline: true},
	{kind: EdgeImportedBy, means: "that file imports from the seed's file: the seed's own name (strength 1) or other names of it (0.5) (JS/TS, Python import statements)", forward: 0.5,
		fwdWhy: "a file that imports from the seed's file", measured: true, leaf: true, outline: true},
	{kind: EdgeContains, means: "this directory contains that file",
		refused: "a directory contains the whole tree below it"},
	{kind: EdgeReferences, means: "this code names that identifier",
		refused: "every identifier use is too dense; calls and uses_type are the followed subsets"},
	{kind: EdgeMentions, means: "this text mentions that name",
		refused: "a mention is inferred from words by intent_match; the walk follows declared facts only"},
}

var edgeByKind = func() map[string]*edgeRule {
	m := map[string]*edgeRule{}
	kinds := make([]string, 0, len(edgeTable))
	for i := range edgeTable {
		m[edgeTable[i].kind] = &edgeTable[i]
		edgeTable[i].index = uint8(i)
		kinds = append(kinds, edgeTable[i].kind)
	}
	if len(edgeTable) > 256 || len(m) != len(edgeTable) {
		panic("devcontext: edge kinds must be distinct and fit an arc's index")
	}
	sort.Strings(kinds)
	for i := range edgeTable {
		edgeTable[i].kindRank = sort.SearchStrings(kinds, edgeTable[i].kind)
	}
	return m
}()

// CompilerPolicy publishes the compiler's rules (docs/context.md).
type CompilerPolicy struct {
	Schema              int            `json:"schema"`
	Graph               string         `json:"graph"`
	Tiers               []TierRule     `json:"tiers"`
	Edges               []EdgeRule     `json:"edges"`
	Selectors           []SelectorRule `json:"selectors"`
	DefaultBudgetTokens uint64         `json:"default_budget_tokens"`
	DefaultMaxDepth     int            `json:"default_max_depth"`
	DefaultFloor        float64        `json:"default_floor"`
	BytesPerToken       int            `json:"bytes_per_token"`
}

// TierRule is one tier: position 1 is spent first.
type TierRule struct {
	Tier     Tier     `json:"tier"`
	Position int      `json:"position"`
	Meaning  string   `json:"meaning"`
	Kinds    []string `json:"kinds"`
}

// EdgeRule is one edge kind: followed with weights, or refused with a reason.
type EdgeRule struct {
	Edge    string   `json:"edge"`
	Means   string   `json:"means"`
	Forward *float64 `json:"forward,omitempty"`
	Reverse *float64 `json:"reverse,omitempty"`
	Reason  string   `json:"reason"`
	Refused bool     `json:"refused"`
	// Limit is how many forward arcs per node are followed, newest first.
	Limit int `json:"limit,omitempty"`
	// Measured: each edge of this kind carries a strength in (0, 1] that
	// multiplies the weight (docs/context.md says how it is measured).
	Measured bool `json:"measured,omitempty"`
	// Tier is where a candidate reached only by this edge is spent from.
	Tier Tier `json:"tier,omitempty"`
	// Leaf: the walk does not continue from what this edge reaches.
	Leaf bool `json:"leaf,omitempty"`
	// OutlineOnly: a file reached only by this edge is given as outline
	// entries of its declarations, never whole.
	OutlineOnly bool `json:"outline_only,omitempty"`
	// OutlineBelow: a code file reached by this edge only with a strength
	// below it is given as outline entries, like an outline-only edge.
	OutlineBelow float64 `json:"outline_below,omitempty"`
}

// SelectorRule says whether a selector follows declarations or infers.
type SelectorRule struct {
	Selector Selector `json:"selector"`
	Declared bool     `json:"declared"`
	// Means and Weight are set where a selector has a rule of its own
	// (outline: what it offers, and the share of a file's relevance each
	// of its declarations gets).
	Means  string  `json:"means,omitempty"`
	Weight float64 `json:"weight,omitempty"`
	// Reserve is the share of the limit kept for this selector's entries
	// (outline) while the full entries are spent.
	Reserve float64 `json:"reserve,omitempty"`
	// FullFloor: a declaration below this relevance is given by this
	// selector's entry (its signature line) only, never in full (outline).
	FullFloor float64 `json:"full_floor,omitempty"`
	// SkeletonShare: a seed declaration with declarations inside it that
	// costs more than this share of the limit is given as its skeleton
	// (seed).
	SkeletonShare float64 `json:"skeleton_share,omitempty"`
	// FileSkeletonShare: the same for a file seed (seed).
	FileSkeletonShare float64 `json:"file_skeleton_share,omitempty"`
}

// Policy returns the compiler's rules. It is static: it does not depend on a
// world, so it can be published before any workspace is loaded.
func Policy() CompilerPolicy {
	p := CompilerPolicy{
		Schema:              Schema,
		Graph:               "workspace",
		Tiers:               []TierRule{},
		Edges:               []EdgeRule{},
		Selectors:           []SelectorRule{},
		DefaultBudgetTokens: DefaultBudgetTokens,
		DefaultMaxDepth:     DefaultMaxDepth,
		DefaultFloor:        DefaultFloor,
		BytesPerToken:       BytesPerToken,
	}
	for i, t := range Tiers {
		kinds := append([]string{}, tierKinds[t]...)
		if t == TierTask {
			kinds = []string{} // no kind is task by nature; every seed is
		}
		sort.Strings(kinds)
		p.Tiers = append(p.Tiers, TierRule{Tier: t, Position: i + 1, Meaning: tierMeaning[t], Kinds: kinds})
	}
	for _, r := range edgeTable {
		e := EdgeRule{Edge: r.kind, Means: r.means, Limit: r.limit, Measured: r.measured, Tier: r.tier, Leaf: r.leaf, OutlineOnly: r.outline, OutlineBelow: r.outlineBelow}
		if r.refused != "" {
			e.Reason, e.Refused = r.refused, true
		} else {
			if r.forward > 0 {
				e.Forward = ptr(r.forward)
			}
			if r.reverse > 0 {
				e.Reverse = ptr(r.reverse)
			}
			e.Reason = r.fwdWhy
			if r.reverse > 0 {
				e.Reason += "; reversed: " + r.revWhy
			}
		}
		p.Edges = append(p.Edges, e)
	}
	sort.Slice(p.Edges, func(i, j int) bool { return p.Edges[i].Edge < p.Edges[j].Edge })
	for _, s := range Selectors {
		r := SelectorRule{Selector: s, Declared: s != SelIntentMatch}
		if s == SelSeed {
			r.Means = skeletonMeans
			r.SkeletonShare = skeletonShare
			r.FileSkeletonShare = fileSkeletonShare
		}
		if s == SelOutline {
			r.Means = outlineMeans
			r.Weight = relOutlineInFile
			r.Reserve = outlineReserve
			r.FullFloor = fullFloor
		}
		p.Selectors = append(p.Selectors, r)
	}
	return p
}

func ptr[T any](v T) *T { return &v }
