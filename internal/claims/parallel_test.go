package claims

import (
	"context"
	"fmt"
	"path/filepath"
	"reflect"
	"strings"
	"testing"
)

// withScan runs fn with a batch's goroutine pool sized to workers, one
// more goroutine per `per` files.
func withScan(workers, per int, fn func()) {
	oldW, oldP := scanWorkers, filesPerWorker
	scanWorkers, filesPerWorker = func() int { return workers }, per
	defer func() { scanWorkers, filesPerWorker = oldW, oldP }()
	fn()
}

// serialAndParallel evaluates the same input with one scanning goroutine
// and with four (one per file), and fails when the results differ in
// anything: states, matches, lines, details, budget stops, edits.
func serialAndParallel(t *testing.T, name string, in func() Input) *Result {
	t.Helper()
	var serial, parallel *Result
	withScan(1, 1<<30, func() {
		var err error
		if serial, err = Evaluate(context.Background(), in()); err != nil {
			t.Fatal(err)
		}
	})
	withScan(4, 1, func() {
		var err error
		if parallel, err = Evaluate(context.Background(), in()); err != nil {
			t.Fatal(err)
		}
	})
	if !reflect.DeepEqual(serial, parallel) {
		t.Errorf("%s: the parallel scan's result differs from the serial one:\nserial:   %s\nparallel: %s", name, Report(serial), Report(parallel))
	}
	return serial
}

// The parallel scan gives the same report as the serial one, on every
// conformance fixture.
func TestParallelScanSameFixtures(t *testing.T) {
	files, _ := filepath.Glob("testdata/verify/*.txtar")
	if len(files) < 10 {
		t.Fatalf("%d fixtures", len(files))
	}
	for _, file := range files {
		f := loadFixture(t, file)
		serialAndParallel(t, filepath.Base(file), func() Input { in, _ := f.input(t); return in })
	}
}

// The same on a generated repository big enough that every goroutine
// gets many files: all modes, folded and literal-free regexes, SQL
// statements, legs sharing files, a moved match (the heal batch), and a
// byte budget that stops half way — at the same file whichever goroutine
// is faster.
func TestParallelScanSame(t *testing.T) {
	brain := &MemRepo{Name: "brain", Content: map[string][]byte{}, ReadFacts: ReadFacts{Kind: ReadBrain, Branch: "main", SHA: "abc1234"}}
	var law strings.Builder
	law.WriteString("| ID | statement | authority | state | date | source |\n| --- | --- | --- | --- | --- | --- |\n")
	for i := 0; i < 300; i++ {
		var b strings.Builder
		for j := 0; j < 40; j++ {
			fmt.Fprintf(&b, "export function fn%d_%d(x) { return helper(x) + %d; }\r\n", i, j, j)
		}
		if i%7 == 0 {
			b.WriteString("const TODO = 'Kelvin \u212a ſ 😀';\n")
		}
		if i == 123 {
			b.WriteString("moved_here_123(x)\n") // fn123_99 moved: the heal batch finds it here
		}
		brain.Content[fmt.Sprintf("src/m%02d/f%03d.ts", i%10, i)] = []byte(b.String())
		brain.Content[fmt.Sprintf("db/%03d.sql", i)] = []byte(fmt.Sprintf("-- m %d\nGRANT\n  SELECT ON t%d TO app;\nCREATE TABLE t%d (id int);\n", i, i, i))
	}
	for r := 0; r < 60; r++ {
		fmt.Fprintf(&law, "| C-%02d | s | a | active | 2026-01-01 | x |\n", r)
		specs := []string{
			fmt.Sprintf("brain:src/m%02d/** /fn[[:digit:]]+_%d\\(/", r%10, r%40),
			fmt.Sprintf("brain:src/** /return helper\\(x\\) \\+ %d;/ count=%d", r%40, 300),
			fmt.Sprintf("brain:db/*.sql /grant[^;]*on[[:space:]]+t%d[^[:digit:]]/i unique", r*5),
			fmt.Sprintf("brain:src/m0%d/*.ts /kelvin k/i absent", r%10),
			"brain:src/** /^.{3,}$/ each",
			fmt.Sprintf("brain:src/m%02d/f%03d.ts /TODO/ present", r%10, r),
			fmt.Sprintf("brain:** !db/** /legacy_%d/ absent", r),
		}
		if r == 7 {
			specs = append(specs, "brain:src/m03/f123.ts /fn123_99|moved_here_123/")
			specs = append(specs, "brain:src/m01/f001.ts /moved_here_123/") // not there: heal finds src/m03/f123.ts
		}
		for _, sp := range specs {
			fmt.Fprintf(&law, "<!-- @anchor C-%02d %s -->\n", r, sp)
		}
	}
	brain.Content[LawFile] = []byte(law.String())
	brain.Content[ConfigFile] = []byte("repos: {brain: .}\n")
	cfg, cdiags := ParseConfig(brain.Content[ConfigFile])
	input := func(maxBytes int64) func() Input {
		return func() Input {
			return Input{Docs: map[string][]byte{LawFile: brain.Content[LawFile]}, Config: cfg, ConfigDiagnostics: cdiags,
				Repos: []Repo{brain}, Options: Options{MaxBytes: maxBytes, Write: true}}
		}
	}
	full := serialAndParallel(t, "no budget", input(0))
	half := serialAndParallel(t, "half budget", input(400_000))

	// The run really exercised what it claims to: matches, a heal, a budget stop.
	rep, halfRep := Report(full), Report(half)
	for _, want := range []string{"moved", "C-59"} {
		if !strings.Contains(rep, want) {
			t.Errorf("full run lacks %q:\n%s", want, rep[:min(len(rep), 3000)])
		}
	}
	if !strings.Contains(halfRep, "byte budget") {
		t.Errorf("the half budget stopped nothing:\n%s", halfRep[:min(len(halfRep), 3000)])
	}
	matched, counted := 0, 0
	for _, c := range full.Claims {
		for _, l := range c.Legs {
			matched += len(l.Matches)
			if l.Mode == ModeCount { // count=300 over 300 files: every hit counts, 200 are listed
				counted++
				if l.State != StateOK || len(l.Matches) != maxMatches {
					t.Errorf("count leg %s:%d: %s, %d matches listed: %s", l.Doc, l.Line, l.State, len(l.Matches), l.Detail)
				}
			}
		}
	}
	if counted != 60 {
		t.Errorf("%d count legs", counted)
	}
	if matched < 1000 {
		t.Errorf("only %d matches: the corpus does not exercise the scan", matched)
	}
}
