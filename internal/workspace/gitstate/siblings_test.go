package gitstate_test

import (
	"context"
	"fmt"
	"os"
	"path/filepath"
	"strings"
	"sync"
	"testing"
	"time"

	"github.com/clew-lsp/clew-lsp/internal/claims"
	"github.com/clew-lsp/clew-lsp/internal/workspace"
	"github.com/clew-lsp/clew-lsp/internal/workspace/disk"
	"github.com/clew-lsp/clew-lsp/internal/workspace/gitstate"
	"github.com/clew-lsp/clew-lsp/internal/workspace/wstest"
)

func open(t *testing.T, brain string, e claims.RepoEntry, channel string, worktree bool) claims.Repo {
	t.Helper()
	return gitstate.NewSiblings().Open(brain, e, channel, worktree)
}

func read(t *testing.T, r claims.Repo, p string) string {
	t.Helper()
	b, ok := r.Read(p)
	if !ok {
		t.Fatalf("%s: %s unreadable", r.Key(), p)
	}
	return string(b)
}

// At the channel ref the tree and its blobs are read; the work tree (an
// edit, a new tracked file, a deletion) is not.
func TestRefReadIgnoresWorkTree(t *testing.T) {
	root := t.TempDir()
	brain := wstest.NewAt(t, filepath.Join(root, "brain"))
	api := wstest.NewAt(t, filepath.Join(root, "api"))
	api.Write(map[string]string{"a.ts": "channel\n", "gone.ts": "x\n", "sub/b.ts": "b\n"})
	api.Commit("one")
	pub := api.Publish()
	api.Write(map[string]string{"a.ts": "local edit\n", "new.ts": "new\n"})
	api.Remove("gone.ts")
	api.Commit("two")
	api.Symlink("a.ts", "link.ts")

	r := open(t, brain.Dir, claims.RepoEntry{Key: "api", Path: "../api"}, "origin/main", false)
	if got := strings.Join(r.Files(), ","); got != "a.ts,gone.ts,sub/b.ts" {
		t.Errorf("files = %s", got)
	}
	if got := read(t, r, "a.ts"); got != "channel\n" {
		t.Errorf("a.ts = %q, want the channel's blob", got)
	}
	if got := read(t, r, "gone.ts"); got != "x\n" {
		t.Errorf("gone.ts = %q", got)
	}
	if _, ok := r.Read("new.ts"); ok {
		t.Error("a file not on the channel must not be readable")
	}
	if r.Untracked() != nil {
		t.Error("a ref read has no untracked side")
	}
	f := r.Facts()
	if f.Kind != claims.ReadChannel || f.SHA != pub[:7] || f.Channel != "origin/main" || f.LastFetch != "" || !strings.HasPrefix(f.Parked, "master @ ") {
		t.Errorf("facts = %+v", f)
	}
	real, _ := filepath.EvalSymlinks(api.Dir)
	if r.Identity() != real+"@"+pub {
		t.Errorf("identity = %q", r.Identity())
	}
	// A full ref name resolves too, to the same identity.
	r2 := open(t, brain.Dir, claims.RepoEntry{Key: "api2", Path: "../api"}, "refs/remotes/origin/main", false)
	if r2.Identity() != r.Identity() {
		t.Errorf("identity by full ref name = %q", r2.Identity())
	}
}

// No channel: the index is the file list (symlinks dropped, stages
// collapsed), the work tree the content, and the facts say FELL BACK.
func TestFellBackAndWorktree(t *testing.T) {
	root := t.TempDir()
	api := wstest.NewAt(t, filepath.Join(root, "api"))
	api.Write(map[string]string{"a.ts": "one\n", ".gitignore": "build/\n"})
	api.Symlink("a.ts", "link.ts")
	head := api.Commit("one")
	api.Write(map[string]string{"a.ts": "edited\n", "untracked.ts": "u\n", "build/out.ts": "ignored\n"})
	r := open(t, root, claims.RepoEntry{Key: "api", Path: "api"}, "origin/main", false)
	if got := strings.Join(r.Files(), ","); got != ".gitignore,a.ts" {
		t.Errorf("files = %s (symlink must be dropped)", got)
	}
	if got := read(t, r, "a.ts"); got != "edited\n" {
		t.Errorf("a.ts = %q, want the work tree", got)
	}
	if got := strings.Join(r.Untracked(), ","); got != "untracked.ts" {
		t.Errorf("untracked = %s (ignored and tracked files excluded)", got)
	}
	if f := r.Facts(); f.Kind != claims.ReadFellBack || f.Branch != "master" || f.SHA != head[:7] {
		t.Errorf("facts = %+v", f)
	}
	line := claims.ReadLine("api", r.Facts())
	if !strings.Contains(line, "FELL BACK to the working tree") {
		t.Errorf("read line = %q", line)
	}
	api.Publish()
	w := open(t, root, claims.RepoEntry{Key: "api", Path: "api"}, "origin/main", true)
	if f := w.Facts(); f.Kind != claims.ReadWorktree || f.ChannelSHA != head[:7] {
		t.Errorf("--worktree facts = %+v", f)
	}
}

// A declared path inside a repository reads that sub-directory, with
// paths relative to it, at the ref and in the work tree alike.
func TestSubdirectoryEntry(t *testing.T) {
	root := t.TempDir()
	mono := wstest.NewAt(t, filepath.Join(root, "mono"))
	mono.Write(map[string]string{"services/api/a.ts": "a\n", "services/web/b.ts": "b\n", "top.ts": "t\n"})
	mono.Commit("mono")
	for _, worktree := range []bool{false, true} {
		mono.Publish()
		r := open(t, root, claims.RepoEntry{Key: "api", Path: "mono/services/api"}, "origin/main", worktree)
		if got := strings.Join(r.Files(), ","); got != "a.ts" {
			t.Errorf("worktree=%v: files = %s", worktree, got)
		}
		if got := read(t, r, "a.ts"); got != "a\n" {
			t.Errorf("worktree=%v: a.ts = %q", worktree, got)
		}
	}
}

// Work-tree reads never leave the checkout: a tracked path whose parent
// directory became a symlink to elsewhere is unreadable, and so are paths
// with dot segments. Files of any size are read (the run's byte budget
// bounds them) and their size is known before reading.
func TestWorktreePathsStayInside(t *testing.T) {
	root := t.TempDir()
	outside := filepath.Join(root, "outside")
	os.MkdirAll(outside, 0o755)
	os.WriteFile(filepath.Join(outside, "secret.ts"), []byte("secret\n"), 0o644)
	api := wstest.NewAt(t, filepath.Join(root, "api"))
	api.Write(map[string]string{"dir/secret.ts": "mine\n", "big.js": strings.Repeat("x", 1_000_001)})
	api.Commit("one")
	os.RemoveAll(filepath.Join(api.Dir, "dir"))
	api.Symlink("../outside", "dir")
	r := open(t, root, claims.RepoEntry{Key: "api", Path: "api"}, "origin/main", false)
	for _, p := range []string{"dir/secret.ts", "../outside/secret.ts", "./big.js", "/etc/passwd"} {
		if b, ok := r.Read(p); ok {
			t.Errorf("Read(%q) = %q, want unreadable", p, b)
		}
	}
	if got := strings.Join(r.Files(), ","); got != "big.js,dir/secret.ts" {
		t.Errorf("files = %s (both stay members)", got)
	}
	if b, ok := r.Read("big.js"); !ok || len(b) != 1_000_001 {
		t.Errorf("work-tree big.js: %d bytes, ok=%v; want all of it", len(b), ok)
	}
	if n, ok := r.(claims.Sizer).Size("big.js"); !ok || n != 1_000_001 {
		t.Errorf("work-tree size %d %v", n, ok)
	}
	api.Publish()
	ref := open(t, root, claims.RepoEntry{Key: "api", Path: "api"}, "origin/main", false)
	if got := read(t, ref, "dir/secret.ts"); got != "mine\n" {
		t.Errorf("ref read = %q, want the blob", got)
	}
	if b, ok := ref.Read("big.js"); !ok || len(b) != 1_000_001 {
		t.Errorf("blob big.js: %d bytes, ok=%v; want all of it", len(b), ok)
	}
	if n, ok := ref.(claims.Sizer).Size("big.js"); !ok || n != 1_000_001 {
		t.Errorf("blob size %d %v", n, ok)
	}
}

// Missing directory, plain directory, and the brain reached by another key.
func TestOpenKinds(t *testing.T) {
	root := t.TempDir()
	brain := wstest.NewAt(t, filepath.Join(root, "brain"))
	brain.Write(map[string]string{"a.md": "x\n"})
	brain.Commit("b")
	if r := open(t, brain.Dir, claims.RepoEntry{Key: "gone", Path: "../gone"}, "", false); r.OnDisk() || r.Facts().Kind != claims.ReadNotOnDisk {
		t.Errorf("missing dir: %+v", r.Facts())
	}
	os.WriteFile(filepath.Join(root, "file"), []byte("x"), 0o644)
	if r := open(t, brain.Dir, claims.RepoEntry{Key: "f", Path: "../file"}, "", false); r.OnDisk() {
		t.Error("a file is not a checkout")
	}
	os.MkdirAll(filepath.Join(root, "plain", "node_modules"), 0o755)
	os.WriteFile(filepath.Join(root, "plain", "a.ts"), []byte("a"), 0o644)
	os.WriteFile(filepath.Join(root, "plain", "node_modules", "x.js"), []byte("x"), 0o644)
	p := open(t, brain.Dir, claims.RepoEntry{Key: "plain", Path: "../plain"}, "", false)
	if got := strings.Join(p.Files(), ","); !p.OnDisk() || got != "a.ts" || !strings.Contains(claims.ReadLine("plain", p.Facts()), "not a git repository") {
		t.Errorf("plain dir: files %s, line %q", got, claims.ReadLine("plain", p.Facts()))
	}
	real, _ := filepath.EvalSymlinks(brain.Dir)
	self := open(t, real, claims.RepoEntry{Key: "mv", Path: "."}, "", false)
	if self.Identity() != real+"@worktree" || self.Facts().Kind != claims.ReadBrain || strings.Join(self.Files(), ",") != "a.md" {
		t.Errorf("brain alias: %q %+v %v", self.Identity(), self.Facts(), self.Files())
	}
}

func TestAgo(t *testing.T) {
	for d, want := range map[time.Duration]string{30 * time.Second: "30s ago", 5 * time.Minute: "5m ago",
		2*time.Hour + 59*time.Minute: "2h ago", 47 * time.Hour: "47h ago", 72 * time.Hour: "3d ago"} {
		if got := gitstate.Ago(d); got != want {
			t.Errorf("Ago(%v) = %q, want %q", d, got, want)
		}
	}
}

// ---- read once ----

// countingFiles counts Read calls per path through the workspace's Files.
type countingFiles struct {
	workspace.Files
	mu    sync.Mutex
	reads map[string]int
}

func (c *countingFiles) Read(p string) ([]byte, error) {
	c.mu.Lock()
	c.reads[p]++
	c.mu.Unlock()
	return c.Files.Read(p)
}

func (c *countingFiles) Tracked() ([]string, error) {
	return c.Files.(workspace.TrackedLister).Tracked()
}

// countingSiblings wraps every opened repo so its reads are counted.
type countingSiblings struct {
	inner *gitstate.Siblings
	repos []*countingRepo
}

func (c *countingSiblings) Open(root string, e claims.RepoEntry, ch string, wt bool) claims.Repo {
	r := &countingRepo{Repo: c.inner.Open(root, e, ch, wt), reads: map[string]int{}}
	c.repos = append(c.repos, r)
	return r
}

type countingRepo struct {
	claims.Repo
	reads map[string]int
}

func (c *countingRepo) Read(p string) ([]byte, bool) {
	c.reads[p]++
	return c.Repo.Read(p)
}

// Every file is read at most once per verify, however many legs cover it:
// the brain's own files through the workspace's Files, a sibling's blobs
// at its channel ref and another sibling's work tree through the repos.
func TestEachFileReadOncePerRun(t *testing.T) {
	root := t.TempDir()
	brain := wstest.NewAt(t, filepath.Join(root, "brain"))
	api := wstest.NewAt(t, filepath.Join(root, "api"))
	web := wstest.NewAt(t, filepath.Join(root, "web"))
	files := map[string]string{}
	for i := 0; i < 40; i++ {
		files[fmt.Sprintf("src/f%02d.ts", i)] = fmt.Sprintf("export const v%d = %d;\n// limits: yes\n", i, i)
	}
	for _, r := range []*wstest.Repo{brain, api, web} {
		r.Write(files)
	}
	api.Commit("api")
	api.Publish()
	web.Commit("web")
	var law strings.Builder
	law.WriteString(strings.TrimPrefix(`
| ID | statement | authority | state | date | source |
| --- | --- | --- | --- | --- | --- |
`, "\n"))
	for i := 0; i < 60; i++ {
		fmt.Fprintf(&law, "| C-%02d | s | published | active | 2026-01-01 | x |\n", i)
		for _, key := range []string{"brain", "api", "web", "*"} {
			heal := "src/**/*.ts /export const v1 =/" // a heal (present, empty set) scans every file
			if i%20 == 0 {
				heal = "src/old/*.ts /export const v1 =/"
			}
			for _, spec := range []string{"src/**/*.ts /limits: yes/ each", "src/*.ts /eval\\(/ absent",
				fmt.Sprintf("src/f%02d.ts /v%d =/ unique", i%40, i%40), heal} {
				if key == "*" {
					spec = strings.Replace(spec, " unique", " count=3", 1)
				}
				fmt.Fprintf(&law, "<!-- @anchor C-%02d %s:%s -->\n", i, key, spec)
			}
		}
	}
	brain.Write(map[string]string{".multivac/config.yml": "repos:\n  api: ../api\n  web: ../web\n", ".multivac/invariants.md": law.String()})
	brain.Commit("brain")

	f, g, err := disk.Open(brain.Dir)
	if err != nil {
		t.Fatal(err)
	}
	cf := &countingFiles{Files: f, reads: map[string]int{}}
	snap, err := workspace.Load(f.Root(), cf, g)
	if err != nil {
		t.Fatal(err)
	}
	sib := &countingSiblings{inner: gitstate.NewSiblings()}
	snap.UseSiblings(sib)
	rep, err := snap.Check(context.Background(), workspace.CheckOptions{})
	if err != nil {
		t.Fatal(err)
	}
	if len(rep.Claims) != 60 || len(rep.Claims[0].Legs) != 16 {
		t.Fatalf("claims %d, legs %d", len(rep.Claims), len(rep.Claims[0].Legs))
	}
	bad := 0
	for _, c := range rep.Claims {
		if c.State != claims.StateOK {
			bad++
		}
	}
	if bad != 3 { // the three claims with a heal leg over src/old/
		t.Errorf("%d claims not ok, want 3", bad)
	}
	check := func(who string, reads map[string]int) {
		n := 0
		for p, k := range reads {
			if k > 1 {
				t.Errorf("%s: %s read %d times", who, p, k)
			}
			if strings.HasPrefix(p, "src/") {
				n++
			}
		}
		if n != 40 {
			t.Errorf("%s: %d source files read, want all 40", who, n)
		}
	}
	check("brain", cf.reads)
	for _, r := range sib.repos {
		check(r.Key(), r.reads)
	}
	if len(sib.repos) != 2 {
		t.Errorf("%d siblings opened", len(sib.repos))
	}
}
