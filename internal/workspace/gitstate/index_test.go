package gitstate_test

import (
	"bytes"
	"crypto/sha1"
	"encoding/binary"
	"fmt"
	"os"
	"os/exec"
	"path/filepath"
	"runtime"
	"slices"
	"strings"
	"testing"

	"github.com/go-git/go-git/v5/plumbing"
	"github.com/go-git/go-git/v5/plumbing/filemode"
	"github.com/go-git/go-git/v5/plumbing/format/index"

	"github.com/clew-lsp/clew-lsp/internal/workspace/gitstate"
	"github.com/clew-lsp/clew-lsp/internal/workspace/wstest"
)

// goGitDecode is the reference: go-git's decoder over the same bytes.
func goGitDecode(data []byte) ([]gitstate.IndexEntry, error) {
	idx := &index.Index{}
	if err := index.NewDecoder(bytes.NewReader(data)).Decode(idx); err != nil {
		return nil, err
	}
	out := make([]gitstate.IndexEntry, len(idx.Entries))
	for i, e := range idx.Entries {
		out[i] = gitstate.IndexEntry{Name: e.Name, Mode: uint32(e.Mode), Stage: uint8(e.Stage)}
	}
	return out, nil
}

// sameAsGoGit fails the test if decodeIndex accepts data and disagrees
// with go-git in any way (go-git refuses it, or other entries); it says
// whether decodeIndex accepted.
func sameAsGoGit(t testing.TB, what string, data []byte) bool {
	t.Helper()
	got, ok := gitstate.DecodeIndex(data)
	if !ok {
		return false
	}
	want, err := goGitDecode(data)
	if err != nil {
		t.Fatalf("%s: decoded %d entries where go-git fails: %v", what, len(got), err)
	}
	if !slices.Equal(got, want) {
		for i := range min(len(got), len(want)) {
			if got[i] != want[i] {
				t.Fatalf("%s: entry %d = %+v, go-git %+v (%d vs %d entries)", what, i, got[i], want[i], len(got), len(want))
			}
		}
		t.Fatalf("%s: %d entries, go-git %d", what, len(got), len(want))
	}
	return true
}

// encodeIndex writes entries with go-git's encoder (which sorts them by
// name and writes no extension).
func encodeIndex(t testing.TB, version uint32, entries []*index.Entry) []byte {
	t.Helper()
	var b bytes.Buffer
	if err := index.NewEncoder(&b).Encode(&index.Index{Version: version, Entries: entries}); err != nil {
		t.Fatal(err)
	}
	return b.Bytes()
}

// withExtensions appends raw extensions (signature + body) after the
// entries of an index and checksums the result again.
func withExtensions(data []byte, exts ...string) []byte {
	out := slices.Clone(data[:len(data)-20])
	for _, e := range exts {
		out = append(out, e[:4]...)
		out = binary.BigEndian.AppendUint32(out, uint32(len(e)-4))
		out = append(out, e[4:]...)
	}
	return resum(out)
}

// resum appends the SHA-1 of data (a body without its checksum).
func resum(data []byte) []byte {
	sum := sha1.Sum(data)
	return append(data, sum[:]...)
}

func syntheticEntries() []*index.Entry {
	h := plumbing.NewHash("0123456789abcdef0123456789abcdef01234567")
	long := strings.Repeat("d/", 2600) + "x.go" // past the 12-bit length field
	var es []*index.Entry
	for _, n := range []string{"a.go", "a/b.go", "a/b/c.go", "a/bc.go", "ab.go", "b", "docs/guide.md", "docs/guidance.md", "z/" + strings.Repeat("y", 4094), "z/" + strings.Repeat("w", 4093), long} {
		es = append(es, &index.Entry{Name: n, Hash: h, Mode: filemode.Regular, Size: 7})
	}
	es = append(es,
		&index.Entry{Name: "bin/run", Hash: h, Mode: filemode.Executable},
		&index.Entry{Name: "link", Hash: h, Mode: filemode.Symlink},
		&index.Entry{Name: "vendor/mod", Hash: h, Mode: filemode.Submodule},
		&index.Entry{Name: "new.go", Hash: h, Mode: filemode.Regular, IntentToAdd: true},
		&index.Entry{Name: "sparse/skip.go", Hash: h, Mode: filemode.Regular, SkipWorktree: true},
	)
	for s := index.AncestorMode; s <= index.TheirMode; s++ {
		es = append(es, &index.Entry{Name: "conflict.go", Hash: h, Mode: filemode.Regular, Stage: s})
	}
	return es
}

// Indexes written by go-git in every version, with and without the
// extensions git writes: decodeIndex reads them all, as go-git does, and
// declines what it does not know.
func TestDecodeIndexSynthetic(t *testing.T) {
	tree := "\x002 1\n" + strings.Repeat("\x01", 20) + "a\x00-1 0\n"
	reuc := "conflict.go\x00100644\x00100644\x000\x00" + strings.Repeat("\x02", 40)
	eoie := "\x00\x00\x00\x10" + strings.Repeat("\x03", 20)
	for _, v := range []uint32{2, 3, 4} {
		base := encodeIndex(t, v, syntheticEntries())
		accept := map[string][]byte{
			"bare":                 base,
			"TREE":                 withExtensions(base, "TREE"+tree),
			"TREE REUC EOIE":       withExtensions(base, "TREE"+tree, "REUC"+reuc, "EOIE"+eoie),
			"optional UNTR FSMN":   withExtensions(base, "UNTR"+strings.Repeat("\x00", 37), "FSMN"),
			"empty TREE":           withExtensions(base, "TREE"),
			"REUC all stages gone": withExtensions(base, "REUC"+"x\x000\x000\x000\x00"),
		}
		for name, data := range accept {
			if !sameAsGoGit(t, fmt.Sprintf("v%d %s", v, name), data) {
				t.Errorf("v%d %s: declined a well-formed index", v, name)
			}
		}
		decline := map[string][]byte{
			"split index link":      withExtensions(base, "link"+strings.Repeat("\x00", 20)),
			"sparse sdir":           withExtensions(base, "sdir"),
			"TREE cut short":        withExtensions(base, "TREE"+tree[:len(tree)-3]),
			"TREE bad count":        withExtensions(base, "TREE"+"\x00x 1\n"),
			"REUC bad mode":         withExtensions(base, "REUC"+"x\x009\x000\x000\x00"),
			"EOIE short":            withExtensions(base, "EOIE"+eoie[:23]),
			"EOIE long":             withExtensions(base, "EOIE"+eoie+"\x00"),
			"bad checksum":          append(slices.Clone(base[:len(base)-1]), base[len(base)-1]^1),
			"truncated":             resum(slices.Clone(base[:len(base)-40])),
			"tail shorter than ext": resum(append(slices.Clone(base[:len(base)-20]), "TRE"...)),
			"extension past end":    resum(append(slices.Clone(base[:len(base)-20]), "TREE\x00\x00\x01\x00"...)),
			"entry count too high":  resum(binary.BigEndian.AppendUint32(slices.Clone(base[:8]), 1<<30)),
			"version 5":             resum(append(append(slices.Clone(base[:4]), 0, 0, 0, 5), base[8:len(base)-20]...)),
		}
		for name, data := range decline {
			if sameAsGoGit(t, fmt.Sprintf("v%d %s", v, name), data) {
				t.Errorf("v%d %s: accepted", v, name)
			}
		}
	}
}

// The index of real repositories — written by go-git (wstest), and by git
// itself when it is installed, in the layouts it writes (versions 2–4,
// conflicts, resolve-undo, untracked cache, end-of-index entry) — decodes
// to go-git's entries; a split or sparse index is left to go-git.
func TestDecodeIndexIsGoGits(t *testing.T) {
	r := wstest.New(t)
	files := map[string]string{}
	for i := range 120 {
		files[fmt.Sprintf("pkg%d/sub%d/file%03d.go", i%7, i%3, i)] = fmt.Sprintf("package p\n// %d\n", i)
	}
	r.Write(files)
	r.Commit("init")
	r.Conflict("pkg0/sub0/file000.go", "base\n", "ours\n", "theirs\n")
	r.Symlink("pkg1", "link")
	r.Commit("with a link")
	checkRepoIndex(t, "go-git", r.Dir, true)

	if _, err := exec.LookPath("git"); err != nil {
		t.Skip("git is not installed: only go-git's indexes were read")
	}
	dir := t.TempDir()
	gitRun(t, dir, "init", "-q", "-b", "main")
	writeTree(t, dir, files)
	gitRun(t, dir, "add", "-A")
	gitRun(t, dir, "commit", "-qm", "init")
	checkRepoIndex(t, "git v2", dir, true)
	gitRun(t, dir, "update-index", "--index-version", "3")
	checkRepoIndex(t, "git v3", dir, true)
	gitRun(t, dir, "update-index", "--index-version", "4")
	checkRepoIndex(t, "git v4", dir, true)
	gitRun(t, dir, "-c", "index.recordEndOfIndexEntries=true", "-c", "index.recordOffsetTable=true", "-c", "index.threads=2", "update-index", "--index-version", "2")
	checkRepoIndex(t, "git EOIE IEOT", dir, true)
	gitRun(t, dir, "-c", "core.untrackedCache=true", "update-index", "--untracked-cache")
	gitRun(t, dir, "-c", "core.untrackedCache=true", "status", "--porcelain")
	checkRepoIndex(t, "git UNTR", dir, true)
	gitRun(t, dir, "update-index", "--no-untracked-cache")

	// A conflict (three stages), then its resolution (resolve-undo).
	gitRun(t, dir, "checkout", "-qb", "other")
	writeTree(t, dir, map[string]string{"pkg0/sub0/file000.go": "theirs\n"})
	gitRun(t, dir, "commit", "-qam", "theirs")
	gitRun(t, dir, "checkout", "-q", "main")
	writeTree(t, dir, map[string]string{"pkg0/sub0/file000.go": "ours\n"})
	gitRun(t, dir, "commit", "-qam", "ours")
	exec.Command("git", "-C", dir, "merge", "-q", "other").Run() // fails: the conflict is the point
	checkRepoIndex(t, "git conflict", dir, true)
	gitRun(t, dir, "add", "pkg0/sub0/file000.go")
	if !bytes.Contains(readIndex(t, dir), []byte("REUC")) {
		t.Fatal("no resolve-undo extension after resolving a conflict")
	}
	checkRepoIndex(t, "git REUC", dir, true)
	gitRun(t, dir, "commit", "-qm", "merged")

	gitRun(t, dir, "update-index", "--split-index")
	checkRepoIndex(t, "git split index", dir, false)
	gitRun(t, dir, "update-index", "--no-split-index")
	checkRepoIndex(t, "git unsplit", dir, true)
	// (go-git cannot open the repository sparse-checkout leaves: it sets
	// extensions.worktreeConfig.)
	gitRun(t, dir, "sparse-checkout", "set", "--cone", "--sparse-index", "pkg1")
	if data := readIndex(t, dir); !bytes.Contains(data, []byte("sdir")) || sameAsGoGit(t, "git sparse index", data) {
		t.Error("git sparse index: not declined (or not sparse)")
	}
}

// Every file of GOROOT (CLEW_TEST_GOROOT_ALL=1) in an index git writes,
// as version 2 and version 4: the same entries as go-git's.
func TestDecodeIndexGOROOT(t *testing.T) {
	if os.Getenv("CLEW_TEST_GOROOT_ALL") == "" {
		t.Skip("set CLEW_TEST_GOROOT_ALL=1 to read an index of all of GOROOT")
	}
	if _, err := exec.LookPath("git"); err != nil {
		t.Skip("git is not installed")
	}
	gitDir := t.TempDir()
	git := func(args ...string) {
		t.Helper()
		cmd := exec.Command("git", append([]string{"--git-dir", gitDir, "--work-tree", runtime.GOROOT()}, args...)...)
		if out, err := cmd.CombinedOutput(); err != nil {
			t.Fatalf("git %v: %v\n%s", args, err, out)
		}
	}
	git("init", "-q")
	git("add", "-A")
	for _, v := range []string{"2", "4"} {
		git("update-index", "--index-version", v)
		data, err := os.ReadFile(filepath.Join(gitDir, "index"))
		if err != nil {
			t.Fatal(err)
		}
		if !sameAsGoGit(t, "GOROOT v"+v, data) {
			t.Fatalf("GOROOT v%s: declined", v)
		}
		got, _ := gitstate.DecodeIndex(data)
		t.Logf("GOROOT v%s: %d entries, %d bytes", v, len(got), len(data))
	}
}

// checkRepoIndex compares decodeIndex with go-git on dir's index and
// Repo.Tracked with what go-git's storage gives; wantHand says whether
// the hand decoder should read this layout itself.
func checkRepoIndex(t *testing.T, what, dir string, wantHand bool) {
	t.Helper()
	data := readIndex(t, dir)
	if hand := sameAsGoGit(t, what, data); hand != wantHand {
		t.Errorf("%s: hand decoder used = %v, want %v", what, hand, wantHand)
	}
	g, err := gitstate.Open(dir)
	if err != nil {
		t.Fatal(err)
	}
	got, err := g.Tracked()
	want, wantErr := gitstate.GoGitTracked(g)
	if (err == nil) != (wantErr == nil) || !slices.Equal(got, want) {
		t.Errorf("%s: Tracked = %d files, %v; go-git's %d, %v", what, len(got), err, len(want), wantErr)
	}
}

func readIndex(t *testing.T, dir string) []byte {
	t.Helper()
	data, err := os.ReadFile(filepath.Join(dir, ".git", "index"))
	if err != nil {
		t.Fatal(err)
	}
	return data
}

func writeTree(t *testing.T, dir string, files map[string]string) {
	t.Helper()
	for p, c := range files {
		full := filepath.Join(dir, filepath.FromSlash(p))
		if err := os.MkdirAll(filepath.Dir(full), 0o755); err != nil {
			t.Fatal(err)
		}
		if err := os.WriteFile(full, []byte(c), 0o644); err != nil {
			t.Fatal(err)
		}
	}
}

// gitRun runs git in dir with no user or system configuration.
func gitRun(t *testing.T, dir string, args ...string) {
	t.Helper()
	cmd := exec.Command("git", append([]string{"-C", dir, "-c", "user.name=t", "-c", "user.email=t@example.com"}, args...)...)
	cmd.Env = append(os.Environ(), "GIT_CONFIG_NOSYSTEM=1", "GIT_CONFIG_GLOBAL=/dev/null", "GIT_AUTHOR_DATE=2026-01-01T00:00:00Z", "GIT_COMMITTER_DATE=2026-01-01T00:00:00Z")
	if out, err := cmd.CombinedOutput(); err != nil {
		t.Fatalf("git %v: %v\n%s", args, err, out)
	}
}

// FuzzDecodeIndex: whatever decodeIndex accepts, go-git decodes to the
// same entries. The checksum is recomputed over the mutated bytes so the
// fuzzer gets past it.
func FuzzDecodeIndex(f *testing.F) {
	tree := "\x002 1\n" + strings.Repeat("\x01", 20)
	for _, v := range []uint32{2, 3, 4} {
		base := encodeIndex(f, v, syntheticEntries()[:6])
		f.Add(base)
		f.Add(withExtensions(base, "TREE"+tree, "REUC"+"x\x00100644\x000\x000\x00"+strings.Repeat("\x02", 20), "EOIE"+strings.Repeat("\x00", 24)))
		f.Add(withExtensions(base, "UNTR\x00"))
	}
	f.Fuzz(func(t *testing.T, data []byte) {
		if len(data) > 20 {
			data = resum(slices.Clone(data[:len(data)-20]))
		}
		sameAsGoGit(t, "fuzz", data)
	})
}
