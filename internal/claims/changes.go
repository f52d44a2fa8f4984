package claims

import (
	"path"
	"sort"
	"strings"

	"go.yaml.in/yaml/v3"
)

// Change is the frontmatter of a change file `.multivac/changes/<slug>.md`
// (docs/claims.md). Only what verify needs is kept.
type Change struct {
	Doc    string            // brain-relative path
	Slug   string            // frontmatter slug, else the file name
	Status string            // planned | open | archived
	Repos  map[string]string // key → planned|branched|committed|mr|landed
	Claims []string          // declared claim IDs, in order
}

type changeFront struct {
	Slug   string `yaml:"slug"`
	Status string `yaml:"status"`
	Repos  map[string]struct {
		Status string `yaml:"status"`
	} `yaml:"repos"`
	Claims []struct {
		ID string `yaml:"id"`
	} `yaml:"claims"`
}

// ParseChange reads a change file's frontmatter. ok is false when the file
// has none or it does not parse: verify ignores such files.
func ParseChange(doc string, content []byte) (ch Change, ok bool) {
	defer func() { // the YAML decoder must not take a run down with it
		if recover() != nil {
			ok = false
		}
	}()
	text := strings.ReplaceAll(string(content), "\r\n", "\n")
	if !strings.HasPrefix(text, "---\n") {
		return Change{}, false
	}
	end := strings.Index(text[4:], "\n---")
	if end < 0 {
		return Change{}, false
	}
	var fm changeFront
	if err := yaml.Unmarshal([]byte(text[4:4+end]), &fm); err != nil {
		return Change{}, false
	}
	ch = Change{Doc: doc, Slug: fm.Slug, Status: fm.Status, Repos: map[string]string{}}
	if ch.Slug == "" {
		ch.Slug = strings.TrimSuffix(path.Base(doc), ".md")
	}
	for k, v := range fm.Repos {
		ch.Repos[k] = v.Status
	}
	for _, c := range fm.Claims {
		if c.ID != "" {
			ch.Claims = append(ch.Claims, c.ID)
		}
	}
	return ch, true
}

// pendingClaims maps each claim ID declared by an open change to the change's
// slug; files are taken in sorted order and the first declaration wins.
func pendingClaims(changes []Change) map[string]string {
	sorted := append([]Change(nil), changes...)
	sort.Slice(sorted, func(i, j int) bool { return sorted[i].Doc < sorted[j].Doc })
	out := map[string]string{}
	for _, ch := range sorted {
		if ch.Status != "open" {
			continue
		}
		for _, id := range ch.Claims {
			if _, taken := out[id]; !taken {
				out[id] = ch.Slug
			}
		}
	}
	return out
}
