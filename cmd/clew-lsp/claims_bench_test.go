package main

import (
	"context"
	"fmt"
	"io"
	"os/exec"
	"path/filepath"
	"strings"
	"testing"
	"time"

	"github.com/clew-lsp/clew-lsp/internal/workspace/wstest"
)

// Issue 3's benchmark: `clew-lsp verify --check` on a repository whose law
// has 1,000 legs, against one `git grep -c -E .` pass over the same tracked
// files, both timed in the same loop. Reported per op: verify-ms,
// gitgrep-ms and ratio (goal: ≤ 2).
//
// Shapes:
//   - narrow: multivac's own law (docs/claims.md): each leg names one file,
//     present and unique first, brain==code.
//   - wide: every leg a directory glob (`src/**/*.ts`, `*:**.md`, …) over
//     hundreds of files, all modes — the worst case for the engine.
//   - sibling: the narrow law over a sibling read at origin/main (blobs
//     through go-git from a packed repository, as a clone is); git grep
//     runs in the sibling's work tree.
//
// Run: go test ./cmd/clew-lsp -run XXX -bench Claims -benchtime 10x

const benchFiles = 600

// benchCode writes a repository of nFiles sources, SQL and docs.
func benchCode(nFiles int) map[string]string {
	out := map[string]string{}
	dirs := []string{"src/core", "src/lib", "src/api", "pkg/util", "docs", "db/migrations"}
	for i := 0; i < nFiles; i++ {
		dir := dirs[i%len(dirs)]
		switch dir {
		case "docs":
			out[fmt.Sprintf("%s/page%03d.md", dir, i)] = fmt.Sprintf("# Page %d\n\nThe symbol Widget%d is documented here.\n", i, i)
		case "db/migrations":
			out[fmt.Sprintf("%s/%04d.sql", dir, i)] = fmt.Sprintf("-- migration %d\nCREATE TABLE t%d (\n  id bigint PRIMARY KEY\n);\nGRANT\nSELECT ON t%d TO app_role;\n", i, i, i)
		default:
			var b strings.Builder
			fmt.Fprintf(&b, "// file %d\nimport { helper } from './helper';\n", i)
			for j := 0; j < 30; j++ {
				fmt.Fprintf(&b, "export function fn%d_%d(x: number): number { return helper(x) + %d; }\n", i, j, j)
			}
			fmt.Fprintf(&b, "export const Widget%d = { limits: true, path: \"a/b\" };\n", i)
			out[fmt.Sprintf("%s/file%03d.ts", dir, i)] = b.String()
		}
	}
	return out
}

func sortedPaths(m map[string]string) []string { return wstest.Keys(m) }

// narrowLaw: 100 rows × 10 legs, each over one named file of key.
func narrowLaw(key string, files []string) string {
	var law strings.Builder
	law.WriteString(lawHeader)
	modes := []string{"", "", "", "unique", "unique", "absent", "count=1", "", "unique", "each"}
	for r := 0; r < 100; r++ {
		fmt.Fprintf(&law, "| MV-%03d | statement %d | published | active | 2026-01-01 | x |\n", r, r)
		for k := 0; k < 10; k++ {
			p := files[(r*10+k)*7%len(files)]
			re := "/Widget[[:digit:]]+ =/"
			switch {
			case strings.HasSuffix(p, ".md"):
				re = "/The symbol Widget/"
			case strings.HasSuffix(p, ".sql"):
				re = "/grant select on t[[:digit:]]+/i"
			}
			if modes[k] == "absent" {
				re = "/eval[[:space:]]*\\(/"
			}
			fmt.Fprintf(&law, "<!-- @anchor MV-%03d %s:%s %s %s -->\n", r, key, p, re, modes[k])
		}
	}
	return law.String()
}

// wideLaw: 100 rows × 10 legs over directory globs, every mode.
func wideLaw(nFiles int) string {
	var law strings.Builder
	law.WriteString(lawHeader)
	for r := 0; r < 100; r++ {
		fmt.Fprintf(&law, "| MV-%03d | statement %d | published | active | 2026-01-01 | x |\n", r, r)
		for k := 0; k < 10; k++ {
			var spec string
			switch k {
			case 0:
				spec = fmt.Sprintf("brain:src/**/*.ts /export function fn[[:digit:]]+_%d\\(/", r%30)
			case 1:
				spec = "brain:{src,pkg}/**/*.ts !brain:src/api/** /eval[[:space:]]*\\(/ absent"
			case 2:
				i := (r*6 + 0) % nFiles
				spec = fmt.Sprintf("brain:src/core/file%03d.ts /const Widget%d =/ unique", i, i)
			case 3:
				spec = fmt.Sprintf("brain:db/migrations/*.sql /grant[^;]*on[[:space:]]+t[[:digit:]]+/i count=%d", nFiles/6)
			case 4:
				spec = "brain:src/core/*.ts /limits: true/ each"
			case 5:
				spec = "brain:src/**/*.ts !src/lib/** /TODO|FIXME/ each!"
			case 6:
				spec = "*:**.md !docs/page00[0-4].md /password=/ absent"
			case 7:
				spec = "brain:src/*/file*.{ts,tsx} /path: \"a\\/b\"/"
			case 8:
				spec = fmt.Sprintf("brain:pkg/util/*.ts /fn[[:digit:]]+_%d/ present", r%30)
			default:
				spec = fmt.Sprintf("brain:docs/*.md /widget%d is/i", (r*6+4)%nFiles)
			}
			fmt.Fprintf(&law, "<!-- @anchor MV-%03d %s -->\n", r, spec)
		}
	}
	return law.String()
}

func benchVerifyVsGitGrep(b *testing.B, verifyDir, grepDir string) {
	b.Helper()
	var out strings.Builder
	if code := run(context.Background(), []string{"verify", verifyDir, "--check"}, &out, io.Discard); code != 0 {
		b.Fatalf("the generated law must hold: exit %d\n%s", code, out.String()[max(0, out.Len()-3000):])
	}
	if !strings.Contains(out.String(), "100 claims · 100 anchored (100%)") {
		b.Fatalf("report:\n%s", out.String())
	}
	grep := func() {
		cmd := exec.Command("git", "-C", grepDir, "grep", "-c", "-E", ".")
		cmd.Stdout, cmd.Stderr = io.Discard, io.Discard
		if err := cmd.Run(); err != nil {
			b.Fatal(err)
		}
	}
	var tv, tg time.Duration
	b.ResetTimer()
	for i := 0; i < b.N; i++ {
		t0 := time.Now()
		run(context.Background(), []string{"verify", verifyDir, "--check"}, io.Discard, io.Discard)
		t1 := time.Now()
		grep()
		tg += time.Since(t1)
		tv += t1.Sub(t0)
	}
	b.StopTimer()
	n := float64(b.N)
	b.ReportMetric(float64(tv.Microseconds())/1000/n, "verify-ms/op")
	b.ReportMetric(float64(tg.Microseconds())/1000/n, "gitgrep-ms/op")
	b.ReportMetric(float64(tv)/float64(tg), "ratio")
}

func BenchmarkClaimsVerify1000Legs(b *testing.B) {
	if _, err := exec.LookPath("git"); err != nil {
		b.Skip("git is not installed: no yardstick")
	}
	code := benchCode(benchFiles)
	files := sortedPaths(code)

	b.Run("narrow", func(b *testing.B) {
		r := wstest.New(b)
		r.Write(code)
		r.Write(map[string]string{".multivac/config.yml": "repos: {brain: .}\n", ".multivac/invariants.md": narrowLaw("brain", files)})
		r.Commit("init")
		benchVerifyVsGitGrep(b, r.Dir, r.Dir)
	})
	b.Run("wide", func(b *testing.B) {
		r := wstest.New(b)
		r.Write(code)
		r.Write(map[string]string{".multivac/config.yml": "repos: {brain: .}\n", ".multivac/invariants.md": wideLaw(benchFiles)})
		r.Commit("init")
		benchVerifyVsGitGrep(b, r.Dir, r.Dir)
	})
	b.Run("sibling", func(b *testing.B) {
		root := b.TempDir()
		api := wstest.NewAt(b, filepath.Join(root, "api"))
		api.Write(code)
		api.Commit("init")
		api.Publish()
		// A cloned sibling keeps its objects in a pack, not loose.
		if err := exec.Command("git", "-C", api.Dir, "repack", "-adq").Run(); err != nil {
			b.Fatal(err)
		}
		brain := wstest.NewAt(b, filepath.Join(root, "brain"))
		brain.Write(map[string]string{".multivac/config.yml": "repos: {api: ../api}\n", ".multivac/invariants.md": narrowLaw("api", files)})
		brain.Commit("init")
		benchVerifyVsGitGrep(b, brain.Dir, api.Dir)
	})
}
