package disk_test

import (
	"context"
	"fmt"
	"strings"
	"sync"
	"testing"

	"github.com/clew-lsp/clew-lsp/internal/workspace"
	"github.com/clew-lsp/clew-lsp/internal/workspace/disk"
	"github.com/clew-lsp/clew-lsp/internal/workspace/wstest"
)

// readCounter counts every read of a path, one at a time (Read) or in a
// batch (ReadMany), through the real adapter.
type readCounter struct {
	*disk.Files
	mu         sync.Mutex
	one, batch map[string]int
}

func (c *readCounter) Read(p string) ([]byte, error) {
	c.mu.Lock()
	c.one[p]++
	c.mu.Unlock()
	return c.Files.Read(p)
}

func (c *readCounter) VisitMany(paths []string, max int64, visit func(int, workspace.FileRead)) {
	c.mu.Lock()
	for _, p := range paths {
		c.batch[p]++
	}
	c.mu.Unlock()
	c.Files.VisitMany(paths, max, visit)
}

func (c *readCounter) ReadMany(paths []string, max int64) []workspace.FileRead {
	c.mu.Lock()
	for _, p := range paths {
		c.batch[p]++
	}
	c.mu.Unlock()
	return c.Files.ReadMany(paths, max)
}

// A verify reads each doc, the law and each file a leg covers once, the
// docs in a batch: the claims' preparation (started beside the anchors, as
// verify does) and the anchors' doc pass ask for the law at the same
// moment, and one waits for the other's read. (The mention coverage reads
// code files for itself, without keeping them: with it on, only the docs
// and the law are counted.)
func TestVerifyReadsEachFileOnce(t *testing.T) {
	r := wstest.New(t)
	files := map[string]string{".multivac/config.yml": "repos: {brain: .}\n"}
	var law strings.Builder
	law.WriteString("| ID | Statement | Authority | State | Date | Source |\n| --- | --- | --- | --- | --- | --- |\n")
	for i := 0; i < 30; i++ {
		files[fmt.Sprintf("docs/page%02d.md", i)] = fmt.Sprintf("# Page %d\n\nThe `Widget%d` is here.\n", i, i)
		files[fmt.Sprintf("src/f%02d.ts", i)] = fmt.Sprintf("export const Widget%d = 1;\n", i)
		fmt.Fprintf(&law, "| C-%02d | widget %d | x | active | 2026-01-01 | x |\n<!-- @anchor C-%02d brain:src/f%02d.ts /Widget%d =/ unique -->\n", i, i, i, i, i)
	}
	files[".multivac/invariants.md"] = law.String()
	r.Write(files)
	r.Commit("init")

	for round := 0; round < 20; round++ { // the askers race differently each time
		mentions := round%2 == 1
		f, g, err := disk.Open(r.Dir)
		if err != nil {
			t.Fatal(err)
		}
		c := &readCounter{Files: f, one: map[string]int{}, batch: map[string]int{}}
		snap, err := workspace.Load(f.Root(), c, g)
		if err != nil {
			t.Fatal(err)
		}
		snap.WarmClaims()
		rep, err := snap.Check(context.Background(), workspace.CheckOptions{Mentions: mentions})
		if err != nil {
			t.Fatal(err)
		}
		if len(rep.Claims) != 30 || rep.Exit != 0 {
			t.Fatalf("%d claims, exit %d", len(rep.Claims), rep.Exit)
		}
		for p := range files {
			if mentions && strings.HasPrefix(p, "src/") {
				continue
			}
			if n := c.one[p] + c.batch[p]; n != 1 {
				t.Errorf("round %d: %s read %d times (%d alone, %d in a batch), want once", round, p, n, c.one[p], c.batch[p])
			}
			if strings.HasPrefix(p, "docs/") && c.one[p] != 0 {
				t.Errorf("round %d: doc %s read alone, want it in a batch", round, p)
			}
		}
	}
}
