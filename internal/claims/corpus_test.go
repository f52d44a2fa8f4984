package claims

import (
	"context"
	"encoding/json"
	"fmt"
	"strings"
	"testing"
)

// genRepo builds a brain==code repository: nFiles source files over a few
// directories, some SQL, some docs. Content is deterministic.
func genRepo(nFiles int) *MemRepo {
	r := &MemRepo{Name: "brain", Content: map[string][]byte{}, Untrack: []string{},
		ReadFacts: ReadFacts{Kind: ReadBrain, Branch: "main", SHA: "abc1234"}}
	dirs := []string{"src/core", "src/lib", "src/api", "pkg/util", "docs", "db/migrations"}
	for i := 0; i < nFiles; i++ {
		dir := dirs[i%len(dirs)]
		var p, body string
		switch dir {
		case "docs":
			p = fmt.Sprintf("%s/page%03d.md", dir, i)
			body = fmt.Sprintf("# Page %d\n\nThe symbol Widget%d is documented here.\n", i, i)
		case "db/migrations":
			p = fmt.Sprintf("%s/%04d.sql", dir, i)
			body = fmt.Sprintf("-- migration %d\nCREATE TABLE t%d (\n  id bigint PRIMARY KEY\n);\nGRANT\nSELECT ON t%d TO app_role;\n", i, i, i)
		default:
			p = fmt.Sprintf("%s/file%03d.ts", dir, i)
			var b strings.Builder
			fmt.Fprintf(&b, "// file %d\nimport { helper } from './helper';\n", i)
			for j := 0; j < 30; j++ {
				fmt.Fprintf(&b, "export function fn%d_%d(x: number): number { return helper(x) + %d; }\n", i, j, j)
			}
			fmt.Fprintf(&b, "export const Widget%d = { limits: true, path: \"a/b\" };\n", i)
			body = b.String()
		}
		r.Content[p] = []byte(body)
	}
	return r
}

// genLaw writes a law of nRows rows with legsPerRow legs each, cycling
// through every mode, the i flag, exclusions, braces and escaped slashes.
// Every leg parses; most hold.
func genLaw(nRows, legsPerRow, nFiles int) []byte {
	var b strings.Builder
	b.WriteString("# law\n\n| ID | statement | authority | state | date | source |\n| --- | --- | --- | --- | --- | --- |\n")
	states := []string{"active", "active", "active", "proposed", "drift", "retired"}
	leg := 0
	for r := 0; r < nRows; r++ {
		id := fmt.Sprintf("MV-%03d", r+1)
		fmt.Fprintf(&b, "| %s | statement %d quotes `a || b` and /regex/ | published | %s | 2026-01-01 | x |\n", id, r, states[r%len(states)])
		for k := 0; k < legsPerRow; k++ {
			i := (leg * 7) % nFiles
			dir := []string{"src/core", "src/lib", "src/api", "pkg/util", "docs", "db/migrations"}[i%6]
			var spec string
			switch leg % 10 {
			case 0:
				spec = fmt.Sprintf("brain:src/**/*.ts /export function fn[[:digit:]]+_%d\\(/", k%30)
			case 1:
				spec = "brain:{src,pkg}/**/*.ts !brain:src/api/** /eval[[:space:]]*\\(/ absent"
			case 2:
				if dir == "docs" || dir == "db/migrations" {
					spec = fmt.Sprintf("brain:docs/*.md /widget%d is/i unique", (i/6)*6+4)
				} else {
					spec = fmt.Sprintf("brain:%s/file%03d.ts /const Widget%d =/ unique", dir, i, i)
				}
			case 3:
				spec = "brain:db/migrations/*.sql /grant[^;]*on[[:space:]]+t[[:digit:]]+/i count=" + fmt.Sprint((nFiles+5-5)/6)
			case 4:
				spec = "brain:src/core/*.ts /limits: true/ each"
			case 5:
				spec = "brain:src/**/*.ts !src/lib/** /TODO|FIXME/ each!"
			case 6:
				spec = "*:**.md !docs/page00[0-4].md /password=/ absent"
			case 7:
				spec = "brain:src/*/file*.{ts,tsx} /path: \"a\\/b\"/"
			case 8:
				spec = fmt.Sprintf("brain:pkg/util/*.ts /fn[[:digit:]]+_%d/ present", k%30)
			default:
				spec = "brain:src/lib/** /^import \\{ helper \\}/ each"
			}
			fmt.Fprintf(&b, "<!-- @anchor %s %s -->\n", id, spec)
			leg++
		}
	}
	return []byte(b.String())
}

func corpusInput(nRows, legsPerRow, nFiles int) Input {
	repo := genRepo(nFiles)
	law := genLaw(nRows, legsPerRow, nFiles)
	repo.Content[LawFile] = law
	cfg, _ := ParseConfig([]byte("repos: {brain: .}\n"))
	return Input{Docs: map[string][]byte{LawFile: law}, Config: cfg, Repos: []Repo{repo}}
}

// A law of 120 rows and 840 legs of every mode parses with zero
// diagnostics and evaluates deterministically.
func TestCorpus(t *testing.T) {
	const rows, perRow, files = 120, 7, 300
	in := corpusInput(rows, perRow, files)
	legs, diags := ParseDoc(LawFile, in.Docs[LawFile])
	if len(diags) != 0 {
		t.Fatalf("%d diagnostics, first %+v", len(diags), diags[0])
	}
	if len(legs) != rows*perRow {
		t.Fatalf("%d legs", len(legs))
	}
	modes := map[string]int{}
	for _, l := range legs {
		modes[l.ModeText()[:min(len(l.ModeText()), 5)]]++
	}
	for _, m := range []string{"prese", "absen", "uniqu", "count", "each", "each!"} {
		if modes[m] == 0 {
			t.Errorf("no %s legs: %v", m, modes)
		}
	}
	rowsParsed, rowDiags := ParseRows(in.Docs[LawFile])
	if len(rowsParsed) != rows || len(rowDiags) != 0 {
		t.Fatalf("%d rows, %v", len(rowsParsed), rowDiags)
	}

	run := func() (string, string) {
		res, err := Evaluate(context.Background(), corpusInput(rows, perRow, files))
		if err != nil {
			t.Fatal(err)
		}
		if len(res.Diagnostics) != 0 {
			t.Fatalf("diagnostics: %+v", res.Diagnostics[0])
		}
		js, _ := json.Marshal(res)
		return Report(res), string(js)
	}
	r1, j1 := run()
	r2, j2 := run()
	if r1 != r2 || j1 != j2 {
		t.Fatal("two runs over the same input differ")
	}
	// The generated law is written to hold: every claim that is evaluated is ok.
	// The only leg lines are the retired rows' legs that are not tombstones.
	legLines := 0
	for _, l := range strings.Split(r1, "\n") {
		if strings.Contains(l, "[") && !strings.HasPrefix(l, "  retired ") {
			legLines++
		}
	}
	if !strings.Contains(r1, "120 claims · 120 anchored (100%)") || !strings.Contains(r1, "0 blocking broken · exit 0") || legLines != 0 {
		t.Fatalf("report:\n%s", r1[:min(len(r1), 2000)])
	}
}

// The engine honours cancellation between legs.
func TestCancel(t *testing.T) {
	ctx, cancel := context.WithCancel(context.Background())
	cancel()
	if _, err := Evaluate(ctx, corpusInput(10, 5, 60)); err == nil {
		t.Fatal("no error from a cancelled context")
	}
}

// BenchmarkEvaluate1000Legs: a 1,000-leg law over a 600-file repository.
func BenchmarkEvaluate1000Legs(b *testing.B) {
	in := corpusInput(100, 10, 600)
	b.ResetTimer()
	for i := 0; i < b.N; i++ {
		in.Repos = []Repo{genRepoCached}
		if _, err := Evaluate(context.Background(), in); err != nil {
			b.Fatal(err)
		}
	}
}

var genRepoCached = func() *MemRepo {
	r := genRepo(600)
	r.Content[LawFile] = genLaw(100, 10, 600)
	return r
}()

// BenchmarkBaselineOnePass is the yardstick of issue 3: one `grep -c -E .`
// pass (every tracked file split into lines, one regex test per line) over
// the same repository as BenchmarkEvaluate1000Legs.
func BenchmarkBaselineOnePass(b *testing.B) {
	re, _, _ := CompileERE(".", "")
	for i := 0; i < b.N; i++ {
		n := 0
		for _, p := range genRepoCached.Files() {
			content, _ := genRepoCached.Read(p)
			for _, line := range strings.Split(string(content), "\n") {
				if re.prog.get().MatchString(line) {
					n++
				}
			}
		}
		if n == 0 {
			b.Fatal("nothing matched")
		}
	}
}

// Empty and odd inputs give a report, never a panic.
func TestEvaluateOddInputs(t *testing.T) {
	inputs := []Input{
		{},
		{Docs: map[string][]byte{LawFile: nil}},
		{Docs: map[string][]byte{LawFile: []byte("| X | s | a | active | d | s |\n<!-- @anchor X brain:** /x/ -->\n")}, Config: DefaultConfig()},
		{CodeLegs: []CodeLeg{{Doc: "a.md", Line: 1, Claim: "", State: ""}}},
		{Docs: map[string][]byte{"README.md": []byte("<!-- @anchor X api:** /x/ -->")}, Repos: []Repo{&MemRepo{Name: "brain"}}},
	}
	for i, in := range inputs {
		res, err := Evaluate(context.Background(), in)
		if err != nil || res == nil {
			t.Fatalf("%d: %v", i, err)
		}
		if out := Report(res); !strings.Contains(out, "blocking broken · exit") {
			t.Fatalf("%d: %s", i, out)
		}
		for _, d := range res.Diagnostics {
			if strings.Contains(d.Message, "internal error") {
				t.Fatalf("%d: %s", i, d.Message)
			}
		}
	}
}

// BenchmarkEvaluateNarrow1000Legs is multivac's own law shape (docs/claims.md):
// 1,000 legs, nearly all over one named file, present and unique first.
func BenchmarkEvaluateNarrow1000Legs(b *testing.B) {
	var files []string
	for _, p := range genRepoCached.Files() {
		if !strings.HasPrefix(p, ".multivac/") {
			files = append(files, p)
		}
	}
	var law strings.Builder
	law.WriteString("| ID | statement | authority | state | date | source |\n| --- | --- | --- | --- | --- | --- |\n")
	modes := []string{"", "", "", "unique", "unique", "absent", "count=1", "", "unique", "each"}
	for r := 0; r < 100; r++ {
		fmt.Fprintf(&law, "| MV-%03d | s | published | active | 2026-01-01 | x |\n", r)
		for k := 0; k < 10; k++ {
			p := files[(r*10+k)*7%len(files)]
			re := "Widget[[:digit:]]+ ="
			switch {
			case strings.HasSuffix(p, ".md"):
				re = "The symbol Widget"
			case strings.HasSuffix(p, ".sql"):
				re = "grant select on t[[:digit:]]+/i"
				re = re[:len(re)-2] + "/i"
			}
			if modes[k] == "absent" {
				re = "eval[[:space:]]*\\("
			}
			if strings.HasSuffix(re, "/i") {
				fmt.Fprintf(&law, "<!-- @anchor MV-%03d brain:%s /%s %s -->\n", r, p, re, modes[k])
			} else {
				fmt.Fprintf(&law, "<!-- @anchor MV-%03d brain:%s /%s/ %s -->\n", r, p, re, modes[k])
			}
		}
	}
	cfg, _ := ParseConfig([]byte("repos: {brain: .}\n"))
	in := Input{Docs: map[string][]byte{LawFile: []byte(law.String())}, Config: cfg, Repos: []Repo{genRepoCached}}
	res, _ := Evaluate(context.Background(), in)
	if len(res.Diagnostics) != 0 || res.Exit != 0 {
		b.Fatalf("%v\n%s", res.Diagnostics, Report(res)[:min(2000, len(Report(res)))])
	}
	b.ResetTimer()
	for i := 0; i < b.N; i++ {
		if _, err := Evaluate(context.Background(), in); err != nil {
			b.Fatal(err)
		}
	}
}
