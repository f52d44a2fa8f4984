package claims

import (
	"fmt"
	"sort"
	"strings"
)

// Repo is one checkout a leg can look into, as the workspace layer read it
// (go-git for the index and refs, the disk and editor overlays for content).
// The engine never touches git or the disk itself.
type Repo interface {
	// Key is the registry key this checkout is reached by ("brain", "api").
	Key() string
	// Identity is the checkout's real path (symlinks resolved) plus the ref
	// read; keys with the same identity are one checkout: `*` scans it once
	// and a qualified exclusion `!key:glob` bites every alias.
	Identity() string
	// OnDisk is false for a declared repo whose directory does not exist:
	// its legs are unevaluated.
	OnDisk() bool
	// Files are the tracked paths: repo-relative, `/`-separated, sorted,
	// each once (a conflicted path's stages collapse), symlinks and
	// submodules already dropped.
	Files() []string
	// Read returns a tracked file's bytes (working tree or blob at the ref).
	// ok=false for a tracked file missing on disk: it stays in the file set
	// and never matches. The engine calls it at most once per path per run.
	Read(path string) (content []byte, ok bool)
	// Untracked lists untracked, not-ignored paths of a working-tree read
	// (for the "git add" hint, docs/claims.md); nil for a ref read.
	Untracked() []string
	// Facts says which bytes were read, for the report's read line.
	Facts() ReadFacts
}

// ReadKind names which bytes a run read from a repo (docs/claims.md).
type ReadKind string

const (
	ReadChannel   ReadKind = "channel"     // the channel ref, as published
	ReadFellBack  ReadKind = "fell-back"   // channel does not resolve: the working tree
	ReadWorktree  ReadKind = "worktree"    // --worktree: local state
	ReadBrain     ReadKind = "brain"       // the brain's own working tree
	ReadConsumer  ReadKind = "consumer"    // consumer scope: this checkout's working tree
	ReadNotOnDisk ReadKind = "not-on-disk" // declared but not cloned
)

// ReadFacts are the git facts behind one read line.
type ReadFacts struct {
	Kind       ReadKind
	Channel    string   // the channel ref name, e.g. origin/main
	SHA        string   // short sha of what was read (channel tip or HEAD)
	Branch     string   // branch of the working tree ("" when detached)
	LastFetch  string   // channel reads: "2h ago"; "" = never fetched here
	Parked     string   // channel reads: "<branch> @ <sha>" of a working tree elsewhere, else ""
	ChannelSHA string   // worktree reads: the channel tip the run is OFF, "" when unknown
	Behind     int      // brain: commits behind its own channel
	MidMerge   []string // paths with several index stages
}

// ReadLine renders one `read` line of the report.
func ReadLine(key string, f ReadFacts) string {
	var s string
	switch f.Kind {
	case ReadChannel:
		fetch := "never fetched here"
		if f.LastFetch != "" {
			fetch = "last fetch " + f.LastFetch
		}
		s = fmt.Sprintf("%s: %s @ %s — the channel, as published (%s)", key, f.Channel, f.SHA, fetch)
		if f.Parked != "" {
			s += fmt.Sprintf(" (this checkout is parked on %s, not read)", f.Parked)
		}
	case ReadFellBack:
		s = fmt.Sprintf("%s: working tree on %s @ %s — channel %s does not resolve here (no remote, or never fetched) — FELL BACK to the working tree", key, branchName(f.Branch), f.SHA, f.Channel)
	case ReadWorktree:
		s = fmt.Sprintf("%s: working tree on %s @ %s — --worktree: local state, not the channel", key, branchName(f.Branch), f.SHA)
		if f.ChannelSHA != "" && f.ChannelSHA != f.SHA { // on the channel's commit: not off it
			s += fmt.Sprintf("; OFF channel %s @ %s", f.Channel, f.ChannelSHA)
		}
	case ReadBrain:
		s = fmt.Sprintf("%s: working tree on %s @ %s — the brain's own repo, the commit this run gates", key, branchName(f.Branch), f.SHA)
		if f.Behind > 0 {
			s += fmt.Sprintf("; %d behind its own channel %s @ %s — an out-of-date law judges a current ecosystem", f.Behind, f.Channel, f.ChannelSHA)
		}
	case ReadConsumer:
		s = fmt.Sprintf("%s: working tree on %s @ %s — this checkout, the content about to be committed here", key, branchName(f.Branch), f.SHA)
	default:
		s = fmt.Sprintf("%s: not on disk — nothing read; run `multivac repos sync`", key)
	}
	if len(f.MidMerge) > 0 {
		s += fmt.Sprintf(" · %d path(s) MID-MERGE (%s) — resolve the merge before trusting any verdict here", len(f.MidMerge), strings.Join(f.MidMerge, ", "))
	}
	return s
}

func branchName(b string) string {
	if b == "" {
		return "(detached)"
	}
	return b
}

// MemRepo is an in-memory Repo: tests use it, and so can a workspace that
// has already read everything.
type MemRepo struct {
	Name      string
	ID        string // identity; Name when empty
	Missing   bool   // not on disk
	Content   map[string][]byte
	Deleted   map[string]bool // tracked but unreadable
	Untrack   []string        // nil: a ref read
	ReadFacts ReadFacts
	files     []string
	reads     map[string]int
}

func (m *MemRepo) Key() string { return m.Name }
func (m *MemRepo) Identity() string {
	if m.ID != "" {
		return m.ID
	}
	return m.Name
}
func (m *MemRepo) OnDisk() bool { return !m.Missing }
func (m *MemRepo) Files() []string {
	if m.files == nil {
		for p := range m.Content {
			m.files = append(m.files, p)
		}
		for p := range m.Deleted {
			if _, dup := m.Content[p]; !dup {
				m.files = append(m.files, p)
			}
		}
		sort.Strings(m.files)
	}
	return m.files
}
func (m *MemRepo) Read(p string) ([]byte, bool) {
	if m.reads == nil {
		m.reads = map[string]int{}
	}
	m.reads[p]++
	if m.Deleted[p] {
		return nil, false
	}
	b, ok := m.Content[p]
	return b, ok
}
func (m *MemRepo) Untracked() []string { return m.Untrack }
func (m *MemRepo) Facts() ReadFacts    { return m.ReadFacts }

// Reads reports how often path was read (tests check "once per run").
func (m *MemRepo) Reads(path string) int { return m.reads[path] }
