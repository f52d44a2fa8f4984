package workspace

import (
	"context"
	"fmt"
	"path"
	"sort"
	"strings"

	"github.com/clew-lsp/clew-lsp/internal/anchors"
	"github.com/clew-lsp/clew-lsp/internal/claims"
)

// Consumer scope (docs/claims.md): a code repository that mounts a
// brain (`.brain`, or the one child directory holding
// `.multivac/config.yml`). verify there evaluates the brain's legs whose
// key is this checkout's (or `*`) against this checkout's working tree and
// editor buffers only; nothing is written, no sibling is opened, and the
// brain's own `@code` anchors (which name the brain's files) are not legs
// here. Finding the mount and this checkout's origin URL is disk I/O: the
// disk adapter does it and passes the brain in as its own Snapshot.

// ConsumerScope is one consumer-scoped run.
type ConsumerScope struct {
	// Brain is the mounted brain, loaded as a workspace of its own.
	Brain *Snapshot
	// Mount is the brain's directory relative to this workspace
	// (".brain"); the brain's doc paths are reported under it.
	Mount string
	// Key is this checkout's repo key in the brain's registry.
	Key string
}

// ConsumerFacts identify this checkout among the brain's declared repos.
type ConsumerFacts struct {
	// OriginURL is the `origin` remote's URL ("" when there is none).
	OriginURL string
	// PathKeys are the keys whose declared path resolves (through
	// symlinks) to this checkout.
	PathKeys []string
	// Basename is this checkout's directory name.
	Basename string
}

// ClaimsConfig reads `.multivac/config.yml` as the claims engine sees it:
// the config, what ParseConfig said, and whether the file is missing.
func (s *Snapshot) ClaimsConfig() (cfg claims.Config, diags []claims.Diagnostic, missing bool) {
	if b, st := s.ReadFile(claims.ConfigFile); st == anchors.FileOK {
		cfg, diags = claims.ParseConfig(b)
		return cfg, diags, false
	}
	return claims.DefaultConfig(), nil, true
}

// NormalizeGitURL reduces a remote URL to host/path for comparison:
// scheme, user and a trailing ".git" or "/" dropped, the scp form
// `git@host:group/repo` read as `host/group/repo`, the host lower-cased.
func NormalizeGitURL(u string) string {
	u = strings.TrimSpace(u)
	if u == "" {
		return ""
	}
	if i := strings.Index(u, "://"); i >= 0 {
		u = u[i+3:]
	} else if c := strings.Index(u, ":"); c > 0 && !strings.Contains(u[:c], "/") {
		u = u[:c] + "/" + u[c+1:] // scp-like host:path
	}
	if at := strings.LastIndex(strings.SplitN(u, "/", 2)[0], "@"); at >= 0 {
		u = u[at+1:]
	}
	u = strings.TrimSuffix(strings.TrimSuffix(u, "/"), ".git")
	host, rest, _ := strings.Cut(u, "/")
	if h, _, ok := strings.Cut(host, ":"); ok && rest != "" { // drop a port
		host = h
	}
	return strings.ToLower(host) + "/" + rest
}

// ResolveConsumerKey picks this checkout's repo key: flag (--repo) when
// given, which must be declared; otherwise the one entry that matches by
// normalised origin URL, else by resolved path, else by directory
// basename (the entry's key or its path's last element). msg is non-empty
// when nothing or several match: verify then exits 2 asking for --repo.
func ResolveConsumerKey(cfg claims.Config, flag string, f ConsumerFacts) (key, msg string) {
	var declared []string
	for _, e := range cfg.Repos {
		if e.Key != "brain" {
			declared = append(declared, e.Key)
		}
	}
	list := strings.Join(declared, ", ")
	if list == "" {
		list = "none"
	}
	if flag != "" {
		if _, ok := cfg.Repo(flag); ok && flag != "brain" {
			return flag, ""
		}
		return "", fmt.Sprintf("--repo %q is not declared under repos: in the brain's %s (declared: %s)", flag, claims.ConfigFile, list)
	}
	tiers := []struct {
		by   string
		keys []string
	}{{by: "origin URL"}, {by: "path"}, {by: "directory name"}}
	pathKey := map[string]bool{}
	for _, k := range f.PathKeys {
		pathKey[k] = true
	}
	origin := NormalizeGitURL(f.OriginURL)
	for _, e := range cfg.Repos {
		if e.Key == "brain" {
			continue
		}
		if origin != "" && e.URL != "" && NormalizeGitURL(e.URL) == origin {
			tiers[0].keys = append(tiers[0].keys, e.Key)
		}
		if pathKey[e.Key] {
			tiers[1].keys = append(tiers[1].keys, e.Key)
		}
		if f.Basename != "" && (e.Key == f.Basename || path.Base(e.Path) == f.Basename) {
			tiers[2].keys = append(tiers[2].keys, e.Key)
		}
	}
	for _, t := range tiers {
		switch len(t.keys) {
		case 0:
			continue
		case 1:
			return t.keys[0], ""
		}
		sort.Strings(t.keys)
		return "", fmt.Sprintf("this checkout matches several repo keys by %s (%s) — pass --repo <key>", t.by, strings.Join(t.keys, ", "))
	}
	return "", fmt.Sprintf("no repo key of the mounted brain matches this checkout (by origin URL, path or directory name) — pass --repo <key> (declared: %s)", list)
}

// CheckConsumer evaluates a mounted brain's legs for this checkout and
// merges them into rep (claims, coverage, diagnostics, the text section,
// the exit code), as Check does for a brain.
func (s *Snapshot) CheckConsumer(ctx context.Context, rep *Report, sc ConsumerScope, opt CheckOptions) error {
	budget := s.config.Budget
	if opt.Budget != nil {
		budget = *opt.Budget
	}
	in := claims.Input{Docs: map[string][]byte{},
		Options: claims.Options{Strict: opt.Strict, Consumer: sc.Key, BrainDir: sc.Mount, MaxBytes: budget.MaxBytes}}
	for _, p := range sc.Brain.Files() {
		if claims.LawDoc(p) {
			if b, st := sc.Brain.ReadFile(p); st == anchors.FileOK {
				in.Docs[p] = b
			}
		}
	}
	in.Config, in.ConfigDiagnostics, in.ConfigMissing = sc.Brain.ClaimsConfig()
	in.Repos = []claims.Repo{s.consumerRepo(sc)}
	res, err := claims.Evaluate(ctx, in)
	if err != nil {
		return err
	}
	under := func(doc string) string { return path.Join(sc.Mount, doc) }
	for i := range res.Diagnostics {
		res.Diagnostics[i].Doc = under(res.Diagnostics[i].Doc)
	}
	for i := range res.Claims {
		c := &res.Claims[i]
		if c.Row != nil {
			row := *c.Row
			row.Doc = under(row.Doc)
			c.Row = &row
		}
		for j := range c.Legs {
			c.Legs[j].Doc = under(c.Legs[j].Doc)
		}
	}
	res.Edits = nil // a consumer-scoped run never writes (the mount is a pinned submodule)
	rep.claims = res
	rep.Claims = res.Claims
	if rep.Claims == nil {
		rep.Claims = []ClaimReport{}
	}
	rep.Coverage = res.Coverage
	for _, d := range res.Diagnostics {
		rep.Diagnostics = append(rep.Diagnostics, s.lineDiagnostic(d))
	}
	rep.claimsReport = claims.Report(res)
	rep.claimFindings = s.buildClaimFindings(rep)
	rep.Exit = exitCode(rep)
	return nil
}

// AddScopeError records a problem that makes the claims scope unusable
// (no repo key resolves, an empty mount): a config/invalid error on doc,
// so verify exits 2 and the rest of the report is still printed.
func (r *Report) AddScopeError(doc, msg string) {
	r.Diagnostics = append(r.Diagnostics, Diagnostic{Doc: doc, Line: 1, Severity: SeverityError,
		Code: CodeConfigInvalid, Message: msg})
	r.Exit = exitCode(r)
}

// consumerRepo is this checkout as the consumer's repo key: git's tracked
// files (the mount left out), content from the working tree and buffers.
func (s *Snapshot) consumerRepo(sc ConsumerScope) claims.Repo {
	r := s.brainRepo()
	c := &consumerRepo{snapshotRepo: r, key: sc.Key}
	inMount := func(p string) bool { return sc.Mount != "" && (p == sc.Mount || strings.HasPrefix(p, sc.Mount+"/")) }
	for _, p := range r.tracked {
		if !inMount(p) {
			c.tracked = append(c.tracked, p)
		}
	}
	for _, p := range r.untracked {
		if !inMount(p) {
			c.untracked = append(c.untracked, p)
		}
	}
	return c
}

type consumerRepo struct {
	*snapshotRepo
	key                string
	tracked, untracked []string
}

func (c *consumerRepo) Key() string         { return c.key }
func (c *consumerRepo) Files() []string     { return c.tracked }
func (c *consumerRepo) Untracked() []string { return c.untracked }
func (c *consumerRepo) Facts() claims.ReadFacts {
	f := c.snapshotRepo.Facts()
	f.Kind = claims.ReadConsumer
	return f
}

// ClaimSources are the config and the checkouts a brain-scoped run reads
// (the brain's working tree, then every declared repo through the
// injected Siblings), for `clew-lsp count`, which must read the same bytes
// as verify.
func (s *Snapshot) ClaimSources(worktree bool) (claims.Config, []claims.Diagnostic, []claims.Repo) {
	cfg, diags, _ := s.ClaimsConfig()
	repos := []claims.Repo{s.brainRepo()}
	for _, entry := range cfg.Repos {
		if entry.Key == "brain" {
			continue // `brain: .` is the brain itself, already first
		}
		if s.siblings != nil {
			repos = append(repos, s.siblings.Open(s.root, entry, cfg.ChannelFor(entry.Key), worktree))
		} else {
			repos = append(repos, &claims.MemRepo{Name: entry.Key, Missing: true,
				ReadFacts: claims.ReadFacts{Kind: claims.ReadNotOnDisk}})
		}
	}
	return cfg, diags, repos
}

// ConsumerSources are the config and the one checkout a consumer-scoped
// run reads.
func (s *Snapshot) ConsumerSources(sc ConsumerScope) (claims.Config, []claims.Diagnostic, []claims.Repo) {
	cfg, diags, _ := sc.Brain.ClaimsConfig()
	return cfg, diags, []claims.Repo{s.consumerRepo(sc)}
}
