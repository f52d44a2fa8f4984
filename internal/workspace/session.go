package workspace

import (
	"encoding/json"
	"path"
	"sort"
	"sync"
)

// Loader opens the file and git adapters of one workspace folder; the
// caller (cmd or the server wiring) injects the real one.
type Loader func(root string) (abs string, files Files, git Git, err error)

// Session holds the newest snapshot of every workspace folder of an editor
// session and turns buffer events into new snapshots. Methods are safe for
// concurrent use; snapshots themselves are immutable.
type Session struct {
	mu       sync.Mutex
	load     Loader
	folders  map[string]*Snapshot // absolute root → newest snapshot
	settings []byte               // editor settings (JSON, .clew.yml keys)
	siblings Siblings
	store    TableStore
}

// UseTableStore makes every folder's tables persist in store
// (Snapshot.UseTableStore).
func (s *Session) UseTableStore(store TableStore) {
	s.mu.Lock()
	defer s.mu.Unlock()
	s.store = store
}

// UseSiblings sets how every folder opens the sibling repositories its
// brain declares.
func (s *Session) UseSiblings(sib Siblings) {
	s.mu.Lock()
	defer s.mu.Unlock()
	s.siblings = sib
}

// NewSession returns an empty session.
func NewSession(load Loader) *Session {
	return &Session{load: load, folders: map[string]*Snapshot{}}
}

// AddFolder indexes one workspace folder.
func (s *Session) AddFolder(root string) error {
	abs, files, git, err := s.load(root)
	if err != nil {
		return err
	}
	snap, err := Load(abs, files, git)
	if err != nil {
		return err
	}
	s.mu.Lock()
	defer s.mu.Unlock()
	snap.applySettings(s.settings)
	snap.siblings = s.siblings
	if s.store != nil {
		snap.UseTableStore(s.store)
	}
	s.folders[abs] = snap
	return nil
}

// RemoveFolder forgets a folder.
func (s *Session) RemoveFolder(root string) {
	s.mu.Lock()
	defer s.mu.Unlock()
	delete(s.folders, root)
}

// Snapshots returns the newest snapshot of every folder, by root.
func (s *Session) Snapshots() []*Snapshot {
	s.mu.Lock()
	defer s.mu.Unlock()
	out := make([]*Snapshot, 0, len(s.folders))
	for _, snap := range s.folders {
		out = append(out, snap)
	}
	sort.Slice(out, func(i, j int) bool { return out[i].root < out[j].root })
	return out
}

// Locate finds the folder that holds an absolute path (the innermost one
// when folders nest) and the path relative to it.
func (s *Session) Locate(abs string) (*Snapshot, string, bool) {
	s.mu.Lock()
	defer s.mu.Unlock()
	return s.locateLocked(abs)
}

func (s *Session) locateLocked(abs string) (*Snapshot, string, bool) {
	var best *Snapshot
	rel := ""
	for root, snap := range s.folders {
		if r, ok := relUnder(abs, root); ok {
			if best == nil || len(root) > len(best.root) {
				best, rel = snap, r
			}
		}
	}
	if best == nil || rel == "" || path.Clean(rel) != rel {
		return nil, "", false
	}
	return best, rel, true
}

// SetOverlays records unsaved buffer contents (nil: the buffer closed, the
// disk is the truth again) and makes the next snapshot of each folder they
// touch. Files outside every folder are ignored.
func (s *Session) SetOverlays(changes map[string][]byte) {
	s.mu.Lock()
	defer s.mu.Unlock()
	per := map[*Snapshot]map[string][]byte{}
	for abs, text := range changes {
		snap, rel, ok := s.locateLocked(abs)
		if !ok {
			continue
		}
		if per[snap] == nil {
			per[snap] = map[string][]byte{}
		}
		per[snap][rel] = text
	}
	for snap, ch := range per {
		next := snap.WithOverlays(ch)
		if _, cfg := ch[ConfigFile]; !cfg {
			// Only buffers changed, so what the previous snapshot read from
			// disk is still the disk (disk changes arrive via DiskChanged,
			// which re-reads everything), except the files whose buffers
			// opened, changed or closed. Re-reading every doc and hinted
			// file on each keystroke was most of a diagnosis pass.
			next.reads = snap.reads.without(ch)
		}
		s.folders[snap.root] = next
	}
}

// without copies the cache minus the given paths.
func (c *readCache) without(drop map[string][]byte) *readCache {
	c.mu.Lock()
	defer c.mu.Unlock()
	n := &readCache{m: make(map[string]*readResult, len(c.m))}
	for k, v := range c.m {
		if _, ok := drop[k]; !ok {
			n.m[k] = v
		}
	}
	return n
}

// DiskChanged makes new snapshots that re-list and re-read the folders
// holding the given absolute paths (files created, deleted, or changed on
// disk, a branch switch). One call for a whole batch of events.
func (s *Session) DiskChanged(paths []string) error {
	s.mu.Lock()
	defer s.mu.Unlock()
	touched := map[*Snapshot]bool{}
	for _, abs := range paths {
		for root, snap := range s.folders {
			if _, ok := relUnder(abs, root); ok {
				touched[snap] = true
			}
		}
	}
	for snap := range touched {
		next, err := snap.Relist()
		if err != nil {
			return err
		}
		s.folders[snap.root] = next
	}
	return nil
}

// Configure replaces the editor settings (the "clew" section, with the
// keys of `.clew.yml`). A folder's own `.clew.yml` wins over them.
func (s *Session) Configure(settings []byte) {
	s.mu.Lock()
	defer s.mu.Unlock()
	s.settings = append([]byte(nil), settings...)
	for root, snap := range s.folders {
		next := snap.WithOverlays(nil)
		next.applySettings(s.settings)
		s.folders[root] = next
	}
}

// Relist returns a snapshot that lists the folder's files again and reads
// the disk afresh, keeping the overlays and the parse cache.
func (s *Snapshot) Relist() (*Snapshot, error) {
	n, err := Load(s.root, s.files, s.git)
	if err != nil {
		return nil, err
	}
	n.tables = s.tables
	n.settings = s.settings
	n.siblings = s.siblings
	if len(s.overlays) > 0 {
		return n.WithOverlays(s.overlays), nil
	}
	n.loadConfig()
	return n, nil
}

// applySettings uses the editor's settings as the configuration when the
// folder has no `.clew.yml` of its own.
func (s *Snapshot) applySettings(settings []byte) {
	s.settings = settings
	s.loadConfig()
}

// configFromSettings reads editor settings (JSON with `.clew.yml` keys). An
// invalid object is a config/invalid diagnostic and the defaults apply.
func configFromSettings(settings []byte) (Config, []Diagnostic) {
	var probe map[string]any
	if err := json.Unmarshal(settings, &probe); err != nil || len(probe) == 0 {
		return DefaultConfig(), nil
	}
	// JSON is YAML: one parser, one set of rules and messages.
	cfg, diags := ParseConfig(settings)
	for i := range diags {
		diags[i].Message = "editor settings: " + diags[i].Message
	}
	return cfg, diags
}
