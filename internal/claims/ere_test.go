package claims

import (
	"reflect"
	"sort"
	"strings"
	"testing"
)

// Public dialect cases.
func TestDialectCases(t *testing.T) {
	refused := []struct{ id, src, gist string }{
		{"D01", "PIN[:digit:]", "character class syntax is [[:digit:]], not [:digit:]"},
		{"D03a", "a(?=b)", "POSIX ERE has no `(?…)`"},
		{"D03b", "a(?:b)", "POSIX ERE has no `(?…)`"},
		{"D05a", `(a)\1`, `\1 is a backreference`},
		{"D05b", `a\7b`, `\7 is a backreference`},
		{"D05c", `a\0b`, `\0 means nothing in POSIX ERE`},
		{"D13a", "[[:bogus:]]", "unknown POSIX class [:bogus:]"},
		{"D13b", "a(b", "fix the pattern in the anchor line"},
		{"s", `\s`, `\s is not POSIX ERE — use [[:space:]]`},
		{"S", `\S`, `use [^[:space:]]`},
		{"d", `\d+`, `\d is not POSIX ERE — use [[:digit:]]`},
		{"D", `\D`, `use [^[:digit:]]`},
		{"w", `\w`, `use [[:alnum:]_]`},
		{"W", `\W`, `use [^[:alnum:]_]`},
		{"b", `\bfoo`, `use (^|[^[:alnum:]_])...([^[:alnum:]_]|$)`},
		{"B", `\B`, "no equivalent, restructure the pattern"},
		{"t", `a\tb`, `\t has no meaning in POSIX ERE — escape punctuation only`},
		{"lazy*", `a*?`, "POSIX ERE quantifiers are greedy"},
		{"lazy+", `a+?`, "POSIX ERE quantifiers are greedy"},
		{"lazy?", `a??`, "POSIX ERE quantifiers are greedy"},
		{"lazy}", `a{2}?`, "POSIX ERE quantifiers are greedy"},
		{"cntrl", `[[:cntrl:]]`, "unknown POSIX class [:cntrl:]"},
		{"word", `[[:word:]]`, "unknown POSIX class [:word:]"},
		{"unclosed", `[abc`, "fix the pattern in the anchor line"},
		{"trailing-backslash", `abc\`, "fix the pattern in the anchor line"},
		{"lazy-names-quantifier", `a{2}?`, "`{2}?` is not lazy here"},
		{"lazy-names-star", `a*?`, "`*?` is not lazy here"},
		{"out-of-order", `a{1002,1001}`, "fix the pattern in the anchor line"},
	}
	for _, c := range refused {
		_, _, msg := CompileERE(c.src, "")
		if !strings.Contains(msg, c.gist) {
			t.Errorf("%s: %q gave %q, want %q", c.id, c.src, msg, c.gist)
		}
	}

	accepted := []string{"[[:digit:]]", "[[:alpha:][:digit:]]", "[[:digit:]x]", "[]]", "[^]]", "^foo$", "a{2,3}",
		"[a-z]", `a\.b`, "(a|b)+", "[^[:space:]]", `\<a`, `[\s]`, `a{,3}`, `PIN\[:digit:]`, `x\/y`, "", `a{1001}`, `(ab){2500,}`, `[a\-z]`}
	for _, src := range accepted {
		if _, _, msg := CompileERE(src, ""); msg != "" {
			t.Errorf("%q refused: %s", src, msg)
		}
	}

	matches := []struct {
		id, src, flags, text string
		want                 bool
	}{
		{"D09", "^[[:alpha:][:digit:]]+$", "", "abc123", true},
		{"D09-neg", "^[[:alpha:][:digit:]]+$", "", "abc-123", false},
		{"D11", `a\\s`, "", `a\s`, true},
		{"D15a", "[^[:space:]]+", "", "abc", true},
		{"D15b", "v[[:digit:]]+", "", "v42", true},
		{"D15c", "^[[:digit:]]+$", "", "4a2", false},
		{"D17a", `[\s]`, "", "a b", true},
		{"D17b", `\<a`, "", "<a", true},
		{"D17b-not-boundary", `\<a`, "", "a", false},
		{"brace-literal", `a{,3}`, "", "a{,3}", true},
		{"escaped-class-literal", `PIN\[:digit:]`, "", "PIN[:digit:]", true},
		{"escaped-class-literal-no", `PIN\[:digit:]`, "", "PIN5", false},
		{"case-fold", "[[:upper:]]+", "i", "abc", true},
		{"no-fold", "^[[:upper:]]+$", "", "abc", false},
		{"dot-no-cr", "a.b", "", "a\rb", false},
		{"dot", "a.b", "", "axb", true},
		{"bracket-first", "[]]", "", "]", true},
		{"bracket-neg-first", "^[^]]$", "", "x", true},
		{"punct", "^[[:punct:]]+$", "", "!-/:@[`{~", true},
		{"space", "[[:space:]]", "", "\v", true},
		{"xdigit", "^[[:xdigit:]]+$", "", "0aF", true},
		{"blank-no-newline", "[[:blank:]]", "", "a\fb", false},
		// Divergence 3: `i` folds as JavaScript's Canonicalize, not Unicode's
		// simple folding: the Kelvin sign is not k, the long s is not s.
		{"fold-K", "k", "i", "K", true},
		{"fold-kelvin-sign", "k", "i", "\u212a", false},
		{"fold-long-s", "s", "i", "\u017f", false},
		{"fold-class-kelvin", "[a-z]", "i", "\u212a", false},
		{"fold-class-upper", "^[[:upper:]]+$", "i", "abc", true},
		{"fold-neg-class", "^[^k]$", "i", "K", false},
		{"fold-neg-class-kelvin", "^[^k]$", "i", "\u212a", true},
		{"fold-micro", "^\u00b5$", "i", "\u039c", true},
		{"fold-sharp-s-alone", "^\u00df$", "i", "\u1e9e", false},
		{"fold-accent", "^\u00e9t\u00e9$", "i", "\u00c9T\u00c9", true},
		// Divergence 4: the text is UTF-16, so `.` matches half an emoji.
		{"dot-one-unit", "^.$", "", "\U0001F600", false},
		{"dot-two-units", "^..$", "", "\U0001F600", true},
		{"dot-between", "^x.y$", "", "x\U0001F600y", false},
		{"dot-dot-between", "^x..y$", "", "x\U0001F600y", true},
		{"emoji-literal", "a\U0001F600b", "", "za\U0001F600bz", true},
		{"neg-class-units", "^[^x]{2}$", "", "\U0001F600", true},
		{"emoji-in-class", "^[\U0001F600]$", "", "\U0001F600", false},
		{"emoji-in-class-twice", "^[\U0001F600]{2}$", "", "\U0001F600", true},
		// Divergence 1: `\-` in brackets is a hyphen, never a range.
		{"bracket-escaped-hyphen", "^[a\\-z]$", "", "-", true},
		{"bracket-escaped-hyphen-no-range", "^[a\\-z]$", "", "m", false},
		{"bracket-escaped-hyphen-z", "^[a\\-z]$", "", "z", true},
		// Divergence 5: counts past RE2's 1000 are JavaScript's.
		{"repeat-1001", "^a{1001}$", "", strings.Repeat("a", 1001), true},
		{"repeat-1001-short", "^a{1001}$", "", strings.Repeat("a", 1000), false},
		{"repeat-1001-long", "^a{1001}$", "", strings.Repeat("a", 1002), false},
		{"repeat-group-open", "^(ab){1500,}$", "", strings.Repeat("ab", 1600), true},
		{"repeat-group-open-short", "^(ab){1500,}$", "", strings.Repeat("ab", 1499), false},
		{"repeat-range", "^x[[:digit:]]{999,1001}$", "", "x" + strings.Repeat("7", 1001), true},
		{"repeat-range-over", "^x[[:digit:]]{999,1001}$", "", "x" + strings.Repeat("7", 1002), false},
	}
	for _, c := range matches {
		re, _, msg := CompileERE(c.src, c.flags)
		if msg != "" {
			t.Errorf("%s: %s", c.id, msg)
			continue
		}
		if got := re.MatchString(c.text); got != c.want {
			t.Errorf("%s: /%s/%s vs %q = %v, want %v (RE2 %s)", c.id, c.src, c.flags, c.text, got, c.want, re.GoSyntax())
		}
	}

	// docs/claims.md: a letter escape inside brackets is accepted with a warning.
	if _, warns, _ := CompileERE(`[\s]x`, ""); len(warns) != 1 || !strings.Contains(warns[0], "engines disagree") {
		t.Errorf("bracket escape warning: %v", warns)
	}
	if _, warns, _ := CompileERE(`[\.]x`, ""); len(warns) != 0 {
		t.Errorf("punctuation escape should not warn: %v", warns)
	}
}

// The fold classes built from Unicode's case ranges are the ones a walk
// over every BMP character gives.
func TestFoldClassesExhaustive(t *testing.T) {
	all := map[rune][]rune{}
	for r := rune(0); r <= 0xFFFF; r++ {
		if r >= 0xD800 && r <= 0xDFFF {
			continue
		}
		c := jsCanonicalize(r)
		all[c] = append(all[c], r)
	}
	want := map[rune][]rune{}
	var wantGroups [][]rune
	for c, rs := range all {
		if len(rs) > 1 {
			want[c] = rs
			wantGroups = append(wantGroups, rs)
		}
	}
	sort.Slice(wantGroups, func(i, j int) bool { return wantGroups[i][0] < wantGroups[j][0] })
	got, groups := buildFoldClasses()
	if !reflect.DeepEqual(got, want) {
		for c, rs := range want {
			if !reflect.DeepEqual(got[c], rs) {
				t.Errorf("class of %U: got %U, want %U", c, got[c], rs)
			}
		}
		t.Fatalf("%d classes, want %d", len(got), len(want))
	}
	if !reflect.DeepEqual(groups, wantGroups) {
		t.Errorf("groups differ: %d vs %d", len(groups), len(wantGroups))
	}
	// JavaScript keeps the Kelvin sign and the long s out of k's and s's.
	if !reflect.DeepEqual(got['K'], []rune{'K', 'k'}) || !reflect.DeepEqual(got['S'], []rune{'S', 's'}) {
		t.Errorf("K class %U, S class %U", got['K'], got['S'])
	}
}

// An ASCII character's fold class, read without the table, is the
// table's.
func TestFoldClassOfASCIIIsTheTables(t *testing.T) {
	for r := rune(0); r < 0x80; r++ {
		want := jsFoldClasses()[jsCanonicalize(r)]
		if got := foldClassOf(r); !reflect.DeepEqual(got, want) {
			t.Errorf("class of %q: %U without the table, %U in it", r, got, want)
		}
	}
}

// The extras of a bracket expression within ASCII, found without the
// table, are the table's, in the same order: every single range, and
// pairs of ranges around the letters.
func TestFoldExtrasASCII(t *testing.T) {
	check := func(ranges []rune) {
		in := func(r rune) bool {
			for i := 0; i+1 < len(ranges); i += 2 {
				if r >= ranges[i] && r <= ranges[i+1] {
					return true
				}
			}
			return false
		}
		if got, want := foldExtras(ranges, in), foldExtrasTable(in); !reflect.DeepEqual(got, want) {
			t.Fatalf("ranges %q: extras %q without the table, %q with it", ranges, got, want)
		}
	}
	for a := rune(0); a < 0x80; a++ {
		for b := a; b < 0x80; b++ {
			check([]rune{a, b})
		}
	}
	for _, a := range []rune{'0', 'A', 'K', 'Z', '_', 'a', 'k', 'z'} {
		for b := rune(0x20); b < 0x80; b += 3 {
			check([]rune{a, a, b, b})
			check([]rune{'0', '9', a, b})
		}
	}
}
