package claims

import (
	"fmt"
	"regexp"
	"regexp/syntax"
	"slices"
	"sort"
	"strings"
	"sync"
	"unicode"
	"unicode/utf8"
)

// multivac compiles a leg as a JavaScript RegExp without the `u` flag, and
// two things differ from RE2 there:
//
//   - `i` folds by JavaScript's Canonicalize: a character is its
//     upper case when that is one character and does not turn a non-ASCII
//     character into an ASCII one. So the Kelvin sign (U+212A) is not `k`
//     and the long s (U+017F) is not `s`, where RE2's (?i) folds both.
//     We spell the folding out: each letter becomes the class of the
//     characters with its canonical form, each bracket expression its
//     closure, and RE2 runs without (?i).
//   - the text is UTF-16: a character outside the Basic Multilingual Plane
//     (an emoji) is two code units, and `.` or `[^x]` matches one. We map
//     each such character, in the pattern and in a unit that holds one, to
//     two private-use characters standing for its surrogates.

// surrogateBase maps the high surrogates D800–DBFF to E000–E3FF and the
// low ones DC00–DFFF to E400–E7FF (private use: real text seldom holds
// them, and a unit that does reads them as themselves).
const surrogateBase = 0xE000

func surrogates(r rune) (rune, rune) {
	v := r - 0x10000
	return surrogateBase + v>>10, surrogateBase + 0x400 + v&0x3FF
}

// isSurrogateStandIn reports a rune of the private-use range surrogates use.
func isSurrogateStandIn(r rune) bool { return r >= surrogateBase && r < surrogateBase+0x800 }

// hasAstral reports a 4-byte UTF-8 sequence (a character past U+FFFF).
func hasAstral(b []byte, s string) bool {
	if b != nil {
		for _, c := range b {
			if c >= 0xF0 {
				return true
			}
		}
		return false
	}
	for i := 0; i < len(s); i++ {
		if s[i] >= 0xF0 {
			return true
		}
	}
	return false
}

// utf16View rewrites every character past U+FFFF as its two stand-ins.
func utf16View(b []byte, s string) string {
	if b != nil {
		s = string(b)
	}
	var out strings.Builder
	out.Grow(len(s) + 8)
	for _, r := range s {
		if r > 0xFFFF {
			hi, lo := surrogates(r)
			out.WriteRune(hi)
			out.WriteRune(lo)
			continue
		}
		out.WriteRune(r)
	}
	return out.String()
}

// jsSpecialUpper are the characters whose full upper case is several
// characters (Unicode's unconditional special casing): JavaScript's Canonicalize
// leaves them alone, where Go's simple mapping may not.
var jsSpecialUpper = [][2]rune{
	{0x00DF, 0x00DF}, {0x0149, 0x0149}, {0x01F0, 0x01F0}, {0x0390, 0x0390}, {0x03B0, 0x03B0},
	{0x0587, 0x0587}, {0x1E96, 0x1E9A}, {0x1F50, 0x1F50}, {0x1F52, 0x1F52}, {0x1F54, 0x1F54},
	{0x1F56, 0x1F56}, {0x1F80, 0x1FAF}, {0x1FB2, 0x1FB4}, {0x1FB6, 0x1FB7}, {0x1FBC, 0x1FBC},
	{0x1FC2, 0x1FC4}, {0x1FC6, 0x1FC7}, {0x1FCC, 0x1FCC}, {0x1FD2, 0x1FD3}, {0x1FD6, 0x1FD7},
	{0x1FE2, 0x1FE4}, {0x1FE6, 0x1FE7}, {0x1FF2, 0x1FF4}, {0x1FF6, 0x1FF7}, {0x1FFC, 0x1FFC},
	{0xFB00, 0xFB06}, {0xFB13, 0xFB17},
}

// jsCanonicalize is JavaScript's Canonicalize(ch) for a non-unicode, `i`
// RegExp: its upper case when that is one character and not ASCII from non-ASCII.
func jsCanonicalize(r rune) rune {
	if r > 0xFFFF {
		return r
	}
	for _, sp := range jsSpecialUpper {
		if r >= sp[0] && r <= sp[1] {
			return r
		}
	}
	u := unicode.ToUpper(r)
	if r >= 128 && u < 128 {
		return r
	}
	return u
}

var (
	foldOnce    sync.Once
	foldClasses map[rune][]rune // canonical form → every BMP character with it (only classes of two or more)
	foldGroups  [][]rune
)

func jsFoldClasses() map[rune][]rune {
	foldOnce.Do(func() { foldClasses, foldGroups = buildFoldClasses() })
	return foldClasses
}

// buildFoldClasses groups the BMP characters by canonical form. Only a
// character Unicode gives a case mapping (unicode.CaseRanges) can
// canonicalize to another one, so only those are visited (about 2,800,
// not 65,536: this ran on every start of a law with an `i` leg); each
// class also holds its canonical form when that is its own. The
// exhaustive walk in the tests gives the same classes.
func buildFoldClasses() (map[rune][]rune, [][]rune) {
	byCanon := map[rune][]rune{}
	for _, cr := range unicode.CaseRanges {
		for r := rune(cr.Lo); r <= rune(cr.Hi) && r <= 0xFFFF; r++ {
			if c := jsCanonicalize(r); c != r {
				byCanon[c] = append(byCanon[c], r)
			}
		}
	}
	classes := map[rune][]rune{}
	var groups [][]rune
	for c, rs := range byCanon {
		if jsCanonicalize(c) == c {
			rs = append(rs, c)
		}
		if len(rs) < 2 {
			continue
		}
		slices.Sort(rs)
		classes[c] = rs
		groups = append(groups, rs)
	}
	sort.Slice(groups, func(i, j int) bool { return groups[i][0] < groups[j][0] })
	return classes, groups
}

// foldClassOf is every BMP character with r's canonical form (nil when
// that is r alone). An ASCII character's class is its two cases or
// nothing — Canonicalize never takes a non-ASCII character to an ASCII
// one — so a pattern of ASCII letters never builds the table.
// TestFoldClassesExhaustive compares the two for every ASCII character.
func foldClassOf(r rune) []rune {
	if r < utf8.RuneSelf {
		switch {
		case r >= 'a' && r <= 'z':
			return []rune{r - 'a' + 'A', r}
		case r >= 'A' && r <= 'Z':
			return []rune{r, r - 'A' + 'a'}
		}
		return nil
	}
	return jsFoldClasses()[jsCanonicalize(r)]
}

// literalRune is one pattern character in RE2 syntax: its folding class
// under `i`, its two stand-ins past U+FFFF, else the character quoted.
func literalRune(r rune, fold bool) string {
	if r > 0xFFFF {
		hi, lo := surrogates(r)
		return string(hi) + string(lo)
	}
	if fold {
		if rs := foldClassOf(r); len(rs) > 1 {
			var b strings.Builder
			b.WriteByte('[')
			for _, m := range rs {
				fmt.Fprintf(&b, `\x{%x}`, m)
			}
			b.WriteByte(']')
			return b.String()
		}
	}
	return regexp.QuoteMeta(string(r))
}

// foldClass rewrites an RE2 bracket expression under JavaScript's `i`: a
// character matches when some member has its canonical form; a negated
// expression matches when none has.
func foldClass(cls string) string {
	neg := strings.HasPrefix(cls, "[^")
	pos := cls
	if neg {
		rest := cls[2:]
		if strings.HasPrefix(rest, "^") {
			rest = `\^` + rest[1:]
		}
		pos = "[" + rest
	}
	re, err := syntax.Parse(pos, syntax.Perl)
	if err != nil {
		return cls
	}
	var ranges []rune
	switch re.Op {
	case syntax.OpCharClass:
		ranges = append(ranges, re.Rune...)
	case syntax.OpLiteral:
		for _, r := range re.Rune {
			ranges = append(ranges, r, r)
		}
	default:
		return cls
	}
	in := func(r rune) bool {
		for i := 0; i+1 < len(ranges); i += 2 {
			if r >= ranges[i] && r <= ranges[i+1] {
				return true
			}
		}
		return false
	}
	extra := foldExtras(ranges, in)
	if len(extra) == 0 {
		return cls
	}
	var b strings.Builder
	b.WriteString("[")
	if neg {
		b.WriteString("^")
	}
	for i := 0; i+1 < len(ranges); i += 2 {
		fmt.Fprintf(&b, `\x{%x}-\x{%x}`, ranges[i], ranges[i+1])
	}
	for _, r := range extra {
		fmt.Fprintf(&b, `\x{%x}`, r)
	}
	b.WriteString("]")
	return b.String()
}

// foldExtras lists, in the order of foldGroups, the characters a class
// of these ranges lacks from the fold groups it meets. Ranges within ASCII
// meet only the letters' two-case groups (sorted first, by upper case),
// so they need no table; TestFoldExtrasASCII compares the two.
func foldExtras(ranges []rune, in func(rune) bool) []rune {
	if len(ranges) > 0 && slices.Max(ranges) < utf8.RuneSelf {
		var extra []rune
		for u := 'A'; u <= 'Z'; u++ {
			l := u - 'A' + 'a'
			switch hu, hl := in(u), in(l); {
			case hu && !hl:
				extra = append(extra, l)
			case hl && !hu:
				extra = append(extra, u)
			}
		}
		return extra
	}
	return foldExtrasTable(in)
}

// foldExtrasTable is foldExtras over the whole table.
func foldExtrasTable(in func(rune) bool) []rune {
	jsFoldClasses()
	var extra []rune
	for _, g := range foldGroups {
		hit := false
		for _, r := range g {
			if in(r) {
				hit = true
				break
			}
		}
		if hit {
			for _, r := range g {
				if !in(r) {
					extra = append(extra, r)
				}
			}
		}
	}
	return extra
}
