package claims

import (
	"regexp"
	"strings"
)

// Glob is a compiled picomatch pattern (v4, `dot: true`), matched against
// git's repo-relative `/`-separated paths (docs/claims.md).
//
// The translation is a port of picomatch's parser, so its quirks come along:
// `**.md` crosses directories while `src/**.ts` does not, `[1]` is a class,
// a pattern identical to the path always matches, a leading `./` is dropped.
// picomatch guards `*` and `**` with lookaheads that keep them off `.` and
// `..` segments and off empty input; git never lists such paths, so those
// guards are left out and the result runs on RE2 in linear time.
type Glob struct {
	Pattern string
	negated bool // a leading `!`: everything the rest does not match
	re      *regexp.Regexp
	literal bool      // no magic at all: plain string comparison
	broken  bool      // did not compile: matches only the identical string
	split   *negSplit // a negated extglob !(…): lookahead, evaluated by splitting
	prefix  string    // literal prefix every matching path starts with
}

// CompileGlob translates a glob. msg is non-empty when the pattern cannot be
// compiled (picomatch would silently match nothing; we say so).
func CompileGlob(pattern string) (*Glob, string) {
	if pattern == "" {
		return nil, "empty glob — " + globSentence
	}
	g := &Glob{Pattern: pattern}
	if isLiteralGlob(pattern) {
		g.literal = true
		return g, ""
	}
	src, negated, negations, unsupported := picomatchSource(pattern)
	if unsupported != "" {
		return nil, unsupported
	}
	g.negated = negated
	if !negated {
		g.prefix = literalPrefix(pattern)
	}
	if negations > 0 {
		split, msg := splitNegation(src)
		if msg != "" {
			return nil, "glob " + pattern + " " + msg + " — use one !(…) at the top level, or an exclusion !<glob>"
		}
		g.split = split
		return g, ""
	}
	re, err := compileJSRegex(src)
	if err != nil {
		// Like picomatch, the glob still matches the identical path string.
		g.broken = true
		return g, "glob " + pattern + " cannot be compiled: " + engineMessage(err) + " — " + globSentence
	}
	g.re = re
	return g, ""
}

// Match reports whether a repo-relative path matches.
func (g *Glob) Match(path string) bool {
	if path == "" {
		return false
	}
	if path == g.Pattern { // picomatch's identical-string shortcut
		return true
	}
	if g.broken {
		return false
	}
	if g.literal {
		return strings.TrimPrefix(g.Pattern, "./") == path
	}
	if !strings.HasPrefix(path, g.prefix) {
		return false
	}
	if g.split != nil {
		return g.split.match(path) != g.negated
	}
	return g.re.MatchString(path) != g.negated
}

// Prefix is a literal prefix every matching path has (used to skip sorted paths).
func (g *Glob) Prefix() string { return g.prefix }

// isLiteralGlob: nothing picomatch treats specially.
func isLiteralGlob(p string) bool {
	return !strings.ContainsAny(p, "*?[]{}()!@+|\\\"$^,") && !strings.Contains(p, "..")
}

// literalPrefix is the run of plain characters before the first one that
// picomatch may treat specially, cut before its last slash: `src/**`
// matches `src` itself.
func literalPrefix(p string) string {
	p = strings.TrimPrefix(p, "./")
	i := 0
	for ; i < len(p); i++ {
		c := p[i]
		plain := c >= 'a' && c <= 'z' || c >= 'A' && c <= 'Z' || c >= '0' && c <= '9' || c == '/' || c == '-' || c == '_' || c == '.'
		if !plain {
			break
		}
	}
	return p[:max(strings.LastIndexByte(p[:i], '/'), 0)]
}

// compileJSRegex compiles picomatch's output with RE2. The output's only
// `.` is in pmGlobstar, already spelled as JavaScript reads it.
func compileJSRegex(src string) (*regexp.Regexp, error) {
	return regexp.Compile(src)
}
