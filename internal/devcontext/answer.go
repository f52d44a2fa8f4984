package devcontext

// The wire model (docs/context.md). Field order is declaration order and is part of
// the contract; optional values carry omitempty, lists never do and are
// always initialised so they encode as [] rather than null.

// CompiledContext is the answer of Compile.
type CompiledContext struct {
	Schema       int            `json:"schema"`
	Fingerprint  string         `json:"fingerprint"`
	Git          GitContext     `json:"git"`
	Seeds        []Seed         `json:"seeds"`
	Selected     []Entry        `json:"selected"`
	Excluded     []Excluded     `json:"excluded"`
	Deduplicated []Deduplicated `json:"deduplicated"`
	Conflicts    []Conflict     `json:"conflicts"`
	Budget       Budget         `json:"budget"`
	Diagnostics  []Diagnostic   `json:"diagnostics"`
}

// Seed is one thing the request asked for, in request order.
type Seed struct {
	URI      string `json:"uri"`
	Kind     string `json:"kind"`
	From     string `json:"from"`
	Resolved string `json:"resolved,omitempty"`
}

// Seed kinds and origins that are not node kinds.
const (
	SeedKindPath   = "path"
	SeedKindIntent = "intent"

	FromPosition = "position"
	FromURIs     = "uris"
	FromPaths    = "paths"
	FromIntent   = "intent"
)

// Entry is one selected item: a pointer plus a decision, never the text.
type Entry struct {
	URI          string            `json:"uri"`
	Kind         string            `json:"kind"`
	Title        string            `json:"title,omitempty"`
	Provenance   Provenance        `json:"provenance"`
	Tier         Tier              `json:"tier"`
	Relevance    float64           `json:"relevance"`
	Confidence   float64           `json:"confidence"`
	DiscoveredBy []Discovery       `json:"discovered_by"`
	Depth        int               `json:"depth"`
	CostTokens   uint64            `json:"cost_tokens"`
	CostBytes    int               `json:"cost_bytes"`
	Version      string            `json:"version,omitempty"`
	Status       string            `json:"status,omitempty"`
	Required     bool              `json:"required"`
	Facts        map[string]string `json:"facts,omitempty"`
}

// Discovery is one way an entry was reached.
type Discovery struct {
	Selector   Selector `json:"selector"`
	Reason     string   `json:"reason"`
	Via        string   `json:"via,omitempty"`
	Edge       string   `json:"edge,omitempty"`
	Depth      int      `json:"depth"`
	Confidence float64  `json:"confidence"`
	Weight     float64  `json:"weight"`
}

// Provenance says where an entry lives.
type Provenance struct {
	Path        string `json:"path"`
	Directory   string `json:"directory"`
	SourceClass string `json:"source_class"`
	Section     string `json:"section,omitempty"`
	Bytes       int    `json:"bytes"`
}

// Excluded is something reached and not given, with the reason.
type Excluded struct {
	URI        string          `json:"uri"`
	Kind       string          `json:"kind,omitempty"`
	Tier       Tier            `json:"tier"`
	Reason     ExclusionReason `json:"reason"`
	Detail     string          `json:"detail"`
	CostTokens uint64          `json:"cost_tokens"`
	Relevance  float64         `json:"relevance"`
}

// ExclusionReason says why a reached candidate was not given. budget,
// relevance and depth are request-bound (a bigger limit brings it back);
// stale, superseded and unresolved are repository-bound.
type ExclusionReason string

const (
	ReasonBudget     ExclusionReason = "budget"
	ReasonRelevance  ExclusionReason = "relevance"
	ReasonDepth      ExclusionReason = "depth"
	ReasonStale      ExclusionReason = "stale"
	ReasonSuperseded ExclusionReason = "superseded"
	ReasonUnresolved ExclusionReason = "unresolved"
	// ReasonOutlined: a file reached only by an outline-only edge
	// (sibling) is given by its declarations' outline entries, never whole.
	ReasonOutlined ExclusionReason = "outlined"
)

// Deduplicated records what collapsed into what.
type Deduplicated struct {
	Kept    string   `json:"kept"`
	Dropped []string `json:"dropped"`
	Key     string   `json:"key"` // uri (structural), path or identity (semantic), contained (inside a file selected whole)
	Detail  string   `json:"detail"`
	Paths   int      `json:"paths"`
}

// Conflict is a pair in the answer that disagree; current is about recency,
// not correctness.
type Conflict struct {
	Current string `json:"current"`
	Against string `json:"against"`
	Kind    string `json:"kind"` // supersedes or version
	Detail  string `json:"detail"`
}

// Budget is the ceiling and how it was spent. The tier rows are a report:
// there is one pot, spent in tier order.
type Budget struct {
	LimitTokens     uint64      `json:"limit_tokens"`
	UsedTokens      uint64      `json:"used_tokens"`
	RequiredTokens  uint64      `json:"required_tokens"`
	RemainingTokens uint64      `json:"remaining_tokens"`
	OverBudget      bool        `json:"over_budget"`
	BytesPerToken   int         `json:"bytes_per_token"`
	Tiers           []TierSpend `json:"tiers"`
}

// TierSpend is one tier's row; excluded counts budget exclusions only.
type TierSpend struct {
	Tier     Tier   `json:"tier"`
	Meaning  string `json:"meaning"`
	Selected int    `json:"selected"`
	Excluded int    `json:"excluded"`
	Tokens   uint64 `json:"tokens"`
	Required int    `json:"required"`
}

// GitContext is the tree the answer is true of.
type GitContext struct {
	Branch      string            `json:"branch,omitempty"`
	Head        string            `json:"head,omitempty"`
	WorkingTree string            `json:"working_tree"`
	Commits     []CommitReference `json:"commits,omitempty"`
}

// CommitReference is a commit a selected record names.
type CommitReference struct {
	Commit  string `json:"commit"`
	NamedBy string `json:"named_by"`
	Covers  string `json:"covers,omitempty"`
}

// Diagnostic is something the compiler could not use; never an error.
type Diagnostic struct {
	Severity string `json:"severity"` // info, warning, error
	Code     string `json:"code"`
	Path     string `json:"path,omitempty"`
	Message  string `json:"message"`
}

// Diagnostic severities and the codes the compiler emits.
const (
	SeverityInfo    = "info"
	SeverityWarning = "warning"
	SeverityError   = "error"

	CodeStaleSeed           = "stale_seed"
	CodeUnresolvedReference = "unresolved_reference"
	CodeMovedAnchor         = "moved_anchor"
	CodeDuplicateNode       = "duplicate_node"
	CodeExclusionsNotListed = "exclusions_not_listed"
)

// Explanation is the answer of Explain: where one URI stands.
type Explanation struct {
	URI          string        `json:"uri"`
	Standing     Standing      `json:"standing"`
	Detail       string        `json:"detail"`
	Entry        *Entry        `json:"entry,omitempty"`
	Excluded     *Excluded     `json:"excluded,omitempty"`
	Deduplicated *Deduplicated `json:"deduplicated,omitempty"`
	Budget       Budget        `json:"budget"`
}

// Standing is one of the five answers of Explain.
type Standing string

const (
	StandingSelected     Standing = "selected"
	StandingExcluded     Standing = "excluded"
	StandingDeduplicated Standing = "deduplicated"
	StandingNotReached   Standing = "not_reached"
	StandingUnknown      Standing = "unknown"
)
