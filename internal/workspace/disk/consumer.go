package disk

import (
	"context"
	"fmt"
	"os"
	"path/filepath"
	"sort"

	git "github.com/go-git/go-git/v5"

	"github.com/clew-lsp/clew-lsp/internal/claims"
	"github.com/clew-lsp/clew-lsp/internal/workspace"
)

// DefaultMount is where consumer repositories mount the brain (multivac's
// `mount:` default).
const DefaultMount = ".brain"

// legacyMounts are mount names that, present without a config, mean a
// stale or uninitialised submodule rather than "no brain here".
var legacyMounts = []string{DefaultMount, ".knowledge"}

// FindMount looks for a brain mounted in a direct child of root (docs/claims.md): `.brain` when it holds `.multivac/config.yml` (or a law), else
// the one child directory that does. mount is "" when root mounts no
// brain. problem is non-empty when the mount cannot be used: a `.brain`
// (or `.knowledge`) without a config — an uninitialised or stale
// submodule —, or several candidate children.
func FindMount(root string) (mount, problem string) {
	isBrain := func(dir string) bool {
		for _, f := range []string{claims.ConfigFile, claims.LawFile} {
			if st, err := os.Stat(filepath.Join(root, dir, filepath.FromSlash(f))); err == nil && st.Mode().IsRegular() {
				return true
			}
		}
		return false
	}
	if isBrain(DefaultMount) {
		return DefaultMount, ""
	}
	ents, err := os.ReadDir(root)
	if err != nil {
		return "", ""
	}
	var found []string
	for _, e := range ents {
		if e.Name() == ".git" {
			continue
		}
		if st, err := os.Stat(filepath.Join(root, e.Name())); err != nil || !st.IsDir() {
			continue
		}
		if st, err := os.Stat(filepath.Join(root, e.Name(), filepath.FromSlash(claims.ConfigFile))); err == nil && st.Mode().IsRegular() {
			found = append(found, e.Name())
		}
	}
	sort.Strings(found)
	switch {
	case len(found) == 1:
		return found[0], ""
	case len(found) > 1:
		return "", fmt.Sprintf("several child directories hold a brain (%v) — mount one at %s", found, DefaultMount)
	}
	for _, m := range legacyMounts {
		if st, err := os.Stat(filepath.Join(root, m)); err == nil && st.IsDir() {
			return m, fmt.Sprintf("%s holds no %s — a stale or uninitialised brain mount: run `git submodule update --init %s`", m, claims.ConfigFile, m)
		}
	}
	return "", ""
}

// ConsumerFacts identifies the checkout at root among the brain's declared
// repos: origin URL (go-git, no network), the keys whose path resolves to
// root, and root's directory name.
func ConsumerFacts(root string, brain *workspace.Snapshot) workspace.ConsumerFacts {
	real := root
	if r, err := filepath.EvalSymlinks(root); err == nil {
		real = r
	}
	f := workspace.ConsumerFacts{Basename: filepath.Base(real)}
	if r, err := git.PlainOpenWithOptions(real, &git.PlainOpenOptions{DetectDotGit: true}); err == nil {
		if rem, err := r.Remote("origin"); err == nil && len(rem.Config().URLs) > 0 {
			f.OriginURL = rem.Config().URLs[0]
		}
	}
	cfg, _, _ := brain.ClaimsConfig()
	for _, e := range cfg.Repos {
		dir := filepath.FromSlash(e.Path)
		if !filepath.IsAbs(dir) {
			dir = filepath.Join(brain.Root(), dir)
		}
		if p, err := filepath.EvalSymlinks(dir); err == nil && p == real {
			f.PathKeys = append(f.PathKeys, e.Key)
		}
	}
	return f
}

// ConsumerScope finds the brain mounted in the workspace of snap and this
// checkout's repo key (repoFlag is --repo). ok is false when snap is a
// brain itself or mounts none; problem says why the scope cannot be used
// (verify records it as a config error: exit 2, the report still
// printed), with the doc it concerns.
func ConsumerScope(snap *workspace.Snapshot, repoFlag string) (sc workspace.ConsumerScope, ok bool, doc, problem string) {
	if snap.IsBrain() {
		return sc, false, "", ""
	}
	root := snap.Root()
	mount, problem := FindMount(root)
	if problem != "" {
		if mount == "" {
			mount = "."
		}
		return sc, false, mount, problem
	}
	if mount == "" {
		if repoFlag != "" {
			return sc, false, ".", fmt.Sprintf("--repo %s: no brain is mounted here (%s, or one child directory holding %s)", repoFlag, DefaultMount, claims.ConfigFile)
		}
		return sc, false, "", ""
	}
	brain, err := Load(filepath.Join(root, mount))
	if err != nil {
		return sc, false, mount, fmt.Sprintf("the brain mounted at %s cannot be read: %v", mount, err)
	}
	cfg, _, _ := brain.ClaimsConfig()
	key, msg := workspace.ResolveConsumerKey(cfg, repoFlag, ConsumerFacts(root, brain))
	if msg != "" {
		return sc, false, filepath.ToSlash(filepath.Join(mount, filepath.FromSlash(claims.ConfigFile))), msg
	}
	return workspace.ConsumerScope{Brain: brain, Mount: mount, Key: key}, true, "", ""
}

// CheckScope runs the claims scope verify needs beyond Check: for a
// workspace that mounts a brain, the consumer-scoped evaluation merged
// into rep; a problem with the scope becomes an exit-2 diagnostic.
func CheckScope(ctx context.Context, snap *workspace.Snapshot, rep *workspace.Report, repoFlag string, opt workspace.CheckOptions) error {
	sc, ok, doc, problem := ConsumerScope(snap, repoFlag)
	if problem != "" {
		rep.AddScopeError(doc, problem)
		return nil
	}
	if !ok {
		return nil
	}
	return snap.CheckConsumer(ctx, rep, sc, opt)
}
