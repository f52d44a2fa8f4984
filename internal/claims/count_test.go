package claims

import (
	"strings"
	"testing"
)

func ecoRepos() (Config, []Repo) {
	cfg, _ := ParseConfig([]byte(ecoFiles["repo/brain/.multivac/config.yml"]))
	api := &MemRepo{Name: "api", Content: map[string][]byte{}, ReadFacts: ReadFacts{Kind: ReadFellBack, Branch: "main", SHA: "1a2b3c4", Channel: DefaultChannel}}
	web := &MemRepo{Name: "web", Content: map[string][]byte{}, ReadFacts: ReadFacts{Kind: ReadFellBack, Branch: "main", SHA: "1a2b3c4", Channel: DefaultChannel}}
	brain := &MemRepo{Name: "brain", Content: map[string][]byte{}, ReadFacts: ReadFacts{Kind: ReadBrain, Branch: "main", SHA: "abc1234"}}
	for k, v := range ecoFiles {
		key, p, _ := strings.Cut(strings.TrimPrefix(k, "repo/"), "/")
		map[string]*MemRepo{"api": api, "web": web, "brain": brain}[key].Content[p] = []byte(v)
	}
	return cfg, []Repo{brain, api, web}
}

// The count dry-run (docs/claims.md).
func TestCount(t *testing.T) {
	cfg, repos := ecoRepos()
	cases := []struct {
		spec  string
		exit  int
		gists []string
	}{
		{"api:db/migrations/*.sql /grant/i", 0, []string{"db/migrations/0001.sql  1", "1 match in 1 tracked file — a ratchet pins count=1", "every file matches"}},
		{"*:README.md /acme/", 0, []string{"api:README.md  1", "web:README.md  1", "2 matches in 2 tracked files — a ratchet pins count=2"}},
		{"api:src/** /nothing/", 0, []string{"0 matches in 1 tracked file", "no file matches — `each!`"}},
		{"api:**/*.{ts,md} /acme/ each", 0, []string{"src/server.ts  0", "README.md  1", "1 of 2 tracked files match — each would fail on 1 file (src/server.ts)"}},
		{"api:**/*.{ts,md} /acme/ each!", 0, []string{"1 of 2 tracked files match — each! would fail on 1 file (README.md)"}},
		{"api:nope/** /x/", 0, []string{"glob matched no tracked files in api — an anchor on it would be vacuous"}},
		{"api:src/** /\\d/", 2, []string{`\d is not POSIX ERE`}},
		{"nope:src/** /x/", 2, []string{`unknown repo key "nope"`}},
		{"apisrc /x/", 2, []string{"is not <repo>:<glob>"}},
		{"api:src/{a /x/", 2, []string{"cannot be compiled"}},
	}
	for _, c := range cases {
		out, exit := Count(c.spec, cfg, repos)
		if exit != c.exit {
			t.Errorf("%q: exit %d, want %d\n%s", c.spec, exit, c.exit, out)
		}
		for _, g := range c.gists {
			if !strings.Contains(out, g) {
				t.Errorf("%q: output lacks %q\n%s", c.spec, g, out)
			}
		}
	}
}
