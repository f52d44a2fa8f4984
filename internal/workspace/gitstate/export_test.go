package gitstate

import (
	"strings"

	"github.com/go-git/go-git/v5/plumbing/filemode"
)

// IndexEntry is an index entry as the tests compare them.
type IndexEntry struct {
	Name  string
	Mode  uint32
	Stage uint8
}

// DecodeIndex is decodeIndex for the tests.
func DecodeIndex(data []byte) ([]IndexEntry, bool) {
	es, ok := decodeIndex(data)
	if !ok {
		return nil, false
	}
	out := make([]IndexEntry, len(es))
	for i, e := range es {
		out[i] = IndexEntry{e.name, e.mode, e.stage}
	}
	return out, true
}

// GoGitTracked is Tracked as it was before the hand decoder: every entry
// through go-git's storage.
func GoGitTracked(g *Repo) ([]string, error) {
	idx, err := g.repo.Storer.Index()
	if err != nil {
		return nil, err
	}
	var out []string
	for _, e := range idx.Entries {
		if e.Mode != filemode.Symlink && e.Mode != filemode.Submodule && strings.HasPrefix(e.Name, g.prefix) {
			out = append(out, strings.TrimPrefix(e.Name, g.prefix))
		}
	}
	return out, nil
}
