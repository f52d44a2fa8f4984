package claims

import (
	"regexp"
	"strings"
	"unicode/utf8"
)

// picomatch turns a negated extglob `!(x)` into a negative lookahead:
// `…(?:(?!(?:x)…)[^/]*?)…`. RE2 has no lookahead, so the pattern is cut at
// it: S = X (?!N) Y matches s when, for some split s = u·v, X matches all
// of u, N matches no prefix of v, and Y (X's open groups reopened) matches
// all of v. That holds when X's open groups are plain sequences (no `|` at
// their level, no quantifier after them), which the checks below ensure.
// Each test is O(len) regex runs of O(len): quadratic in the path, linear
// engines throughout.
type negSplit struct{ x, n, y *regexp.Regexp }

func (s *negSplit) match(path string) bool {
	for i := 0; i <= len(path); i++ {
		if i < len(path) && !utf8.RuneStart(path[i]) {
			continue
		}
		if s.x.MatchString(path[:i]) && !s.n.MatchString(path[i:]) && s.y.MatchString(path[i:]) {
			return true
		}
	}
	return false
}

// splitNegation cuts a full `^(?:…)$` source at its one lookahead; msg says
// why it cannot.
func splitNegation(src string) (*negSplit, string) {
	look := -1
	var open []bool // per open group: an alternation seen at its level
	for i := 0; i < len(src); i++ {
		switch c := src[i]; {
		case c == '\\':
			i++
		case c == '[':
			i = classEnd(src, i)
		case strings.HasPrefix(src[i:], "(?!"):
			look = i
		case c == '(':
			open = append(open, false)
		case c == ')' && len(open) > 0:
			open = open[:len(open)-1]
		case c == '|' && len(open) > 0:
			open[len(open)-1] = true
		}
		if look >= 0 {
			break
		}
	}
	if look < 0 {
		return nil, "has a lookahead that cannot be found"
	}
	for _, alt := range open {
		if alt {
			return nil, "nests !(…) inside an alternative"
		}
	}
	end := groupEnd(src, look)
	if end < 0 {
		return nil, "has an unbalanced !(…)"
	}
	x, n, y := src[:look], src[look+3:end], src[end+1:]
	if strings.Contains(n, "(?!") || strings.Contains(y, "(?!") {
		return nil, "has more than one !(…)"
	}
	// In Y, the groups X left open must close with no quantifier and no
	// alternative at their level.
	opened := 0 // groups opened in Y and still open
	for i := 0; i < len(y); i++ {
		switch c := y[i]; {
		case c == '\\':
			i++
		case c == '[':
			i = classEnd(y, i)
		case c == '(':
			opened++
		case c == ')' && opened > 0:
			opened--
		case c == ')': // closes one of X's groups
			if i+1 < len(y) && strings.IndexByte("*+?{", y[i+1]) >= 0 {
				return nil, "repeats a group that holds !(…)"
			}
		case c == '|' && opened == 0:
			return nil, "has an alternative beside !(…)"
		}
	}
	k := len(open)
	xs, err1 := regexp.Compile(x + strings.Repeat(")", k) + "$")
	ns, err2 := regexp.Compile("^(?:" + n + ")")
	ys, err3 := regexp.Compile("^" + strings.Repeat("(?:", k) + y)
	if err1 != nil || err2 != nil || err3 != nil {
		return nil, "cannot be compiled"
	}
	return &negSplit{x: xs, n: ns, y: ys}, ""
}

// classEnd returns the index of the `]` closing the class opened at i
// (JavaScript reading: a backslash escapes, the first `]` closes).
func classEnd(s string, i int) int {
	for j := i + 1; j < len(s); j++ {
		switch s[j] {
		case '\\':
			j++
		case ']':
			return j
		}
	}
	return len(s)
}

// groupEnd returns the index of the `)` closing the group opened at i.
func groupEnd(s string, i int) int {
	depth := 0
	for j := i; j < len(s); j++ {
		switch s[j] {
		case '\\':
			j++
		case '[':
			j = classEnd(s, j)
		case '(':
			depth++
		case ')':
			depth--
			if depth == 0 {
				return j
			}
		}
	}
	return -1
}
