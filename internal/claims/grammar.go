package claims

import (
	"fmt"
	"math"
	"regexp"
	"strconv"
	"strings"
	"sync"
	"unicode/utf8"
)

// Grammar is the anchor shape multivac embeds in its messages (docs/claims.md).
const Grammar = "<!-- @anchor <CLAIM-ID> <repo>:<glob> [![<repo>:]<glob> ...] /<regex>/[i] [present|absent|unique|count=N|each|each!] -->"

// globSentence explains the glob dialect wherever a spec is refused.
const globSentence = "globs are picomatch patterns over repo-relative paths: `**` crosses directories, `{a,b}` alternates, and dotfiles match"

// Mode is what a leg checks (docs/claims.md); ModeCode is a symbol leg (docs/claims.md).
type Mode string

const (
	ModePresent Mode = "present"
	ModeAbsent  Mode = "absent"
	ModeUnique  Mode = "unique"
	ModeCount   Mode = "count"
	ModeEach    Mode = "each" // each! is ModeEach with Leg.Negated
	ModeCode    Mode = "code"
)

// Exclusion is one `!glob` (Repo empty: bites in every repo) or `!repo:glob`.
type Exclusion struct {
	Repo string
	Glob string
}

// Leg is one parsed `@anchor` line.
type Leg struct {
	Doc        string // brain-relative path of the Markdown file
	Line       int    // 1-based
	Claim      string
	Repo       string // repo key, "*" for every repo
	Include    string
	Exclusions []Exclusion
	Regex      *Regex
	Mode       Mode
	N          int    // count=N (math.MaxInt past what an int holds: no file set has that many units)
	NText      string // N as multivac prints it (a JavaScript number: count=007 is 7, 2^70 is 1.1805916207174113e+21)
	Negated    bool   // each!
	// LineStart and LineEnd are the byte offsets of the anchor's line in Doc
	// (LineEnd excludes the newline), so a heal can edit the doc in place.
	LineStart, LineEnd int
	// IncludeStart and IncludeEnd are the byte offsets of the include glob
	// (after `<repo>:`) in the line: the heal rewrites that token, never
	// an equal text earlier on the line.
	IncludeStart, IncludeEnd int
}

// ModeText is the mode as written in the law (`count=2`, `each!`).
func (l Leg) ModeText() string {
	switch {
	case l.Mode == ModeCount:
		return "count=" + l.countText()
	case l.Mode == ModeEach && l.Negated:
		return "each!"
	}
	return string(l.Mode)
}

// jsSpace and jsNonSpace are JavaScript's \s and \S, which multivac's
// patterns use; RE2's \s lacks \v and the Unicode spaces.
const (
	jsSpace    = `[\t\n\v\f\r \x{a0}\x{1680}\x{2000}-\x{200a}\x{2028}\x{2029}\x{202f}\x{205f}\x{3000}\x{feff}]`
	jsNonSpace = `[^\t\n\v\f\r \x{a0}\x{1680}\x{2000}-\x{200a}\x{2028}\x{2029}\x{202f}\x{205f}\x{3000}\x{feff}]`
)

// isJSSpace is jsSpace as a rune predicate.
func isJSSpace(r rune) bool {
	switch {
	case r == '\t', r == '\n', r == '\v', r == '\f', r == '\r', r == ' ', r == 0xa0, r == 0x1680,
		r >= 0x2000 && r <= 0x200a, r == 0x2028, r == 0x2029, r == 0x202f, r == 0x205f, r == 0x3000, r == 0xfeff:
		return true
	}
	return false
}

var (
	// The opener may follow any text on the line (a table cell, say).
	openerRe = sync.OnceValue(func() *regexp.Regexp { return regexp.MustCompile(`<!--` + jsSpace + `*@anchor\b`) })
	// The body runs lazily to the first "-->"; at least one space after @anchor.
	bodyRe = sync.OnceValue(func() *regexp.Regexp {
		return regexp.MustCompile(`<!--` + jsSpace + `*@anchor` + jsSpace + `+(` + jsDot + `*?)` + jsSpace + `*-->`)
	})
	bareRe = sync.OnceValue(func() *regexp.Regexp { return regexp.MustCompile(`^@anchor\b`) })
	// Greedy source backtracking to the last "/" that lets the tail parse:
	// "/" inside the regex needs no escaping.
	regexTailRe = sync.OnceValue(func() *regexp.Regexp {
		return regexp.MustCompile(`^/(` + jsDot + `*)/([A-Za-z]*)(?:` + jsSpace + `+(` + jsNonSpace + `+))?$`)
	})
	countRe = sync.OnceValue(func() *regexp.Regexp { return regexp.MustCompile(`^count=([0-9]+)$`) })
)

// ParseDoc reads every `@anchor` leg of one Markdown file. Each bad line
// gives exactly one diagnostic and no leg.
func ParseDoc(doc string, content []byte) ([]Leg, []Diagnostic) {
	return parseDoc(doc, string(content))
}

// parseDoc is ParseDoc over the doc as one string (the legs' fields are
// slices of it).
func parseDoc(doc, text string) ([]Leg, []Diagnostic) {
	var legs []Leg
	if n := strings.Count(text, "@anchor"); n > 0 { // every leg's line holds it: one allocation, not a doubling per leg
		legs = make([]Leg, 0, n)
	}
	var diags []Diagnostic
	inFence := false
	start := 0
	for n := 1; start <= len(text); n++ {
		end := lineEnd(text, start)
		line := text[start:end]
		leg, diag, ok := parseLine(doc, n, line, &inFence)
		if diag != nil {
			diags = append(diags, *diag)
		}
		if ok {
			leg.LineStart, leg.LineEnd = start, end
			for _, w := range leg.warnings {
				diags = append(diags, warning(doc, n, w))
			}
			leg.warnings = nil
			legs = append(legs, leg.Leg)
		}
		start = end + 1
	}
	if len(legs) == 0 {
		legs = nil
	}
	return legs, diags
}

type parsedLeg struct {
	Leg
	warnings []string
}

// parseLine applies the line rules of docs/claims.md in order.
func parseLine(doc string, n int, line string, inFence *bool) (parsedLeg, *Diagnostic, bool) {
	trimmed := strings.TrimLeftFunc(line, isJSSpace)
	if strings.HasPrefix(trimmed, "```") || strings.HasPrefix(trimmed, "~~~") {
		*inFence = !*inFence
		return parsedLeg{}, nil, false
	}
	if *inFence || strings.HasPrefix(line, "    ") {
		return parsedLeg{}, nil, false
	}
	if !strings.Contains(line, "@anchor") {
		return parsedLeg{}, nil, false // every rule below needs it: a law's long rows skip the regexes
	}
	if isBare(line) {
		d := parseError(doc, n, "anchor is not an HTML comment — write: "+Grammar)
		return parsedLeg{}, &d, false
	}
	if _, _, ok := opener(line); !ok {
		return parsedLeg{}, nil, false
	}
	bs, be, ok := anchorBody(line)
	if !ok {
		d := parseError(doc, n, "unterminated anchor comment — write it on one line: "+Grammar)
		return parsedLeg{}, &d, false
	}
	leg, msg := parseBody(line[bs:be])
	if msg != "" {
		d := parseError(doc, n, msg)
		return parsedLeg{}, &d, false
	}
	leg.Doc, leg.Line = doc, n
	leg.IncludeStart += bs
	leg.IncludeEnd += bs
	return leg, nil, true
}

// anchorBody finds the comment body bodyRe captures: after `@anchor` and
// its spaces, up to the first "-->" less the spaces before it. The common
// line (no CR or Unicode line separator, a space after the first opener)
// is read by hand, the rest by bodyRe itself: a law has a thousand legs and
// the lazy regex is the slow part of reading it. FuzzAnchorLine checks the
// two agree.
func anchorBody(line string) (start, end int, ok bool) {
	if !jsBreak(line, false) {
		if _, oe, ok := opener(line); ok {
			j := oe
			for j < len(line) {
				r, size := utf8.DecodeRuneInString(line[j:])
				if !isJSSpace(r) {
					break
				}
				j += size
			}
			if k := strings.Index(line[j:], "-->"); j > oe && k >= 0 {
				end := j + k
				for end > j {
					r, size := utf8.DecodeLastRuneInString(line[j:end])
					if !isJSSpace(r) {
						break
					}
					end -= size
				}
				return j, end, true
			}
		}
	}
	m := bodyRe().FindStringSubmatchIndex(line)
	if m == nil {
		return 0, 0, false
	}
	return m[2], m[3], true
}

// jsBreak is strings.ContainsAny(s, "\r\u2028\u2029"), with "\n" when
// lf: a character JavaScript's `.` refuses. ContainsAny with characters
// beyond ASCII walks s rune by rune; this looks for bytes (U+2028 and
// U+2029 are E2 80 A8 and E2 80 A9, and E2 is never a continuation byte,
// so the bytes are the characters). FuzzAnchorLine compares the two.
func jsBreak(s string, lf bool) bool {
	if strings.IndexByte(s, '\r') >= 0 || lf && strings.IndexByte(s, '\n') >= 0 {
		return true
	}
	for i := 0; ; i++ {
		j := strings.IndexByte(s[i:], 0xe2)
		if j < 0 {
			return false
		}
		i += j
		if strings.HasPrefix(s[i:], "\u2028") || strings.HasPrefix(s[i:], "\u2029") {
			return true
		}
	}
}

// isBare is bareRe over the line without its surrounding spaces: an
// `@anchor` that is no HTML comment. FuzzAnchorLine compares the two.
func isBare(line string) bool {
	t := strings.TrimFunc(line, isJSSpace)
	return strings.HasPrefix(t, "@anchor") && (len(t) == len("@anchor") || !isWordByte(t[len("@anchor")]))
}

// opener is openerRe().FindStringIndex(line) read by hand: the first
// `<!--` followed by spaces and a whole word `@anchor`. The spaces are
// greedy and `@` is none of them, so each `<!--` has one way to match.
// FuzzAnchorLine compares the two.
func opener(line string) (start, end int, ok bool) {
	for from := 0; ; {
		i := strings.Index(line[from:], "<!--")
		if i < 0 {
			return 0, 0, false
		}
		i += from
		j := i + len("<!--")
		for j < len(line) {
			r, size := utf8.DecodeRuneInString(line[j:])
			if !isJSSpace(r) {
				break
			}
			j += size
		}
		if e := j + len("@anchor"); strings.HasPrefix(line[j:], "@anchor") && (e == len(line) || !isWordByte(line[e])) {
			return i, e, true
		}
		from = i + 1
	}
}

// nibble splits off the first whitespace-delimited token.
func nibble(s string) (tok, rest string) {
	s = strings.TrimLeftFunc(s, isJSSpace)
	i := strings.IndexFunc(s, isJSSpace)
	if i < 0 {
		return s, ""
	}
	return s[:i], strings.TrimLeftFunc(s[i:], isJSSpace)
}

// parseBody tokenises the text between `@anchor ` and `-->` (docs/claims.md).
// The returned message is the single diagnostic for a bad body.
func parseBody(body string) (parsedLeg, string) {
	var leg parsedLeg
	id, rest := nibble(body)
	if id == "" || strings.HasPrefix(id, "/") || strings.Contains(id, ":") {
		return leg, "missing claim id before the repo spec — " + Grammar
	}
	leg.Claim = id

	specAt := len(body) - len(rest)
	spec, rest := nibble(rest)
	colon := strings.IndexByte(spec, ':')
	if colon <= 0 || colon == len(spec)-1 {
		shown := spec
		if shown == "" {
			shown = "(nothing)"
		}
		return leg, fmt.Sprintf("%q is not <repo>:<glob> — add the repo key, a colon, and the glob; %s", shown, globSentence)
	}
	leg.Repo, leg.Include = spec[:colon], spec[colon+1:]
	leg.IncludeStart, leg.IncludeEnd = specAt+colon+1, specAt+len(spec)

	for strings.HasPrefix(rest, "!") {
		var tok string
		tok, rest = nibble(rest)
		if tok == "!" {
			return leg, `empty !exclusion — remove the bare "!" or attach a glob to it; ` + globSentence
		}
		ex := tok[1:]
		c := strings.IndexByte(ex, ':')
		switch {
		case c < 0:
			leg.Exclusions = append(leg.Exclusions, Exclusion{Glob: ex})
		case c == 0 || c == len(ex)-1:
			return leg, fmt.Sprintf("%q is not !<repo>:<glob> — put a repo key before the colon and a glob after it", tok)
		default:
			leg.Exclusions = append(leg.Exclusions, Exclusion{Repo: ex[:c], Glob: ex[c+1:]})
		}
	}

	m, ok := regexTail(rest)
	if !ok {
		return leg, "missing or malformed /regex/ — " + Grammar
	}
	re, warns, msg := CompileERE(m[1], m[2])
	if msg != "" {
		return leg, msg
	}
	leg.Regex, leg.warnings = re, warns

	switch mode := m[3]; {
	case mode == "" || mode == "present":
		leg.Mode = ModePresent
	case mode == "absent":
		leg.Mode = ModeAbsent
	case mode == "unique":
		leg.Mode = ModeUnique
	case mode == "each":
		leg.Mode = ModeEach
	case mode == "each!":
		leg.Mode, leg.Negated = ModeEach, true
	case countRe().MatchString(mode):
		leg.Mode = ModeCount
		leg.N, leg.NText = countValue(countRe().FindStringSubmatch(mode)[1])
	default:
		return leg, fmt.Sprintf("unknown mode %q — use present, absent, unique, count=N, each or each!", mode)
	}
	return leg, ""
}

// regexTail is regexTailRe().FindStringSubmatch(rest): the rightmost "/"
// whose tail is letters (the flags), then nothing or spaces and one
// token (the mode). A tail holding a line terminator (which the source's
// `.` refuses) is left to the regex. FuzzAnchorLine checks they agree.
func regexTail(rest string) ([]string, bool) {
	if !strings.HasPrefix(rest, "/") {
		return nil, false
	}
	if jsBreak(rest, true) {
		m := regexTailRe().FindStringSubmatch(rest)
		return m, m != nil
	}
	for i := len(rest) - 1; i >= 1; i-- {
		if rest[i] != '/' {
			continue
		}
		tail := rest[i+1:]
		j := 0
		for j < len(tail) && (tail[j] >= 'a' && tail[j] <= 'z' || tail[j] >= 'A' && tail[j] <= 'Z') {
			j++
		}
		after := tail[j:]
		mode := strings.TrimLeftFunc(after, isJSSpace)
		switch {
		case after == "":
		case len(mode) == len(after) || mode == "" || strings.IndexFunc(mode, isJSSpace) >= 0:
			continue // no space before the mode, no mode after it, or two tokens
		}
		return []string{rest, rest[1:i], tail[:j], mode}, true
	}
	return nil, false
}

// countValue reads count=N's digits as multivac does: JavaScript's Number,
// so any number of digits is accepted and a value past 2^53 loses
// precision exactly as there.
func countValue(digits string) (int, string) {
	f, _ := strconv.ParseFloat(digits, 64) // digits only: never an error
	text := strconv.FormatFloat(f, 'f', -1, 64)
	if f >= 1e21 {
		text = strconv.FormatFloat(f, 'g', -1, 64) // JavaScript's exponent form, 1e+21 and up
	}
	if f >= math.MaxInt64 {
		return math.MaxInt, text
	}
	return int(f), text
}

func (l Leg) countText() string {
	if l.NText != "" {
		return l.NText
	}
	return strconv.Itoa(l.N)
}

// lineEnd is the offset of the line break ending the line that starts at
// start, or len(text) for the last line.
func lineEnd(text string, start int) int {
	if end := strings.IndexByte(text[start:], '\n'); end >= 0 {
		return start + end
	}
	return len(text)
}
