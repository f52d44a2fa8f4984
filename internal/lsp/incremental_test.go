package lsp

import (
	"bytes"
	"context"
	"fmt"
	"maps"
	"math/rand"
	"path/filepath"
	"slices"
	"strings"
	"testing"
	"time"

	"go.lsp.dev/protocol"
	"go.lsp.dev/uri"

	"github.com/clew-lsp/clew-lsp/internal/lsp/lsptest"
	"github.com/clew-lsp/clew-lsp/internal/workspace"
	"github.com/clew-lsp/clew-lsp/internal/workspace/disk"
	"github.com/clew-lsp/clew-lsp/internal/workspace/wstest"
)

// incrementalRepo is a small repository with history: pinned anchors of
// every form, then a commit that moves, renames and deletes some of the
// anchored functions, so the server runs repository-wide passes. Twin's
// anchor is lost among twins that were always there.
func incrementalRepo(t *testing.T) *wstest.Repo {
	r := wstest.New(t)
	fn := func(name string, k int) string {
		return fmt.Sprintf("// %s does step %d.\nfunc %s(in []int) int {\n\ttotal := %d\n\tfor _, v := range in {\n\t\ttotal += v * %d\n\t}\n\treturn total - %s%d\n}\n\n",
			name, k, name, k, k+1, strings.Repeat("1", k%3+1), k)
	}
	files := map[string]string{}
	k := 0
	for _, f := range []string{"pkg/alpha.go", "pkg/beta.go", "pkg/gamma.go", "other/delta.go"} {
		var b strings.Builder
		b.WriteString("package " + filepath.Base(filepath.Dir(f)) + "\n\n")
		for i := 0; i < 4; i++ {
			b.WriteString(fn(fmt.Sprintf("%sFunc%d", strings.ToUpper(filepath.Base(f)[:1]), i), k))
			k++
		}
		if f != "pkg/beta.go" {
			// Twins of Twin, already there when it is pinned in gamma.go.
			b.WriteString(twinFunc)
		}
		files[f] = b.String()
	}
	files["notes/plain.txt"] = "line one\nline two\nline three\nline four\n"
	files["docs/ref.md"] = "# Reference\n\n## Usage\n\nCall it.\n\n## Limits\n\nNone.\n"
	var doc strings.Builder
	doc.WriteString("# Guide\n\n")
	for _, a := range []string{
		"function AFunc0 pkg/alpha.go", "function AFunc1 pkg/alpha.go", "function AFunc2 pkg/alpha.go",
		"function BFunc0 pkg/beta.go", "function BFunc1 pkg/beta.go", "function BFunc3 pkg/beta.go",
		"function GFunc2 pkg/gamma.go", "function OFunc1 other/delta.go", "function Twin pkg/gamma.go",
		"lines notes/plain.txt#L2-L3", "doc docs/ref.md", "doc docs/ref.md#limits",
	} {
		fmt.Fprintf(&doc, "Some prose.\n<!-- @code %s -->\n\n", a)
	}
	doc.WriteString("<!-- @code function Unpinned pkg/gamma.go -->\n")
	files["docs/guide.md"] = doc.String()
	r.Write(files)
	r.Commit("code and docs")
	r.ConfirmAll()
	r.Commit("pin")
	// Move AFunc1 to other/, rename BFunc1 in place, delete GFunc2.
	alpha, beta, gamma := r.Read("pkg/alpha.go"), r.Read("pkg/beta.go"), r.Read("pkg/gamma.go")
	moved := extractFunc(alpha, "AFunc1")
	r.Write(map[string]string{
		"pkg/alpha.go":   strings.Replace(alpha, moved, "", 1),
		"other/moved.go": "package other\n\n" + moved,
		"pkg/beta.go":    strings.Replace(beta, "func BFunc1(", "func BFunc1Renamed(", 1),
		"pkg/gamma.go":   strings.Replace(strings.Replace(gamma, extractFunc(gamma, "GFunc2"), "", 1), twinFunc, "", 1),
	})
	r.Commit("move, rename, delete")
	return r
}

// twinFunc is in alpha.go, gamma.go and delta.go when the anchors are
// pinned; the commit that moves code deletes gamma's. The anchor on it is
// lost, and its note and suggestions name the twins in index order, which
// a code edit of alpha.go or delta.go must keep.
const twinFunc = "// Twin does step 99.\nfunc Twin(in []int) int {\n\treturn len(in) * 99\n}\n\n"

// extractFunc returns a function's text with its comment, up to the blank
// line after it.
func extractFunc(src, name string) string {
	i := strings.Index(src, "// "+name+" does")
	if i < 0 {
		return ""
	}
	j := strings.Index(src[i:], "}\n\n")
	return src[i : i+j+3]
}

// TestIncrementalMatchesFullCheck drives the real server with random edits
// of docs and unsaved code buffers (pins broken, anchors renamed, lines
// shifted, functions edited, renamed, moved between buffers, buffers
// opened for new files and closed) and after each one compares every
// file's published diagnostics with those of a fresh snapshot of the same
// buffers checked from scratch (no memo, no shared tables).
func TestIncrementalMatchesFullCheck(t *testing.T) {
	r := incrementalRepo(t)
	root, _ := filepath.EvalSymlinks(r.Dir)
	c, backend := startWorkspaceServer(t)
	ctx, cancel := context.WithTimeout(context.Background(), 5*time.Minute)
	defer cancel()
	if _, err := c.Initialize(ctx, root); err != nil {
		t.Fatal(err)
	}
	if _, err := c.AwaitDiagnosed(ctx, 1); err != nil {
		t.Fatal(err)
	}
	buffers := map[string]string{} // rel → open buffer text
	text := func(rel string) string {
		if b, ok := buffers[rel]; ok {
			return b
		}
		return r.Read(rel)
	}
	edit := func(rel, next string) {
		abs := filepath.Join(root, rel)
		if _, open := buffers[rel]; !open {
			lang := "go"
			if strings.HasSuffix(rel, ".md") {
				lang = "markdown"
			}
			mustT(t, c.Open(ctx, abs, lang, next))
		} else {
			mustT(t, c.Change(ctx, abs, lsptest.Whole(next)))
		}
		buffers[rel] = next
	}
	names := []string{"AFunc0", "AFunc1", "AFunc3", "BFunc1", "BFunc1Renamed", "GFunc2", "OFunc1", "Nowhere", "DFunc9"}
	codeFiles := []string{"pkg/alpha.go", "pkg/beta.go", "pkg/gamma.go", "other/delta.go", "other/moved.go"}
	rng := rand.New(rand.NewSource(15))
	steps := 60
	if testing.Short() {
		steps = 15
	}
	var ops []string
	for step := 0; step < steps; step++ {
		doc := text("docs/guide.md")
		lines := strings.SplitAfter(doc, "\n")
		var op string
		switch rng.Intn(9) {
		case 0: // break or restore a pin
			ln := anchorLines(lines)[rng.Intn(len(anchorLines(lines)))]
			if j := strings.Index(lines[ln], "sha="); j > 0 {
				j += len("sha=v2:")
				if j < len(lines[ln]) {
					d := "0"
					if lines[ln][j] == '0' {
						d = "f"
					}
					lines[ln] = lines[ln][:j] + d + lines[ln][j+1:]
				}
			}
			op = "flip pin"
			edit("docs/guide.md", strings.Join(lines, ""))
		case 1: // shift lines
			at := rng.Intn(len(lines))
			lines = slices.Insert(lines, at, "\n")
			op = "insert line"
			edit("docs/guide.md", strings.Join(lines, ""))
		case 2: // point an anchor at another name
			ln := anchorLines(lines)[rng.Intn(len(anchorLines(lines)))]
			f := strings.Fields(lines[ln])
			if len(f) > 4 && f[2] == "function" {
				f[3] = names[rng.Intn(len(names))]
				lines[ln] = strings.Join(f, " ") + "\n"
			}
			op = "rename anchor"
			edit("docs/guide.md", strings.Join(lines, ""))
		case 3, 4: // change a function body in a code buffer
			rel := codeFiles[rng.Intn(len(codeFiles))]
			src := text(rel)
			if i := strings.LastIndex(src, "\treturn total"); i > 0 {
				src = src[:i] + fmt.Sprintf("\ttotal += %d\n", step) + src[i:]
			}
			op = "edit body " + rel
			edit(rel, src)
		case 5: // rename a function in a buffer
			rel := codeFiles[rng.Intn(len(codeFiles))]
			src := text(rel)
			if i := strings.Index(src, "func "); i >= 0 {
				src = src[:i+5] + "X" + src[i+5:]
			}
			op = "rename func " + rel
			edit(rel, src)
		case 6: // move a function between buffers
			from, to := codeFiles[rng.Intn(len(codeFiles))], codeFiles[rng.Intn(len(codeFiles))]
			src := text(from)
			i := strings.Index(src, "// ")
			if i < 0 || from == to {
				continue
			}
			j := strings.Index(src[i:], "}\n\n")
			if j < 0 {
				continue
			}
			f := src[i : i+j+3]
			op = "move func " + from + " → " + to
			edit(from, strings.Replace(src, f, "", 1))
			edit(to, text(to)+"\n"+f)
		case 7: // a new unsaved file holding a copy of a function
			src := text(codeFiles[rng.Intn(len(codeFiles))])
			i := strings.Index(src, "// ")
			if i < 0 {
				continue
			}
			op = "new file"
			edit("other/fresh.go", "package other\n\n"+src[i:])
		case 8: // close a buffer: the disk is the truth again
			open := slices.Sorted(maps.Keys(buffers))
			if len(open) == 0 {
				continue
			}
			rel := open[rng.Intn(len(open))]
			op = "close " + rel
			mustT(t, c.Close(ctx, filepath.Join(root, rel)))
			delete(buffers, rel)
		}
		ops = append(ops, op)
		mustT(t, c.Sync(ctx))
		snap, release := backend.Snapshot()
		id := snap.ID()
		release()
		st, err := c.AwaitDiagnosed(ctx, id)
		if err != nil {
			t.Fatal(err)
		}
		want := freshDiagnostics(t, root, buffers)
		for _, path := range slices.Sorted(maps.Keys(want)) {
			got, _ := protocol.Marshal(st.Diagnostics[uri.File(path)].Diagnostics)
			if !bytes.Equal(got, want[path]) {
				t.Fatalf("after step %d (%s):\n%s\n server: %s\n  fresh: %s", step, strings.Join(ops, "; "), path, got, want[path])
			}
		}
		for u, p := range st.Diagnostics {
			path, _ := pathOf(u)
			if _, ok := want[path]; !ok && len(p.Diagnostics) > 0 {
				t.Fatalf("after step %d (%s): %s has diagnostics a fresh check does not: %v", step, strings.Join(ops, "; "), path, p.Diagnostics)
			}
		}
	}
	t.Logf("%d steps: %s", len(ops), strings.Join(ops, "; "))
}

func anchorLines(lines []string) []int {
	var out []int
	for i, l := range lines {
		if strings.Contains(l, "<!-- @code") {
			out = append(out, i)
		}
	}
	return out
}

// freshDiagnostics checks the workspace with the given buffers from
// scratch and returns each file's diagnostics as the server would encode
// them, by absolute path (files with none are absent).
func freshDiagnostics(t *testing.T, root string, buffers map[string]string) map[string][]byte {
	t.Helper()
	snap, err := disk.Load(root)
	if err != nil {
		t.Fatal(err)
	}
	over := map[string][]byte{}
	for rel, b := range buffers {
		over[rel] = []byte(b)
	}
	snap = snap.WithOverlays(over)
	ws := &workspaceSnapshot{folders: []*workspace.Snapshot{snap}, reports: newReportCache()}
	res, err := ws.Diagnose(context.Background())
	if err != nil {
		t.Fatal(err)
	}
	out := map[string][]byte{}
	for path, fd := range res {
		if len(fd.Items) == 0 {
			continue
		}
		b, _ := protocol.Marshal(toDiagnostics(fd))
		out[path] = b
	}
	return out
}

func mustT(t *testing.T, err error) {
	t.Helper()
	if err != nil {
		t.Fatal(err)
	}
}
