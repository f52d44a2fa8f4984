// Package workspace is the façade both the CLI and the language server ask:
// an immutable Snapshot of one workspace folder (files on disk, overlaid by
// unsaved editor buffers, plus git's view and the config) and the queries
// over it (Check, Confirm, …).
//
// Architecture invariant: workspace never touches the disk or git directly;
// it goes through the Files and Git interfaces, which the adapters in
// workspace/disk and workspace/gitstate implement and cmd/clew-lsp or the
// server wire in. A query never fails on broken input: broken input is a
// Diagnostic; an error means cancellation or broken infrastructure.
package workspace

import (
	"bytes"
	"crypto/sha256"
	"path"
	"slices"
	"sort"
	"strings"
	"sync"
	"sync/atomic"
	"time"

	"github.com/clew-lsp/clew-lsp/internal/anchors"
)

// Files is the disk as the snapshot sees it.
type Files interface {
	// List returns the workspace's files, slash-separated and relative to
	// the root: git's tracked files plus untracked files git does not
	// ignore, or a walk with the default excludes outside a repository.
	List() ([]string, error)
	// Read returns a file's bytes; a missing file is fs.ErrNotExist.
	Read(path string) ([]byte, error)
	// Size returns a file's size without reading it.
	Size(path string) (int64, error)
}

// Git is git's view of the workspace, read-only.
type Git interface {
	Info() GitInfo
	// History returns the contents of path at HEAD and at earlier commits
	// that changed it, newest first, at most max versions.
	History(path string, max int) [][]byte
}

// GitInfo is HEAD as the snapshot saw it.
type GitInfo struct {
	IsRepo bool   `json:"is_repo"`
	Head   string `json:"head,omitempty"`
	Branch string `json:"branch,omitempty"`
}

var snapshotSeq atomic.Uint64

// Snapshot is one immutable view of a workspace. Reads from one snapshot
// always return the same bytes (overlays are fixed at construction, disk
// reads are memoised), so everything derived from it is consistent.
type Snapshot struct {
	id    uint64
	root  string
	files Files
	git   Git
	// listing is the disk's files (Files.List), shared by the snapshots
	// of one disk state; a deferred snapshot (LoadDeferred) lists on
	// first use.
	listing  *listing
	overlays map[string][]byte
	config   Config
	cfgDiags []Diagnostic
	tables   *tableCache
	reads    *readCache
	settings []byte // editor settings, used when there is no .clew.yml
	siblings Siblings
	// lineStarts memoises line offsets per path (claims diagnostics).
	lineStarts *sync.Map
	// memo is shared by the checks of every snapshot of one disk state
	// (memo.go); overlaySums holds each open buffer's content hash, shared
	// by the snapshots that hold that buffer.
	memo        *checkMemo
	overlaySums *sync.Map // path → overlaySum
	// claims is the claims check's snapshot-only part (claims.go), done
	// once and possibly ahead of the check (WarmClaims).
	claims *claimsPrep
	// loaded is when the Load began: every read of this snapshot, of the
	// snapshots derived from it and of their memo came later (LoadedAt).
	loaded time.Time
}

// LoadedAt is when the Load this snapshot comes from began. No content
// it, its derived snapshots or their memo hold was read before, so a
// record of a file's content keeps only a stat older than this
// (TrustedStat): a file written since may have been read before the
// write, its stat taken after it.
func (s *Snapshot) LoadedAt() time.Time { return s.loaded }

type overlaySum struct {
	b   []byte
	sum [sha256.Size]byte
}

// overlaySum hashes an overlay once per buffer version: successive
// snapshots hold the very same slice for a buffer that did not change.
func (s *Snapshot) overlaySum(p string, b []byte) [sha256.Size]byte {
	if v, ok := s.overlaySums.Load(p); ok {
		if o := v.(overlaySum); len(o.b) == len(b) && (len(b) == 0 || &o.b[0] == &b[0]) {
			return o.sum
		}
	}
	o := overlaySum{b, sha256.Sum256(b)}
	s.overlaySums.Store(p, o)
	return o.sum
}

// Load builds the first snapshot of a workspace, listing its files.
func Load(root string, files Files, git Git) (*Snapshot, error) {
	at := time.Now()
	l := &listing{files: files}
	if _, err := l.get(); err != nil {
		return nil, err
	}
	return newSnapshot(root, files, git, l, at), nil
}

// LoadDeferred is Load that lists the files only when something asks for
// the list: a run whose docs are literal paths (ListFilter), whose
// anchors all settle in their hinted files and that has no mention to
// resolve and no claim never lists the repository. Its answers are
// Load's; a listing that fails when it is needed is ListErr's, and the
// snapshot then holds no file (the caller must check ListErr before it
// trusts an answer: Load would have failed).
func LoadDeferred(root string, files Files, git Git) *Snapshot {
	return newSnapshot(root, files, git, &listing{files: files}, time.Now())
}

func newSnapshot(root string, files Files, git Git, l *listing, at time.Time) *Snapshot {
	s := &Snapshot{
		id: snapshotSeq.Add(1), root: root, files: files, git: git, listing: l, loaded: at,
		overlays: map[string][]byte{}, tables: newTableCache(), reads: newReadCache(), lineStarts: &sync.Map{},
		overlaySums: &sync.Map{}, claims: &claimsPrep{},
	}
	s.loadConfig()
	return s
}

// ListFilter is what a Files adapter can offer a deferred snapshot: of
// the given paths, those List would return (in any order), without
// listing the others.
type ListFilter interface {
	Listed(paths []string) ([]string, error)
}

// listing is Files.List's answer, sorted, listed once; in (a set of it)
// is built only when asked (an overlay's test, Exists).
type listing struct {
	files  Files
	once   sync.Once
	list   []string
	err    error
	done   atomic.Bool // listed
	tried  atomic.Bool // listed or failed
	inOnce sync.Once
	in     map[string]bool
}

func (l *listing) get() ([]string, error) {
	l.once.Do(func() {
		defer l.tried.Store(true)
		list, err := l.files.List()
		if err != nil {
			l.err = err
			return
		}
		if !sort.StringsAreSorted(list) {
			sort.Strings(list)
		}
		l.list = list
		l.done.Store(true)
	})
	return l.list, l.err
}

// listed is the snapshot's disk files, sorted (none when a deferred
// listing failed: ListErr).
func (s *Snapshot) listed() []string {
	list, _ := s.listing.get()
	return list
}

// inList reports whether p is one of the listed disk files.
func (s *Snapshot) inList(p string) bool {
	l := s.listing
	l.inOnce.Do(func() {
		list, _ := l.get()
		l.in = make(map[string]bool, len(list))
		for _, p := range list {
			l.in[p] = true
		}
	})
	return l.in[p]
}

// ListErr is the error of a deferred listing (LoadDeferred) that was
// needed and failed; nil when it succeeded or was never needed.
func (s *Snapshot) ListErr() error {
	if s.listing.tried.Load() {
		return s.listing.err
	}
	return nil
}

// literalDocs are the docs, found without the listing, when every doc
// include is a literal path (a glob without meta characters matches only
// itself) and the listing is not made yet: those includes the listing
// would hold (ListFilter) that no exclude drops. ok is false when the
// listing must answer (it is made, the adapter cannot filter, a pattern
// is a glob, or the filter failed: the listing then fails as Load would).
func (s *Snapshot) literalDocs() (docs []string, ok bool) {
	lf, can := s.files.(ListFilter)
	if !can || s.listing.done.Load() {
		return nil, false
	}
	for _, g := range s.config.Docs.Include {
		if strings.ContainsAny(g, "*?[]{}\\") {
			return nil, false
		}
	}
	listed, err := lf.Listed(s.config.Docs.Include)
	if err != nil {
		return nil, false
	}
	for _, p := range listed {
		if s.config.IsDoc(p) {
			docs = append(docs, p)
		}
	}
	sort.Strings(docs)
	return slices.Compact(docs), true
}

func (s *Snapshot) loadConfig() {
	data, st := s.ReadFile(ConfigFile)
	if st != anchors.FileOK {
		s.config, s.cfgDiags = configFromSettings(s.settings)
	} else {
		s.config, s.cfgDiags = ParseConfig(data)
	}
	// What a check memoises was computed under one configuration.
	if s.memo == nil || s.memo.cfg != configKey(s.config) {
		s.memo = newCheckMemo(s.config)
	}
}

// WithOverlays returns a new snapshot in which the given unsaved buffers
// replace the disk contents (nil content removes an overlay). Derived
// tables are shared: they are memoised by content, so unchanged files are
// never parsed again.
func (s *Snapshot) WithOverlays(changes map[string][]byte) *Snapshot {
	n := *s
	n.id = snapshotSeq.Add(1)
	n.overlays = make(map[string][]byte, len(s.overlays)+len(changes))
	for k, v := range s.overlays {
		n.overlays[k] = v
	}
	for k, v := range changes {
		if v == nil {
			n.overlaySums.Delete(k)
			delete(n.overlays, k)
		} else {
			n.overlays[k] = v
		}
	}
	n.reads = newReadCache()
	n.lineStarts = &sync.Map{}
	n.claims = &claimsPrep{}
	n.loadConfig()
	return &n
}

// ID is the snapshot's sequence number; a higher ID is newer.
func (s *Snapshot) ID() uint64 { return s.id }

// Root is the workspace directory.
func (s *Snapshot) Root() string { return s.root }

// Config is the effective configuration.
func (s *Snapshot) Config() Config { return s.config }

// Git returns HEAD and branch (IsRepo false outside a repository).
func (s *Snapshot) Git() GitInfo {
	if s.git == nil {
		return GitInfo{}
	}
	return s.git.Info()
}

// Files lists the workspace files plus unsaved new buffers, sorted.
func (s *Snapshot) Files() []string {
	list := s.listed()
	out := append([]string(nil), list...)
	for p := range s.overlays {
		if !s.inList(p) {
			out = append(out, p)
		}
	}
	if len(out) > len(list) {
		sort.Strings(out) // the listing is sorted already
	}
	return out
}

// Docs lists the Markdown docs of the workspace. The listed files' docs are
// matched once per disk state and configuration (the patterns are globs,
// and a large repository has many files); unsaved new files each time.
func (s *Snapshot) Docs() []string {
	s.memo.docsOnce.Do(func() {
		if docs, ok := s.literalDocs(); ok {
			s.memo.docs = docs
			return
		}
		for _, p := range s.listed() {
			if s.config.IsDoc(p) {
				s.memo.docs = append(s.memo.docs, p)
			}
		}
	})
	out := s.memo.docs
	added := false
	for p := range s.overlays {
		if !s.inList(p) && s.config.IsDoc(p) {
			if !added {
				out = slices.Clone(out)
				added = true
			}
			out = append(out, p)
		}
	}
	if added {
		sort.Strings(out)
	}
	return out
}

// ReadFile returns a file's content as this snapshot sees it. Paths that
// escape the workspace are reported missing and never read.
func (s *Snapshot) ReadFile(p string) ([]byte, anchors.FileStatus) {
	d, st, _ := s.readContent(p)
	return d.b, st
}

// readSum is ReadFile with the content's SHA-256, computed once per
// content: an overlay's when its buffer changed, a disk file's when it is
// first read under the current disk state.
func (s *Snapshot) readSum(p string) ([]byte, anchors.FileStatus, [sha256.Size]byte) {
	d, st, sum := s.readDoc(p)
	return d.b, st, sum
}

// readDoc is readSum for a doc: its content also names the read, so the
// anchors' parse and the mention scan share one string copy of it.
func (s *Snapshot) readDoc(p string) (docContent, anchors.FileStatus, [sha256.Size]byte) {
	d, st, buffer := s.readContent(p)
	switch {
	case d.r != nil: // read from disk
		return d, st, d.r.hash()
	case buffer:
		return d, st, s.overlaySum(p, d.b)
	}
	return d, st, [sha256.Size]byte{} // refused before any read
}

// readContent is ReadFile's answer as a docContent (no hash computed);
// buffer says it is an open buffer's.
func (s *Snapshot) readContent(p string) (d docContent, st anchors.FileStatus, buffer bool) {
	if anchors.CheckPath(p) != "" || path.Clean(p) != p {
		return docContent{}, anchors.FileMissing, false
	}
	if b, ok := s.overlays[p]; ok {
		return docContent{b: b}, classify(b, s.config.Budget.MaxFileBytes), true
	}
	r := s.reads.get(p, func() ([]byte, anchors.FileStatus) { return s.readDisk(p) })
	return docContent{b: r.b, r: r}, r.st, false
}

// readDisk reads one file through the Files adapter, refusing files over the
// size limit before reading them.
func (s *Snapshot) readDisk(p string) ([]byte, anchors.FileStatus) {
	max := s.config.Budget.MaxFileBytes
	if max == 0 {
		max = DefaultBudget().MaxFileBytes
	}
	if n, err := s.files.Size(p); err != nil {
		return nil, anchors.FileMissing
	} else if n > max {
		return nil, anchors.FileTooLarge
	}
	b, err := s.files.Read(p)
	if err != nil {
		// A file deleted between listing and reading is missing, not a
		// failed check.
		return nil, anchors.FileMissing
	}
	return b, classify(b, max)
}

// Overlay reports whether path has an unsaved buffer in this snapshot.
func (s *Snapshot) Overlay(p string) ([]byte, bool) {
	b, ok := s.overlays[p]
	return b, ok
}

func classify(b []byte, max int64) anchors.FileStatus {
	if max > 0 && int64(len(b)) > max {
		return anchors.FileTooLarge
	}
	head := b
	if len(head) > 8000 {
		head = head[:8000]
	}
	if bytes.IndexByte(head, 0) >= 0 {
		return anchors.FileBinary
	}
	return anchors.FileOK
}
