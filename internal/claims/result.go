package claims

// LegState is one of the six leg states (docs/claims.md).
type LegState string

const (
	StateOK          LegState = "ok"
	StatePending     LegState = "pending"
	StateUnevaluated LegState = "unevaluated"
	StateMoved       LegState = "moved"
	StateVacuous     LegState = "vacuous"
	StateBroken      LegState = "broken"
	// LegRetired is a leg a retired row leaves unevaluated on purpose (only
	// its absent legs, the tombstones, are checked). It is listed so a
	// reader can tell "not evaluated" from "not there"; it never gates and
	// never makes its claim worse than its evaluated legs.
	LegRetired LegState = "retired"
)

// stateOrder is the report's order and the claim rank: a claim is its worst leg.
var stateOrder = []LegState{StateOK, StatePending, StateUnevaluated, StateMoved, StateVacuous, StateBroken}

func rank(s LegState) int {
	if s == LegRetired {
		return -1
	}
	for i, o := range stateOrder {
		if o == s {
			return i
		}
	}
	return len(stateOrder)
}

// Result is one run over a brain. The tagged fields are docs/json.md's JSON
// `claims`, `coverage` and `diagnostics` entries, name for name.
type Result struct {
	Claims      []ClaimResult `json:"claims"`
	Coverage    Coverage      `json:"coverage"`
	Diagnostics []Diagnostic  `json:"diagnostics"`
	Exit        int           `json:"exit"`

	Unanchored []string          `json:"-"` // row IDs no leg names, in law order
	Reads      []string          `json:"-"` // read lines, one per repo
	Finished   []FinishedChange  `json:"-"`
	Pending    map[string]string `json:"-"` // claim ID → slug of the open change holding it
	Edits      []Edit            `json:"-"` // in-place glob rewrites of moved legs
	Strict     bool              `json:"-"`
	Consumer   string            `json:"-"` // consumer scope: the repo key
	BrainDir   string            `json:"-"`
	TotalRows  int               `json:"-"` // consumer scope: every brain claim
	// ConfigMissing: the law has no `.multivac/config.yml` (exit 2).
	ConfigMissing bool `json:"-"`
}

// ClaimResult is one claim: its worst leg's state and every evaluated leg.
type ClaimResult struct {
	ID    string      `json:"id"`
	State LegState    `json:"state"`
	Row   *RowRef     `json:"row"` // null for an orphan leg's claim
	Legs  []LegResult `json:"legs"`
}

// RowRef places a claim row.
type RowRef struct {
	Doc  string `json:"doc"`
	Line int    `json:"line"`
}

// Coverage counts rows, and rows that at least one parsed leg names.
type Coverage struct {
	Claims   int `json:"claims"`
	Anchored int `json:"anchored"`
}

// LegResult is one evaluated leg.
type LegResult struct {
	Doc    string   `json:"doc"`
	Line   int      `json:"line"`
	Mode   Mode     `json:"mode"`
	State  LegState `json:"state"`
	Gating bool     `json:"gating"`
	Detail string   `json:"detail"`

	Claim    string  `json:"-"`
	ModeText string  `json:"-"` // count=2, each!
	Note     string  `json:"-"` // the report's gating note, with its leading " · "
	RowState string  `json:"-"` // effective row state
	Matches  []Match `json:"-"` // what the leg's regex matched, for go-to-definition
	Edit     *Edit   `json:"-"` // moved: the glob rewrite
	// Budget: unevaluated because the byte budget kept a file unread; it
	// gates as a broken leg of its mode would.
	Budget bool `json:"-"`
}

// Match is one matching unit.
type Match struct {
	Repo string // the key it was reached by
	Path string
	Line int
}

func (m Match) String() string { return m.Repo + ":" + m.Path + ":" + itoa(m.Line) }

// Edit replaces Doc[Start:End] (byte offsets) with NewText.
type Edit struct {
	Doc     string
	Start   int
	End     int
	NewText string
}

// FinishedChange is an open change whose claims all hold and whose repos
// have all landed: it should be closed.
type FinishedChange struct {
	Slug   string
	Gating bool
}
