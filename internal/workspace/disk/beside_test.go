package disk_test

import (
	"context"
	"encoding/json"
	"fmt"
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/clew-lsp/clew-lsp/internal/workspace"
	"github.com/clew-lsp/clew-lsp/internal/workspace/disk"
	"github.com/clew-lsp/clew-lsp/internal/workspace/wstest"
)

// besideRepo is a repository whose one anchor moved out of its hinted
// file (so the repository-wide pass reads every other Go file) and whose
// doc mentions names declared in those files. Besides the file it moved
// to, three files declare it too and must not count: one too large, one
// binary, one deleted after the listing (gone.go, which also holds the
// only declaration of the mentioned Lonely).
func besideRepo(t *testing.T) *wstest.Repo {
	r := wstest.New(t)
	files := map[string]string{
		".clew.yml": "budget:\n  max_file_bytes: 4000\n",
		"docs/a.md": "# A\n\nThe `Moved` function, the `Helper` one and `Lonely`.\n\n<!-- @code function Moved a.go -->\n\n" +
			"## More\n\n`Filler7` and `Filler250` too.\n",
		"a.go":    "package p\n\nfunc Other() {}\n",
		"b.go":    "package p\n\nfunc Moved() int { return 1 }\n",
		"c.go":    "package p\n\nfunc Helper() { Moved() }\n",
		"big.go":  "package p\n\nfunc Moved() int { return 2 }\n\n// " + strings.Repeat("x", 5000) + "\n",
		"bin.go":  "package p\n\nfunc Moved() int { return 3 }\n\x00\n",
		"gone.go": goneGo,
	}
	for i := 0; i < 300; i++ { // more than one batch of the readers
		files[fmt.Sprintf("f/f%03d.go", i)] = fmt.Sprintf("package f\n\nfunc Filler%d() { Helper() }\n", i)
	}
	r.Write(files)
	r.Commit("init")
	return r
}

const goneGo = "package p\n\nfunc Moved() int { return 4 }\n\nfunc Lonely() {}\n"

// besideCheck loads the repository, deletes gone.go (listed, missing
// when read), checks it (without Mentions, then computes the coverage
// apart) counting reads, and puts gone.go back.
func besideCheck(t *testing.T, dir string, store workspace.TableStore, opt workspace.CheckOptions) (*workspace.Report, *readCounter) {
	t.Helper()
	f, g, err := disk.Open(dir)
	if err != nil {
		t.Fatal(err)
	}
	c := &readCounter{Files: f, one: map[string]int{}, batch: map[string]int{}}
	var files workspace.Files = c
	if !opt.Mentions {
		// The reference reads each file into its own bytes (no
		// VisitMany): a consumer that kept a visited buffer would
		// answer otherwise.
		files = batchOnly{c, c, c}
	}
	snap, err := workspace.Load(f.Root(), files, g)
	if err != nil {
		t.Fatal(err)
	}
	if store != nil {
		snap.UseTableStore(store)
	}
	if err := os.Remove(filepath.Join(dir, "gone.go")); err != nil {
		t.Fatal(err)
	}
	rep, err := snap.Check(context.Background(), opt)
	if err != nil {
		t.Fatal(err)
	}
	if !opt.Mentions { // the coverage apart, on the same disk
		cov := snap.MentionCoverage(rep)
		rep.MentionCoverage = &cov
	}
	if err := os.WriteFile(filepath.Join(dir, "gone.go"), []byte(goneGo), 0o644); err != nil {
		t.Fatal(err)
	}
	return rep, c
}

// verify's check runs the mention coverage's reading of the code files,
// and the parse of what needs no anchor's answer, beside the anchors'
// passes (mentionsRun). Its answers are those of the check and the
// coverage computed apart: the anchor found in b.go alone (the
// too-large, binary and deleted files hold it too and are not read as
// text), the same skipped files, the same coverage (Lonely's one
// declaration is in the deleted file: unresolved), without a store and
// with one, cold and warm (mention records). The check reads through
// VisitMany (one buffer reused from file to file), the reference through
// ReadMany (each file its own bytes): a reader that kept a visited buffer
// would answer otherwise. The coverage's reading waits for the
// repository-wide pass's needs and tests the files in hand for it: every
// other Go file is read once.
func TestMentionsBesideTheAnchorsAnswerAsApart(t *testing.T) {
	r := besideRepo(t)
	for _, withStore := range []bool{false, true} {
		var store workspace.TableStore
		if withStore {
			s, err := disk.OpenTableStoreAt(t.TempDir(), "test")
			if err != nil {
				t.Fatal(err)
			}
			store = s
		}
		for run := 0; run < 2; run++ { // with a store: cold, then warm (mention records)
			name := fmt.Sprintf("store=%v run=%d", withStore, run)
			shared, c := besideCheck(t, r.Dir, store, workspace.CheckOptions{Mentions: true, PartialHinted: true})
			apart, _ := besideCheck(t, r.Dir, nil, workspace.CheckOptions{PartialHinted: true})

			a := shared.Anchors[0]
			if a.State != "moved-renamed" || a.Detail.MovedTo != "b.go" {
				t.Fatalf("%s: Moved is %s %+v, want moved to b.go", name, a.State, a.Detail)
			}
			skipped := fmt.Sprint(shared.Skipped)
			if !strings.Contains(skipped, "big.go") || !strings.Contains(skipped, "bin.go") {
				t.Errorf("%s: skipped %s, want big.go and bin.go", name, skipped)
			}
			if got, want := reportJSON(t, shared), reportJSON(t, apart); got != want {
				t.Errorf("%s: the check with its shared reading and the check and the coverage apart differ:\n%s", name, lineDiff(got, want))
			}
			if shared.MentionCoverage == nil || shared.MentionCoverage.Passages == 0 {
				t.Fatalf("%s: no mention coverage: %+v", name, shared.MentionCoverage)
			}
			if c.batch["b.go"]+c.one["b.go"] == 0 || c.batch["f/f123.go"]+c.one["f/f123.go"] == 0 {
				t.Errorf("%s: b.go or f/f123.go never read", name)
			}
			// One reading for both: the coverage's tests each file it reads
			// for the repository-wide pass, which reads only the others
			// (warm, those whose mention record holds no mentioned name).
			for i := 0; i < 300; i++ {
				p := fmt.Sprintf("f/f%03d.go", i)
				if n := c.batch[p] + c.one[p]; n != 1 {
					t.Errorf("%s: %s read %d times (%d alone, %d in a batch), want once", name, p, n, c.one[p], c.batch[p])
				}
			}
		}
	}
}

// reportJSON is a report as verify prints it, without the budget.
func reportJSON(t *testing.T, rep *workspace.Report) string {
	t.Helper()
	b, err := json.Marshal(rep)
	if err != nil {
		t.Fatal(err)
	}
	var m map[string]any
	if err := json.Unmarshal(b, &m); err != nil {
		t.Fatal(err)
	}
	delete(m, "budget")
	b, _ = json.MarshalIndent(m, "", " ")
	return string(b)
}

// lineDiff lists the lines of a and b that differ, position by position.
func lineDiff(a, b string) string {
	la, lb := strings.Split(a, "\n"), strings.Split(b, "\n")
	var out strings.Builder
	for i := 0; i < max(len(la), len(lb)); i++ {
		var x, y string
		if i < len(la) {
			x = la[i]
		}
		if i < len(lb) {
			y = lb[i]
		}
		if x != y {
			fmt.Fprintf(&out, "line %d: %q != %q\n", i+1, x, y)
		}
	}
	return out.String()
}

// batchOnly is an adapter with ReadMany and StatFiles but not VisitMany.
type batchOnly struct {
	workspace.Files
	many  workspace.ManyReader
	stats workspace.FileStater
}

func (b batchOnly) ReadMany(paths []string, max int64) []workspace.FileRead {
	return b.many.ReadMany(paths, max)
}

func (b batchOnly) StatFiles(paths []string) []workspace.FileStat { return b.stats.StatFiles(paths) }
