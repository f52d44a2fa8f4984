package workspace_test

import (
	"context"
	"encoding/json"
	"fmt"
	"math/rand"
	"path/filepath"
	"strings"
	"testing"

	"github.com/clew-lsp/clew-lsp/internal/anchors"
	"github.com/clew-lsp/clew-lsp/internal/workspace"
	"github.com/clew-lsp/clew-lsp/internal/workspace/disk"
	"github.com/clew-lsp/clew-lsp/internal/workspace/wstest"
)

// twinRepo: Helper was anchored in pkg/main.go and deleted from it, while
// identical twins of it were already in five hinted files when the pin was
// written. The anchor is lost; its note names the first twin and its
// suggestions list the twins in index order (path order), so the order of
// the hinted files' index is visible in the report. Gadget is the same
// with twins in files no anchor hints: the repository-wide pass's index
// order.
// gadgets hold Gadget's twins; no anchor hints them.
var gadgets = []string{"w/g1.go", "x/g2.go", "y/g3.go", "z/g4.go"}

func twinRepo(t *testing.T) (*wstest.Repo, []string) {
	r := wstest.New(t)
	helper := "// Helper is a twin.\nfunc Helper(n int) int {\n\ttotal := n * 7\n\tfor i := 0; i < n; i++ {\n\t\ttotal += i\n\t}\n\treturn total\n}\n"
	twins := []string{"a/one.go", "b/two.go", "c/three.go", "d/four.go", "e/five.go"}
	gadget := strings.ReplaceAll(helper, "Helper", "Gadget")
	files := map[string]string{"pkg/main.go": "package pkg\n\n" + helper + "\n" + gadget}
	for _, p := range gadgets {
		files[p] = "package " + filepath.Dir(p) + "\n\n" + gadget
	}
	var doc strings.Builder
	doc.WriteString("# Twins\n\n<!-- @code function Helper pkg/main.go -->\n<!-- @code function Gadget pkg/main.go -->\n")
	for i, p := range twins {
		files[p] = fmt.Sprintf("package %s\n\n%s\n// Own%d is anchored.\nfunc Own%d() int {\n\treturn %d\n}\n", filepath.Dir(p), helper, i, i, i)
		fmt.Fprintf(&doc, "\nOwn%d.\n<!-- @code function Own%d %s -->\n", i, i, p)
	}
	files["docs/twins.md"] = doc.String()
	r.Write(files)
	r.Commit("twins")
	r.ConfirmAll()
	r.Commit("pin")
	r.Write(map[string]string{"pkg/main.go": "package pkg\n\n// Other stays.\nfunc Other() int {\n\treturn 1\n}\n"})
	r.Commit("Helper and Gadget deleted from pkg")
	return r, twins
}

// TestCodeEditsKeepIndexOrder drives a session with random code edits of
// hinted files' buffers (the server patches the hinted files' index
// instead of rebuilding it) and doc edits that add and drop hinted files,
// and compares every anchor's full report — state, detail, note and
// suggestions, whose order is the index's — with a fresh check.
func TestCodeEditsKeepIndexOrder(t *testing.T) {
	r, twins := twinRepo(t)
	root, _ := filepath.EvalSymlinks(r.Dir)
	sess := workspace.NewSession(disk.Loader)
	if err := sess.AddFolder(root); err != nil {
		t.Fatal(err)
	}
	buffers := map[string]string{}
	text := func(rel string) string {
		if b, ok := buffers[rel]; ok {
			return b
		}
		return r.Read(rel)
	}
	rng := rand.New(rand.NewSource(3))
	sawNote := map[string]bool{}
	var closed []string
	for step := 0; step < 60; step++ {
		rel := twins[rng.Intn(len(twins))]
		src := text(rel)
		switch rng.Intn(6) {
		case 0, 1: // a body edit of the anchored function: a new version
			i := strings.LastIndex(src, "\treturn ")
			src = src[:i] + fmt.Sprintf("\t_ = %d\n", step) + src[i:]
		case 2: // a twin renamed (one at a time), or renamed back
			for _, p := range twins {
				if strings.Contains(text(p), "func HelperX(") {
					rel = p
				}
			}
			src = text(rel)
			if strings.Contains(src, "func Helper(") {
				src = strings.Replace(src, "func Helper(", "func HelperX(", 1)
			} else {
				src = strings.Replace(src, "func HelperX(", "func Helper(", 1)
			}
		case 3: // the buffer back to the disk's text
			src = r.Read(rel)
		case 5: // a body edit in a buffer of a file no anchor hints, or its close
			rel = gadgets[rng.Intn(len(gadgets))]
			if _, open := buffers[rel]; open && rng.Intn(3) == 0 {
				delete(buffers, rel)
				closed = append(closed, rel)
				continue
			}
			src = text(rel)
			i := strings.LastIndex(src, "\treturn ")
			src = src[:i] + fmt.Sprintf("\t_ = %d\n", step) + src[i:]
		case 4: // the doc: an anchor on one more hinted file, or one fewer
			rel = "docs/twins.md"
			src = text(rel)
			extra := "\nSpare.\n<!-- @code function Spare spare/zz.go -->\n"
			if strings.Contains(src, extra) {
				src = strings.Replace(src, extra, "", 1)
				delete(buffers, "spare/zz.go") // closed: gone again
				closed = append(closed, "spare/zz.go")
			} else {
				src += extra
				buffers["spare/zz.go"] = "package spare\n\n" + strings.SplitN(r.Read("a/one.go"), "\n\n", 2)[1]
			}
		}
		buffers[rel] = src
		over := map[string][]byte{}
		for _, p := range closed {
			over[filepath.Join(root, p)] = nil
		}
		closed = nil
		for p, b := range buffers {
			over[filepath.Join(root, p)] = []byte(b)
		}
		sess.SetOverlays(over)
		got, err := sess.Snapshots()[0].Check(context.Background(), workspace.CheckOptions{})
		if err != nil {
			t.Fatal(err)
		}
		fresh, err := disk.Load(root)
		if err != nil {
			t.Fatal(err)
		}
		rel2 := map[string][]byte{}
		for p, b := range buffers {
			rel2[p] = []byte(b)
		}
		want, err := fresh.WithOverlays(rel2).Check(context.Background(), workspace.CheckOptions{})
		if err != nil {
			t.Fatal(err)
		}
		g, _ := json.Marshal(got.Anchors)
		w, _ := json.Marshal(want.Anchors)
		if string(g) != string(w) {
			t.Fatalf("step %d (%s): session and fresh check differ:\nsession %s\n  fresh %s", step, rel, g, w)
		}
		for _, a := range got.Anchors {
			seen := map[anchors.Candidate]bool{}
			for _, c := range a.Detail.Candidates {
				if seen[c] {
					t.Fatalf("step %d: %s lists candidate %+v twice: a file indexed twice", step, a.ID, c)
				}
				seen[c] = true
			}
		}
		for _, a := range got.Anchors[:2] {
			if a.State == anchors.StateLost && strings.Contains(a.Detail.Note, "already there") && len(a.Detail.Suggestions) == anchors.MaxSuggestions {
				sawNote[a.QualifiedName] = true
			}
		}
	}
	if !sawNote["Helper"] || !sawNote["Gadget"] {
		t.Errorf("lost with a twin note and a full list of suggestions: %v; the test does not see index order", sawNote)
	}
}
