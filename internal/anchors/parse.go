package anchors

import (
	"regexp"
	"strconv"
	"strings"
	"sync"
	"unicode/utf8"

	"github.com/clew-lsp/clew-lsp/internal/anchors/hash"
)

// The three accepted shapes, quoted in every parse diagnostic so the reader
// sees the correct form next to the mistake.
const (
	grammarSymbol = "<!-- @code [CLAIM-ID] <kind> <qualified-name> <path> [sha=<decl>[,<body>]] -->"
	grammarLines  = "<!-- @code [CLAIM-ID] lines <path>#L<start>-L<end> [sha=<hash>] -->"
	grammarDoc    = "<!-- @code [CLAIM-ID] doc <path>[#<heading-slug>] [sha=<hash>] -->"
	grammarAll    = grammarSymbol + " | " + grammarLines + " | " + grammarDoc
)

var (
	openerRE   = sync.OnceValue(func() *regexp.Regexp { return regexp.MustCompile(`<!--\s*@code\b`) })
	bareRE     = sync.OnceValue(func() *regexp.Regexp { return regexp.MustCompile(`^@code\b`) })
	headingRE  = sync.OnceValue(func() *regexp.Regexp { return regexp.MustCompile(`^ {0,3}(#{1,6})(?:[ \t]+(.*?))?[ \t#]*$`) })
	claimIDRE  = sync.OnceValue(func() *regexp.Regexp { return regexp.MustCompile(`^[A-Za-z][A-Za-z0-9_]*(?:-[A-Za-z0-9_.]+)+$`) })
	linesRefRE = sync.OnceValue(func() *regexp.Regexp { return regexp.MustCompile(`^(.+)#L([0-9]+)-L([0-9]+)$`) })
)

// line is one physical line of a doc with its byte offset.
type line struct {
	n     int // 1-based
	start int // offset of the first byte
	text  string
}

// splitDocLines cuts text into lines; each line's text is a slice of it.
func splitDocLines(text string) []line {
	out := make([]line, 0, strings.Count(text, "\n")+1)
	start := 0
	n := 1
	for i := 0; i <= len(text); i++ {
		if i == len(text) || text[i] == '\n' {
			if i == len(text) && start == len(text) && n > 1 {
				break
			}
			s := text[start:i]
			s = strings.TrimSuffix(s, "\r")
			out = append(out, line{n: n, start: start, text: s})
			start = i + 1
			n++
		}
	}
	return out
}

// heading is an ATX heading outside fences.
type heading struct {
	line  int
	level int
	text  string
}

// ParseDoc finds every `@code` anchor in a Markdown document. It never fails:
// each malformed line yields exactly one diagnostic and no anchor. Lines in
// fenced code blocks or indented four spaces are examples, not anchors.
func ParseDoc(doc string, text []byte) ([]Anchor, []Diagnostic) {
	return ParseDocText(doc, string(text))
}

// ParseDocText is ParseDoc over the doc as a string: a caller that also
// scans the doc for mentions (ScanMentionsText) converts it once.
func ParseDocText(doc, text string) ([]Anchor, []Diagnostic) {
	var (
		anchors  []Anchor
		diags    []Diagnostic
		headings []heading
		inFence  bool
	)
	lines := splitDocLines(text)
	for i, ln := range lines {
		s := ln.text
		if i == 0 {
			s = strings.TrimPrefix(s, "\ufeff")
		}
		trimmed := strings.TrimLeft(s, " \t")
		if strings.HasPrefix(trimmed, "```") || strings.HasPrefix(trimmed, "~~~") {
			inFence = !inFence
			continue
		}
		if inFence || strings.HasPrefix(s, "    ") {
			continue
		}
		if !quickLines || mayBeHeading(s) {
			if m := headingRE().FindStringSubmatch(s); m != nil {
				headings = append(headings, heading{line: ln.n, level: len(m[1]), text: strings.TrimSpace(m[2])})
			}
		}
		if quickLines && !strings.Contains(s, "@code") {
			continue // both rules below need it: most of a long doc's lines skip their regexes
		}
		base := ln.start + (len(ln.text) - len(s))
		if bareRE().MatchString(strings.TrimSpace(s)) {
			diags = append(diags, parseDiag(doc, ln, base, s,
				"anchor is not an HTML comment — write: "+grammarSymbol))
			continue
		}
		loc := openerRE().FindStringIndex(s)
		if loc == nil {
			continue
		}
		a, d := parseAnchorLine(doc, ln, base, s, loc[1])
		a.CommentStart = base + loc[0]
		if d != nil {
			diags = append(diags, *d)
			continue
		}
		anchors = append(anchors, a)
	}
	assignPassages(anchors, headings, len(lines))
	return anchors, diags
}

// quickLines lets ParseDoc skip a line's regexes when a byte test shows
// they cannot match; tests turn it off to check it changes nothing.
var quickLines = true

// mayBeHeading: headingRE needs at most three spaces, then "#".
func mayBeHeading(s string) bool {
	i := 0
	for i < 3 && i < len(s) && s[i] == ' ' {
		i++
	}
	return i < len(s) && s[i] == '#'
}

func parseDiag(doc string, ln line, base int, s, msg string) Diagnostic {
	return Diagnostic{
		Doc: doc, Line: ln.n, Span: Span{base, base + len(s)},
		Severity: SeverityError, Code: CodeAnchorParse, Message: msg,
	}
}

// token is a whitespace-delimited word of the comment body with its offset.
type token struct {
	text  string
	start int // absolute doc offset
}

func (t token) span() Span { return Span{t.start, t.start + len(t.text)} }

// tokenize splits on whitespace, except that a word with an open "(" runs on
// until the parentheses balance: overload suffixes contain spaces
// (`parse(String, int)`).
func tokenize(body string, base int) []token {
	var out []token
	i := 0
	for i < len(body) {
		for i < len(body) && isSpace(body[i]) {
			i++
		}
		if i >= len(body) {
			break
		}
		start := i
		depth := 0
		quoted := false // a quoted key segment may hold spaces: "my key".x
		for i < len(body) && (depth > 0 || quoted || !isSpace(body[i])) {
			switch body[i] {
			case '\\':
				if quoted && i+1 < len(body) { // a backslash at the end escapes nothing
					i++
				}
			case '"':
				quoted = !quoted
			case '(':
				depth++
			case ')':
				if depth > 0 {
					depth--
				}
			}
			i++
		}
		out = append(out, token{text: body[start:i], start: base + start})
	}
	return out
}

func isSpace(c byte) bool { return c == ' ' || c == '\t' || c == '\r' }

func parseAnchorLine(doc string, ln line, base int, s string, afterOpener int) (Anchor, *Diagnostic) {
	fail := func(msg string) (Anchor, *Diagnostic) {
		d := parseDiag(doc, ln, base, s, msg)
		return Anchor{}, &d
	}
	rest := s[afterOpener:]
	end := strings.Index(rest, "-->")
	if end < 0 {
		return fail("unterminated anchor comment — write it on one line: " + grammarSymbol)
	}
	if !utf8.ValidString(rest[:end]) {
		return fail("anchor contains invalid UTF-8 — retype it as: " + grammarSymbol)
	}
	body := rest[:end]
	toks := tokenize(body, base+afterOpener)
	a := Anchor{Doc: doc, Line: ln.n, CommentEnd: base + afterOpener + end}
	if len(toks) == 0 {
		return fail("empty anchor — write: " + grammarAll)
	}
	if t := toks[0].text; !IsKind(t) && t != "lines" && t != "doc" && claimIDRE().MatchString(t) {
		a.Claim = t
		toks = toks[1:]
		if len(toks) == 0 {
			return fail("anchor names claim " + t + " but no target — write: " + grammarAll)
		}
	}
	kindTok := toks[0]
	a.Kind = kindTok.text
	a.KindSpan = kindTok.span()
	toks = toks[1:]

	// The sha= token is optional and always last.
	var shaTok *token
	if n := len(toks); n > 0 && strings.HasPrefix(toks[n-1].text, "sha=") {
		shaTok = &toks[n-1]
		toks = toks[:n-1]
	}
	switch {
	case a.Kind == "lines":
		a.Form = FormLines
		if len(toks) != 1 {
			return fail("a lines anchor takes one <path>#L<start>-L<end> — write: " + grammarLines)
		}
		m := linesRefRE().FindStringSubmatch(toks[0].text)
		if m == nil {
			return fail(quote(toks[0].text) + " is not <path>#L<start>-L<end> — write: " + grammarLines)
		}
		a.Path = m[1]
		a.StartLine, _ = strconv.Atoi(m[2])
		a.EndLine, _ = strconv.Atoi(m[3])
		if a.StartLine < 1 || a.EndLine < a.StartLine {
			return fail("line range L" + m[2] + "-L" + m[3] + " is empty or starts before line 1 — write: " + grammarLines)
		}
		a.PathSpan = toks[0].span()
	case a.Kind == "doc":
		a.Form = FormDoc
		if len(toks) != 1 {
			return fail("a doc anchor takes one path — write: " + grammarDoc)
		}
		a.Path = toks[0].text
		if i := strings.IndexByte(a.Path, '#'); i >= 0 {
			a.Path, a.Section = a.Path[:i], a.Path[i+1:]
			if a.Section == "" || a.Path == "" {
				return fail(quote(toks[0].text) + " is not <path>#<heading-slug> — write: " + grammarDoc)
			}
		}
		a.PathSpan = toks[0].span()
	case IsKind(a.Kind):
		a.Form = FormSymbol
		if len(toks) != 2 {
			return fail("a " + a.Kind + " anchor takes a qualified name and a path — write: " + grammarSymbol)
		}
		a.QualifiedName = collapseSpaces(toks[0].text)
		a.NameSpan = toks[0].span()
		a.Path = toks[1].text
		a.PathSpan = toks[1].span()
	default:
		return fail("unknown kind " + quote(a.Kind) + " — use one of " + strings.Join(Kinds, ", ") +
			" (or lines / doc) — write: " + grammarSymbol)
	}
	if msg := CheckPath(a.Path); msg != "" {
		return fail(msg)
	}
	if shaTok != nil {
		a.SHASpan = shaTok.span()
		if msg := parseSHA(&a, strings.TrimPrefix(shaTok.text, "sha=")); msg != "" {
			return fail(msg)
		}
	} else {
		last := a.PathSpan.End
		a.SHASpan = Span{last, last}
	}
	return a, nil
}

func parseSHA(a *Anchor, v string) string {
	a.Scheme = 1
	if rest, ok := strings.CutPrefix(v, "v"); ok {
		num, hashes, ok := strings.Cut(rest, ":")
		n, err := strconv.Atoi(num)
		if !ok || err != nil || n < 1 || num != strconv.Itoa(n) {
			return "sha=" + v + " has a bad hash scheme marker — write " + grammarSymbol + " with sha=v<N>:<decl>[,<body>] (or let `clew-lsp confirm` write it)"
		}
		if a.Form != FormSymbol {
			return "sha=" + v + ": line and doc hashes carry no scheme marker — write " + grammarLines + " | " + grammarDoc
		}
		a.Scheme, v = n, hashes
	}
	parts := strings.Split(v, ",")
	switch {
	case a.Form == FormSymbol && len(parts) <= 2:
	case a.Form != FormSymbol && len(parts) == 1:
	default:
		return "sha= has too many hashes — a symbol anchor takes sha=<decl>[,<body>], lines and doc anchors take sha=<hash>"
	}
	for _, p := range parts {
		if !hash.IsHex12(p) {
			return "sha=" + v + " is not 12 lowercase hex digits per hash — run `clew-lsp confirm` to write it, or remove sha= to leave the anchor unpinned"
		}
	}
	a.DeclSHA = parts[0]
	if len(parts) == 2 {
		a.BodySHA = parts[1]
	}
	return ""
}

// CheckPath returns a message when p could escape the workspace or is not a
// repository-relative, slash-separated path; "" when it is fine.
func CheckPath(p string) string {
	switch {
	case p == "":
		return "empty path — give a repository-relative path"
	case strings.HasPrefix(p, "/") || (len(p) > 1 && p[1] == ':'):
		return "absolute path " + quote(p) + " — paths are repository-relative (drop the leading part)"
	case strings.ContainsRune(p, '\\'):
		return "path " + quote(p) + " uses backslashes — separate directories with /"
	case strings.ContainsRune(p, 0):
		return "path contains a NUL byte"
	}
	for _, seg := range strings.Split(p, "/") {
		if seg == ".." {
			return "path " + quote(p) + " escapes the workspace with .. — anchors can only name files inside it"
		}
	}
	return ""
}

func collapseSpaces(s string) string {
	return strings.Join(strings.Fields(s), " ")
}

func quote(s string) string {
	if len(s) > 80 {
		s = s[:80] + "…"
	}
	return strconv.Quote(s)
}

// assignPassages gives each anchor the span from the heading above it to the
// next heading of the same or higher level (the whole doc when none).
func assignPassages(anchors []Anchor, headings []heading, lastLine int) {
	for i := range anchors {
		a := &anchors[i]
		p := Passage{StartLine: 1, EndLine: lastLine}
		hi := -1
		for j, h := range headings {
			if h.line <= a.Line {
				hi = j
			}
		}
		if hi >= 0 {
			h := headings[hi]
			p = Passage{Heading: h.text, Level: h.level, StartLine: h.line, EndLine: lastLine}
			for _, next := range headings[hi+1:] {
				if next.level <= h.level {
					p.EndLine = next.line - 1
					break
				}
			}
		}
		a.Passage = p
	}
}
