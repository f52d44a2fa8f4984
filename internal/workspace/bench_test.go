package workspace_test

import (
	"context"
	"fmt"
	"os"
	"os/exec"
	"path/filepath"
	"runtime"
	"strings"
	"testing"
	"time"

	"github.com/clew-lsp/clew-lsp/internal/workspace"
	"github.com/clew-lsp/clew-lsp/internal/workspace/disk"
	"github.com/clew-lsp/clew-lsp/internal/workspace/wstest"
)

// genRepo writes a Go repository of nFiles files with 10 functions each and
// 500 pinned anchors over the first 50 files (10 docs of 50 anchors).
func genRepo(b *testing.B, nFiles int) *wstest.Repo {
	b.Helper()
	r := wstest.New(b)
	files := map[string]string{}
	for i := 0; i < nFiles; i++ {
		var sb strings.Builder
		fmt.Fprintf(&sb, "package p%d\n\n", i/50)
		for j := 0; j < 10; j++ {
			fmt.Fprintf(&sb, "// F%d_%d computes.\nfunc F%d_%d(x int) int {\n\ty := x * %d\n\tfor k := 0; k < %d; k++ {\n\t\ty += k\n\t}\n\treturn y\n}\n\n", i, j, i, j, j+1, i+2)
		}
		files[fmt.Sprintf("pkg%d/f%d.go", i/50, i)] = sb.String()
	}
	for d := 0; d < 10; d++ {
		var sb strings.Builder
		fmt.Fprintf(&sb, "# Doc %d\n\n", d)
		for k := 0; k < 50; k++ {
			i := d*5 + k/10
			j := k % 10
			fmt.Fprintf(&sb, "F%d_%d does things.\n<!-- @code function F%d_%d pkg%d/f%d.go -->\n\n", i, j, i, j, i/50, i)
		}
		files[fmt.Sprintf("docs/d%d.md", d)] = sb.String()
	}
	r.Write(files)
	r.Commit("gen")
	r.ConfirmAll()
	r.Commit("pin")
	return r
}

// BenchmarkVerify500 checks 500 fresh anchors. cold: a new snapshot with an
// empty parse cache every time (the CLI); warm: a new snapshot sharing the
// declaration tables (the server between checks). The repository size
// varies while the hinted files stay 50.
func BenchmarkVerify500(b *testing.B) {
	for _, n := range []int{100, 2000} {
		r := genRepo(b, n)
		b.Run(fmt.Sprintf("cold/files=%d", n), func(b *testing.B) {
			for i := 0; i < b.N; i++ {
				snap, err := disk.Load(r.Dir)
				if err != nil {
					b.Fatal(err)
				}
				rep, _ := snap.Check(context.Background(), workspace.CheckOptions{})
				if rep.Exit != 0 || len(rep.Anchors) != 500 {
					b.Fatalf("exit %d anchors %d", rep.Exit, len(rep.Anchors))
				}
			}
		})
		b.Run(fmt.Sprintf("warm/files=%d", n), func(b *testing.B) {
			snap, _ := disk.Load(r.Dir)
			snap.Check(context.Background(), workspace.CheckOptions{})
			b.ResetTimer()
			for i := 0; i < b.N; i++ {
				s := snap.WithOverlays(nil)
				rep, _ := s.Check(context.Background(), workspace.CheckOptions{})
				if rep.Exit != 0 {
					b.Fatal("not fresh")
				}
			}
		})
	}
}

// BenchmarkRepoWideGOROOT runs the repository-wide pass over a copy of Go's
// own source tree ($GOROOT/src, ~7,700 Go files): three anchors were pinned
// on copies of real functions in a file that was then deleted — one moved
// under its own name, one renamed, one gone — so the pass searches the whole
// tree. The same benchmark times `ctags -R` over the same tree and reports
// the ratio.
func BenchmarkRepoWideGOROOT(b *testing.B) {
	src := filepath.Join(runtime.GOROOT(), "src")
	if _, err := os.Stat(src); err != nil {
		b.Skip("no GOROOT/src")
	}
	r := wstest.New(b)
	atoi, _ := os.ReadFile(filepath.Join(src, "strconv", "number.go"))
	quote, _ := os.ReadFile(filepath.Join(src, "strconv", "quote.go"))
	body := func(file []byte, sig string) string {
		s := string(file)
		i := strings.Index(s, sig)
		j := strings.Index(s[i:], "\n}\n")
		return s[i : i+j+3]
	}
	old := "package hint\n\n" + body(atoi, "func ParseBool(") + "\n" +
		strings.Replace(body(quote, "func QuoteRuneToGraphic("), "func QuoteRuneToGraphic(", "func OldQuoteRune(", 1) + "\n" +
		"func Vanished(a, b int) int {\n\treturn a*b + a - b\n}\n"
	r.Write(map[string]string{
		"hint/old.go": old,
		"docs/a.md": "<!-- @code function ParseBool hint/old.go -->\n<!-- @code function OldQuoteRune hint/old.go -->\n" +
			"<!-- @code function Vanished hint/old.go -->\n",
	})
	r.Commit("before")
	r.ConfirmAll()
	r.Remove("hint/old.go")
	r.Commit("after: the pinned bodies are in history only")
	tree := filepath.Join(r.Dir, "src")
	if out, err := exec.Command("cp", "-r", src, tree).CombinedOutput(); err != nil {
		b.Fatalf("cp: %v %s", err, out)
	}

	var files int
	b.ResetTimer()
	for i := 0; i < b.N; i++ {
		snap, err := disk.Load(r.Dir)
		if err != nil {
			b.Fatal(err)
		}
		rep, err := snap.Check(context.Background(), workspace.CheckOptions{Budget: unlimited()})
		if err != nil {
			b.Fatal(err)
		}
		files = rep.Budget.FilesRead
		got := states(rep)
		for _, want := range []string{"a.md:2=moved-renamed/moved_and_renamed", "a.md:3=lost/file_missing"} {
			if !strings.Contains(got, want) {
				b.Fatalf("got %s, want %s", got, want)
			}
		}
	}
	b.StopTimer()
	perOp := b.Elapsed() / time.Duration(b.N)
	b.ReportMetric(float64(files), "files-read")
	if _, err := exec.LookPath("ctags"); err != nil {
		return
	}
	const runs = 3
	var total time.Duration
	for i := 0; i < runs; i++ {
		total += timeCommand(b, "ctags", "-R", "-f", filepath.Join(b.TempDir(), "tags"), tree)
	}
	ctags := total / runs
	b.ReportMetric(float64(ctags.Milliseconds()), "ctags-ms")
	b.ReportMetric(float64(perOp)/float64(ctags), "ratio-to-ctags")
}

func unlimited() *workspace.Budget {
	return &workspace.Budget{MaxFiles: 1 << 30, MaxBytes: 1 << 40, MaxMS: 1 << 40, MaxFileBytes: 1000000}
}

func timeCommand(b *testing.B, name string, args ...string) time.Duration {
	b.Helper()
	start := time.Now()
	if out, err := exec.Command(name, args...).CombinedOutput(); err != nil {
		b.Fatalf("%s: %v %s", name, err, out)
	}
	return time.Since(start)
}
