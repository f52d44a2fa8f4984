package claims

import (
	"reflect"
	"regexp"
	"slices"
	"strings"
	"testing"
	"time"
)

// The parsers never panic and never hang on any input.

func FuzzAnchorLine(f *testing.F) {
	for _, s := range []string{
		"<!-- @anchor INV-01 api:db/migrations/*.sql /revoke[[:space:]]+update/i -->",
		"<!-- @anchor X *:**.md !brain:07-rules.md !tmp/** /PIN/ absent -->",
		"<!-- @anchor X api:a /a/b/ each! -->", "<!-- @anchor -->", "@anchor x", "```\n<!-- @anchor", "| a | <!--@anchor X a:b /c/-->",
		"<!-- @anchor X api:a /[[:bogus:]]/ count=99999999999999999999999 -->",
		"<!--<!-- @anchor X a:b /c/ -->", "<!--\u3000@anchors <!--@anchor_ <!--\t@anchor", " @anchor\u00e9", "\u2028@anchor-x\u2028",
		"/a/ b/i  each", "/x/\u00a0each", "/x/i\u3000count=3\u3000", "/a/b/ c d", "/a/i-x", "//", "/a/gi\r", "/a\u2028/ absent", "/ /i /x/",
	} {
		f.Add(s)
	}
	f.Fuzz(func(t *testing.T, s string) {
		legs, diags := ParseDoc("f.md", []byte(s))
		for _, l := range legs {
			if l.Regex == nil || l.Claim == "" || l.Repo == "" || l.Include == "" || l.LineStart > l.LineEnd || l.LineEnd > len(s) {
				t.Fatalf("bad leg %+v", l)
			}
			if a, b := l.LineStart+l.IncludeStart, l.LineStart+l.IncludeEnd; b > l.LineEnd || s[a:b] != l.Include {
				t.Fatalf("include offsets %d..%d do not hold %q: %+v", a, b, l.Include, l)
			}
		}
		for _, d := range diags {
			if d.Message == "" || d.Line < 1 {
				t.Fatalf("bad diagnostic %+v", d)
			}
		}
		for _, line := range strings.Split(s, "\n") {
			for _, tail := range []string{line, "/" + line} {
				got, ok := regexTail(tail)
				if want := regexTailRe().FindStringSubmatch(tail); ok != (want != nil) || ok && !slices.Equal(got, want) {
					t.Fatalf("regexTail(%q) = %q, %v; regexTailRe %q", tail, got, ok, want)
				}
			}
			if got, want := isBare(line), bareRe().MatchString(strings.TrimFunc(line, isJSSpace)); got != want {
				t.Fatalf("isBare(%q) = %v; bareRe %v", line, got, want)
			}
			os, oe, ook := opener(line)
			if o := openerRe().FindStringIndex(line); ook != (o != nil) || ook && (os != o[0] || oe != o[1]) {
				t.Fatalf("opener(%q) = %d,%d,%v; openerRe %v", line, os, oe, ook, o)
			}
			if got, want := jsBreak(line, false), strings.ContainsAny(line, "\r\u2028\u2029"); got != want {
				t.Fatalf("jsBreak(%q, false) = %v; ContainsAny %v", line, got, want)
			}
			if got, want := jsBreak(line, true), strings.ContainsAny(line, "\r\n\u2028\u2029"); got != want {
				t.Fatalf("jsBreak(%q, true) = %v; ContainsAny %v", line, got, want)
			}
			bs, be, ok := anchorBody(line)
			m := bodyRe().FindStringSubmatchIndex(line)
			if ok != (m != nil) || ok && (bs != m[2] || be != m[3]) {
				t.Fatalf("anchorBody(%q) = %d,%d,%v; bodyRe %v", line, bs, be, ok, m)
			}
		}
		ParseRows([]byte(s))
		ParseChange(".multivac/changes/x.md", []byte(s))
	})
}

func FuzzERE(f *testing.F) {
	for _, s := range []string{"[[:alpha:][:digit:]]", `a\\s`, "PIN[:digit:]", "(a|b)+", "[^]]", `[\s]`, "a{2,3}", "(?i)", "[[:", `\`, "[a-", `pay\(x\) \+ 1;`, `a\/b\\`} {
		f.Add(s, "", "abc\nA1 b\n")
		f.Add(s, "i", "PIN5\n[[:x")
	}
	f.Fuzz(func(t *testing.T, src, flags, text string) {
		// A plain literal read by hand is what the full path prepares.
		samePrepared(t, src, flags)
		re, _, msg := CompileERE(src, flags)
		if (re == nil) == (msg == "") {
			t.Fatalf("regex %v with message %q", re, msg)
		}
		if re == nil {
			return
		}
		// Validated when read, compiled when first used: what passed the
		// validation must compile (the lazy compile panics otherwise).
		if _, err := regexp.Compile(re.GoSyntax()); err != nil {
			t.Fatalf("/%s/%s passed validation but does not compile: %v", src, flags, err)
		}
		start := time.Now()
		re.MatchString(strings.Repeat("a", 2000) + src)
		if time.Since(start) > 2*time.Second {
			t.Fatal("slow match")
		}
		// The literal prefilter and the one-pass scan never change a
		// verdict, alone or beside other regexes sharing the automaton.
		others := []*Regex{re}
		for _, o := range []string{"abc", "[[:digit:]]+", "A1 b", src + "x"} {
			if ore, _, omsg := CompileERE(o, flags); omsg == "" {
				others = append(others, ore)
			}
		}
		for _, path := range []string{"f.txt", "f.sql"} {
			if alone := scannedLines(t, path, text, []*Regex{re}); !reflect.DeepEqual(naiveLines(path, text, re), alone[0]) {
				t.Fatalf("/%s/%s alone over %q (%s): naive %v, scanned %v", src, flags, text, path, naiveLines(path, text, re), alone[0])
			}
			got := scannedLines(t, path, text, others)
			for i, r := range others {
				if want := naiveLines(path, text, r); !reflect.DeepEqual(want, got[i]) {
					t.Fatalf("/%s/%s over %q (%s): naive %v, scanned %v", r.Source, flags, text, path, want, got[i])
				}
			}
		}
	})
}

func FuzzGlob(f *testing.F) {
	for _, s := range []string{"src/**/*.ts", "**.md", "{a,b}/**", "*.{ts,tsx}", "{1..3}", "@(a|b)", "!(x)", "[[:alpha:]]", "./a", "!a", "a\\*", `"q"`, "{a,b", "+(a|b)+"} {
		f.Add(s, "src/lib/a.ts")
	}
	f.Fuzz(func(t *testing.T, pattern, path string) {
		g, msg := CompileGlob(pattern)
		if g == nil && msg == "" {
			t.Fatal("nil glob without a message")
		}
		if g != nil {
			g.Match(path)
			if pattern != "" && g.Match(pattern) != true && msg == "" && !strings.HasPrefix(pattern, "!") {
				// picomatch's identical-string shortcut
				t.Fatalf("%q does not match itself", pattern)
			}
		}
	})
}

func FuzzSQL(f *testing.F) {
	for _, s := range []string{ecoSQL, "DO $body$ SELECT '$$'; $body$; SELECT 3;", "SELECT $$;$$;", "'''", "/*", "--", "$a$", "a$b$c"} {
		f.Add(s)
	}
	f.Fuzz(func(t *testing.T, s string) {
		last := 0
		for _, st := range SplitSQL(s) {
			if st.Text == "" || st.Text != strings.TrimSpace(st.Text) || st.Line < last || st.Line > strings.Count(s, "\n")+1 {
				t.Fatalf("bad statement %+v", st)
			}
			last = st.Line
		}
	})
}

// FuzzEvaluate feeds arbitrary law, config and change files to a whole run
// over the eco repositories: a report always comes out, never a panic.
func FuzzEvaluate(f *testing.F) {
	f.Add("| INV-1 | s | a | retired | d | s |\n<!-- @anchor INV-1 *:**.md !api:README.md /acme/ absent -->\n", "repos: {api: ../acme-api}\n", "---\nslug: x\nstatus: open\nclaims: [{id: INV-1}]\n---\n")
	f.Add("<!-- @anchor X api:src/!(a).ts /port/ -->\n<!-- @anchor Y web:** /x/ each! -->", "blocking: [absent, present]", "")
	f.Fuzz(func(t *testing.T, law, config, change string) {
		cfg, cdiags := ParseConfig([]byte(config))
		_, repos := ecoRepos()
		in := Input{Docs: map[string][]byte{LawFile: []byte(law), ".multivac/changes/c.md": []byte(change)},
			Config: cfg, ConfigDiagnostics: cdiags, Repos: repos, Options: Options{Write: true}}
		// The parallel scan (one goroutine per file here) reports exactly
		// what the serial one does.
		res := serialAndParallel(t, "fuzzed law", func() Input { return in })
		for _, d := range res.Diagnostics {
			if strings.Contains(d.Message, "internal error") {
				t.Fatal(d.Message)
			}
		}
		for _, e := range res.Edits {
			if e.Start < 0 || e.End > len(in.Docs[e.Doc]) || e.Start > e.End {
				t.Fatalf("bad edit %+v", e)
			}
		}
		Report(res)
		res.EditorDiagnostics()
	})
}
