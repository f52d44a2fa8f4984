package claims

import (
	"reflect"
	"strings"
	"testing"
)

// naiveLines tests every unit with the regex: the reference.
func naiveLines(path, text string, re *Regex) []int {
	var out []int
	for _, u := range SplitUnits(path, []byte(text)).Units {
		if re.MatchString(u.Text) {
			out = append(out, u.Line)
		}
	}
	return out
}

// scannedLines runs all regexes over the text in one scanner pass, every
// way: searching each literal (indexScan) where few are concerned, and
// the automaton for everything, walking the file whole and cut in two
// halves; all must agree.
func scannedLines(t testing.TB, path, text string, res []*Regex) [][]int {
	t.Helper()
	indexed := scannedLinesWith(path, text, res)
	oldFew, oldSplit := fewIndexLiterals, splitScanMin
	defer func() { fewIndexLiterals, splitScanMin = oldFew, oldSplit }()
	fewIndexLiterals = 0
	for _, split := range []int{0, 1 << 30} {
		splitScanMin = split
		if automaton := scannedLinesWith(path, text, res); !reflect.DeepEqual(indexed, automaton) {
			t.Fatalf("over %q (%s): literal search %v, automaton (cut from %d bytes) %v", text, path, indexed, split, automaton)
		}
	}
	return indexed
}

func scannedLinesWith(path, text string, res []*Regex) [][]int {
	sc := newScanner(res)
	st := sc.newState()
	out := make([][]int, len(res))
	var rids []int32
	for _, re := range res {
		rids = append(rids, sc.byRegex[re])
	}
	for pass := 0; pass < 2; pass++ { // the second file of a run reuses the scratch state
		got := make([][]int, len(sc.regexes))
		st.scanFile(path, []byte(text), rids, func(rid int32, line int) { got[rid] = append(got[rid], line) })
		for i, re := range res {
			out[i] = got[sc.byRegex[re]]
		}
	}
	return out
}

// The prefilter must never change a verdict: one pass for many regexes
// equals testing every unit with each regex.
func TestPrefilterSound(t *testing.T) {
	texts := []string{
		ecoSQL,
		"alpha beta\nGAMMA delta\nexport function fn1_2(x) {}\nTODO later\r\nFIXME now\n",
		"ſtraße KELVIN \u212a\nstrasse kelvin k\n",
		"abcabc\n\nabc\nab\nbc\nxabcy\n",
		"password=1\nPassword=2\nPASSWORD = 3\n",
		"",
		"\n",
		"no newline at the end",
		"<!-- @anchor X a:b /abc/ absent -->\nabc TODO\r\n\n\nxabcy <!-- @anchor\nGRANT ab",
		// Hits in both halves, on the line the cut starts, twice on a line.
		strings.Repeat("abc abc TODO\nnothing here\r\n", 7) + "export function fn1_2(x) abcabc\n" + strings.Repeat("xx\nFIXME bc ab\n", 5),
	}
	regexes := []struct{ src, flags string }{
		{"abc", ""}, {"abc", "i"}, {"a(b|x)c", ""}, {"(abc|bc)$", ""}, {"TODO|FIXME", ""}, {"todo|fixme", "i"},
		{"fn[[:digit:]]+_2\\(", ""}, {"k", "i"}, {"s", "i"}, {"STRASSE", "i"}, {"", ""}, {"^$", ""}, {"(ab)+c", ""},
		{"a{2,}", ""}, {"(abc){2}", ""}, {"password[[:space:]]*=", "i"}, {"grant[^;]*update", "i"}, {"CREATE TABLE", ""},
		{"x?abc", ""}, {"(a|b|c)+", ""}, {"b(c|$)", ""}, {"[[:upper:]]+", "i"}, {"kelvin", "i"}, {"bc", ""}, {"ab", ""},
	}
	var res []*Regex
	for _, r := range regexes {
		re, _, msg := CompileERE(r.src, r.flags)
		if msg != "" {
			t.Fatal(msg)
		}
		res = append(res, re)
	}
	for _, text := range texts {
		for _, path := range []string{"f.txt", "f.sql"} {
			got := scannedLines(t, path, text, res)
			for i, re := range res {
				want := naiveLines(path, text, re)
				if !reflect.DeepEqual(want, got[i]) {
					t.Errorf("/%s/%s over %q (%s): naive %v, scanned %v (lits %v)", re.Source, re.Flags, strings.SplitN(text, "\n", 2)[0], path, want, got[i], re.lits)
				}
				// Alone, a regex with a literal takes the jump-to-the-hit path.
				if alone := scannedLines(t, path, text, []*Regex{re}); !reflect.DeepEqual(want, alone[0]) {
					t.Errorf("/%s/%s alone over %q (%s): naive %v, scanned %v", re.Source, re.Flags, strings.SplitN(text, "\n", 2)[0], path, want, alone[0])
				}
			}
		}
	}
}

// The automaton finds every occurrence of every literal, overlapping ones
// and ones that are suffixes of others included.
func TestACMatcher(t *testing.T) {
	lits := []string{"he", "she", "his", "hers", "s", "ushe"}
	m := newACMatcher(lits, false)
	count := map[string]int{}
	m.scanString("ushers his", func(id int32) { count[lits[id]]++ })
	want := map[string]int{"he": 1, "she": 1, "hers": 1, "s": 3, "ushe": 1, "his": 1}
	if !reflect.DeepEqual(count, want) {
		t.Errorf("got %v, want %v", count, want)
	}
	f := newACMatcher([]string{"grant"}, true)
	n := 0
	f.scanString("GRANT Grant gRaNt grant", func(int32) { n++ })
	if n != 4 {
		t.Errorf("folded: %d hits, want 4", n)
	}
}

// A regex read as a pure literal is matched by finding the literal alone:
// only a case-sensitive run of printable ASCII qualifies.
func TestPureLiteral(t *testing.T) {
	cases := []struct{ src, flags, want string }{
		{"abc", "", "abc"}, {`helper\(x\) \+ 3;`, "", "helper(x) + 3;"}, {`path: "a\/b"`, "", `path: "a/b"`},
		{"abc", "i", ""}, {"a|b", "", ""}, {"^abc", "", ""}, {"abc$", "", ""}, {"ab+c", "", ""}, {"a.c", "", ""},
		{"[a]bc", "", "abc"}, {"straße", "", ""}, {"a[[:space:]]b", "", ""}, {"(abc)", "", ""},
	}
	for _, c := range cases {
		re, _, msg := CompileERE(c.src, c.flags)
		if msg != "" {
			t.Fatalf("/%s/%s: %s", c.src, c.flags, msg)
		}
		if re.pure != c.want {
			t.Errorf("/%s/%s: pure %q, want %q", c.src, c.flags, re.pure, c.want)
		}
	}
}
