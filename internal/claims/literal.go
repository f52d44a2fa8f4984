package claims

import (
	"regexp/syntax"
	"strings"
	"unicode/utf8"
)

// litSet is what every match must contain: for each group, at least one of
// its strings. Texts lacking it are skipped before the regex runs (the trick
// grep tools use).
type litSet [][]string

// literalsOf computes the litSet of a parsed, simplified RE2 pattern.
// fold: the literals are lower-cased and compared case-insensitively (the
// `i` flag); then only all-ASCII groups are kept, as Unicode folding is
// wider than strings.ToLower.
func literalsOf(re *syntax.Regexp) (lits litSet, fold bool) {
	collect(re, &lits, &fold)
	// A literal holding a surrogate stand-in is not in the raw text, and
	// one holding U+FFFD may not be either: the regex engine reads every
	// invalid UTF-8 byte as that character.
	var raw litSet
	for _, g := range lits {
		ok := true
		for _, l := range g {
			ok = ok && strings.IndexFunc(l, isSurrogateStandIn) < 0 && !strings.ContainsRune(l, utf8.RuneError)
		}
		if ok {
			raw = append(raw, g)
		}
	}
	lits = raw
	if fold {
		var ascii litSet
		for _, g := range lits {
			ok := true
			lower := make([]string, len(g))
			for i, l := range g {
				ok = ok && isASCII(l)
				lower[i] = strings.ToLower(l)
			}
			if ok {
				ascii = append(ascii, lower)
			}
		}
		lits = ascii
	}
	return lits, fold
}

// pureOf returns the string a parsed, simplified RE2 pattern matches when
// it is one case-sensitive literal of printable ASCII (no anchor, class or
// repetition), else "". Such a regex matches exactly the units holding the
// string, so the scanner need not run it where the string was found.
func pureOf(re *syntax.Regexp) string {
	if re.Op != syntax.OpLiteral || re.Flags&syntax.FoldCase != 0 {
		return ""
	}
	for _, r := range re.Rune {
		if r < ' ' || r > '~' {
			return ""
		}
	}
	return string(re.Rune)
}

// collect appends the literal groups a match of re must contain.
func collect(re *syntax.Regexp, lits *litSet, fold *bool) {
	switch re.Op {
	case syntax.OpLiteral:
		add(lits, fold, string(re.Rune), re.Flags&syntax.FoldCase != 0)
	case syntax.OpCapture, syntax.OpPlus:
		collect(re.Sub[0], lits, fold)
	case syntax.OpRepeat:
		if re.Min >= 1 {
			collect(re.Sub[0], lits, fold)
		}
	case syntax.OpAlternate:
		// One string per branch, each branch's longest: any of them must occur.
		var group []string
		for _, sub := range re.Sub {
			var inner litSet
			collect(sub, &inner, fold)
			best := ""
			for _, g := range inner {
				if len(g) == 1 && len(g[0]) > len(best) {
					best = g[0]
				}
			}
			if best == "" {
				return
			}
			group = append(group, best)
		}
		*lits = append(*lits, group)
	case syntax.OpConcat:
		run, runFold := "", false
		for _, sub := range re.Sub {
			if sub.Op == syntax.OpLiteral {
				f := sub.Flags&syntax.FoldCase != 0
				if run != "" && f != runFold {
					add(lits, fold, run, runFold)
					run = ""
				}
				run += string(sub.Rune)
				runFold = f
				continue
			}
			if run != "" {
				add(lits, fold, run, runFold)
				run = ""
			}
			collect(sub, lits, fold)
		}
		if run != "" {
			add(lits, fold, run, runFold)
		}
	}
}

func add(lits *litSet, fold *bool, s string, f bool) {
	if f {
		*fold = true
	}
	*lits = append(*lits, []string{s})
}

func isASCII(s string) bool {
	for i := 0; i < len(s); i++ {
		if s[i] >= utf8.RuneSelf {
			return false
		}
	}
	return true
}

// in reports whether s satisfies the set.
func (ls litSet) in(s string) bool {
	for _, g := range ls {
		found := false
		for _, l := range g {
			if strings.Contains(s, l) {
				found = true
				break
			}
		}
		if !found {
			return false
		}
	}
	return true
}
