package claims

import (
	"bytes"
	"fmt"
	"regexp"
	"regexp/syntax"
	"strconv"
	"strings"
	"sync"
	"unicode/utf8"
)

// The regex dialect is POSIX ERE with [[:class:]] (docs/claims.md). Go's RE2
// accepts \s, \d, lazy quantifiers, (?…) and more, so the gate is our own
// left-to-right pre-pass; it also rewrites the source into RE2 syntax with
// JavaScript's reading where the two engines differ (`.`, identity escapes).

// jsDot is JavaScript's `.`: anything but a line terminator. RE2's `.` would
// match a lone \r, which JS (and so multivac) never does.
const jsDot = `[^\n\r\x{2028}\x{2029}]`

// posixClasses are the ASCII bodies multivac substitutes for [:name:].
var posixClasses = map[string]string{
	"space":  ` \t\r\n\v\f`,
	"blank":  ` \t`,
	"digit":  `0-9`,
	"alpha":  `a-zA-Z`,
	"alnum":  `a-zA-Z0-9`,
	"upper":  `A-Z`,
	"lower":  `a-z`,
	"xdigit": `0-9a-fA-F`,
	"punct":  "!-/:-@\\[-`{-~",
}

const classList = "[:space:] [:blank:] [:digit:] [:alpha:] [:alnum:] [:upper:] [:lower:] [:xdigit:] [:punct:]"

// shorthandHint maps the refused PCRE shorthands to their ERE spelling.
var shorthandHint = map[byte]string{
	's': "use [[:space:]]",
	'S': "use [^[:space:]]",
	'd': "use [[:digit:]]",
	'D': "use [^[:digit:]]",
	'w': "use [[:alnum:]_]",
	'W': "use [^[:alnum:]_]",
	'b': "use (^|[^[:alnum:]_])...([^[:alnum:]_]|$)",
	'B': "no equivalent, restructure the pattern",
}

// Regex is a leg's compiled pattern.
type Regex struct {
	Source string       // as written between the slashes
	Flags  string       // "" or "i"
	prog   *lazyProgram // compiled on the first unit a prefilter lets through
	lits   litSet       // what every match contains
	fold   bool         // lits are lower-cased and compared case-insensitively
	pure   string       // the regex is this ASCII literal and nothing else: containing it is matching
}

// MatchString reports whether the unit matches, read as JavaScript reads
// it (UTF-16: see jsfold.go).
func (r *Regex) MatchString(s string) bool {
	if hasAstral(nil, s) {
		s = utf16View(nil, s)
	}
	return r.prog.get().MatchString(s)
}

// GoSyntax is the RE2 pattern the source was translated to.
func (r *Regex) GoSyntax() string { return r.prog.src }

// CompileERE gates and compiles a leg's regex. msg is the dialect or compile
// error (empty when the regex is usable); warnings are our stricter notes
// (docs/claims.md) that never block.
func CompileERE(source, flags string) (re *Regex, warnings []string, msg string) {
	key := flags + "/" + source
	if c, ok := ereCache.get(key); ok {
		return c.re, c.warnings, c.msg
	}
	re, warnings, msg = compileERE(source, flags)
	ereCache.put(key, ereResult{re, warnings, msg})
	return re, warnings, msg
}

func compileERE(source, flags string) (re *Regex, warnings []string, msg string) {
	if flags != "" && flags != "i" {
		return nil, nil, fmt.Sprintf("unsupported regex flags %q — only \"i\" is allowed, drop the rest", flags)
	}
	if lit, ok := plainLiteral(source); ok && flags == "" {
		return compilePlain(source, lit), nil, ""
	}
	return compileFull(source, flags)
}

// compileFull translates the source, validates it with RE2's parse and
// derives its prefilters from the parsed tree.
func compileFull(source, flags string) (re *Regex, warnings []string, msg string) {
	goSrc, warnings, msg := translateERE(source, false)
	if msg != "" {
		return nil, nil, msg
	}
	// The literals come from RE2's own (?i) reading, whose ASCII folding is
	// JavaScript's; the regex that decides folds as JavaScript does.
	litSrc, reSrc := goSrc, goSrc
	if flags == "i" {
		litSrc = "(?i)" + goSrc
		reSrc, _, _ = translateERE(source, true)
	}
	// Validated now (the parse is where RE2 reports every error; its
	// compile step never fails), compiled when first needed: a law's
	// every leg is read on each start of the CLI, and most legs are pure
	// literals or never woken by their prefilter.
	parsedRe, err := syntax.Parse(reSrc, syntax.Perl)
	if err != nil {
		return nil, nil, invalidRegex(source, flags, engineMessage(err))
	}
	r := &Regex{Source: source, Flags: flags, prog: &lazyProgram{src: reSrc}}
	// One parse serves both prefilters (without a flag litSrc is reSrc).
	parsed := parsedRe
	if litSrc != reSrc {
		parsed, err = syntax.Parse(litSrc, syntax.Perl)
	}
	if err == nil {
		parsed = parsed.Simplify()
		r.lits, r.fold = literalsOf(parsed)
		if flags == "" {
			r.pure = pureOf(parsed)
		}
	}
	return r, warnings, ""
}

func invalidRegex(source, flags, why string) string {
	return fmt.Sprintf("invalid regex /%s/%s: %s — fix the pattern in the anchor line", source, flags, why)
}

// engineMessage drops RE2's "error parsing regexp: " prefix, which would
// otherwise repeat what the sentence around it already says.
func engineMessage(err error) string {
	return strings.TrimPrefix(err.Error(), "error parsing regexp: ")
}

func notERE(esc string, hint string) string {
	return esc + " is not POSIX ERE — " + hint
}

// translateERE walks the source once, refusing what POSIX ERE lacks and
// emitting RE2 syntax. It returns the first refusal only.
func translateERE(src string, fold bool) (string, []string, string) {
	var out bytes.Buffer
	var warnings []string
	quantBefore := false // the previous token was an unescaped * + ? or }
	atom := -1           // where the last quantifiable atom starts in out, -1 for none
	var groups []int     // where each open group starts in out
	for i := 0; i < len(src); {
		c := src[i]
		switch {
		case c == '\\':
			if i+1 >= len(src) {
				return "", nil, invalidRegex(src, "", `\ at end of pattern`)
			}
			r, size := utf8.DecodeRuneInString(src[i+1:])
			esc := `\` + string(r)
			switch {
			case r < utf8.RuneSelf && shorthandHint[byte(r)] != "":
				return "", nil, notERE(esc, shorthandHint[byte(r)])
			case r == '0':
				return "", nil, esc + " means nothing in POSIX ERE — write the character, or use a bracket expression"
			case r >= '1' && r <= '9':
				return "", nil, esc + " is a backreference — POSIX ERE has none; write the text out, or match it in two legs"
			case isASCIILetter(r):
				return "", nil, esc + " has no meaning in POSIX ERE — escape punctuation only, or use a bracket expression"
			}
			// Escaped punctuation (or any other character) is that literal character.
			atom = out.Len()
			if r > 0xFFFF { // a quantifier after it repeats its low surrogate, as in JavaScript
				hi, _ := surrogates(r)
				atom += utf8.RuneLen(hi)
			}
			out.WriteString(literalRune(r, fold))
			i += 1 + size
			quantBefore = false
		case c == '[':
			if i+1 < len(src) && src[i+1] == ':' {
				name := "digit"
				if end := strings.Index(src[i+2:], ":]"); end >= 0 && end < 16 {
					name = src[i+2 : i+2+end]
				}
				return "", nil, fmt.Sprintf("character class syntax is [[:%s:]], not [:%s:] — the class needs its own brackets inside the bracket expression", name, name)
			}
			class, next, warn, msg := translateBracket(src, i)
			if msg != "" {
				return "", nil, msg
			}
			if fold {
				class = foldClass(class)
			}
			warnings = append(warnings, warn...)
			atom = out.Len()
			out.WriteString(class)
			i = next
			quantBefore = false
		case c == '(':
			if i+1 < len(src) && src[i+1] == '?' {
				return "", nil, "POSIX ERE has no `(?…)` — no lookaround, no non-capturing groups; use a plain group"
			}
			groups = append(groups, out.Len())
			atom = -1
			out.WriteByte(c)
			i++
			quantBefore = false
		case c == ')':
			atom = -1
			if len(groups) > 0 {
				atom, groups = groups[len(groups)-1], groups[:len(groups)-1]
			}
			out.WriteByte(c)
			i++
			quantBefore = false
		case c == '?' && quantBefore:
			return "", nil, "POSIX ERE quantifiers are greedy — `" + lastQuantifier(src[:i]) + "?` is not lazy here; restructure the pattern"
		case c == '.':
			atom = out.Len()
			out.WriteString(jsDot)
			i++
			quantBefore = false
		case c == '{' && atom >= 0:
			if lo, hi, end, ok := bigRepeat(src, i); ok {
				// JavaScript repeats any count; RE2 stops at 1000, so a
				// larger count becomes a sequence of repeats of at most 1000.
				a := string(out.Bytes()[atom:])
				out.Truncate(atom)
				out.WriteString(splitRepeat(a, lo, hi))
				i, atom, quantBefore = end, -1, true
				continue
			}
			fallthrough
		default:
			quantBefore = c == '*' || c == '+' || c == '?' || c == '}'
			switch c {
			case '*', '+', '?', '|', '^', '$', '}':
				atom = -1
				out.WriteByte(c)
				i++
				continue
			}
			r, size := utf8.DecodeRuneInString(src[i:])
			atom = out.Len()
			switch {
			case r > 0xFFFF:
				hi, _ := surrogates(r)
				atom += utf8.RuneLen(hi)
				out.WriteString(literalRune(r, fold))
			case fold && len(foldClassOf(r)) > 1:
				out.WriteString(literalRune(r, fold))
			default:
				out.WriteString(src[i : i+size])
			}
			i += size
		}
	}
	return out.String(), warnings, ""
}

// maxRepeat is RE2's largest repeat count.
const maxRepeat = 1000

// bigRepeat reads a `{m}`, `{m,}` or `{m,n}` at src[i] whose counts pass
// RE2's limit (hi < 0: unbounded). Counts past a million stay as written,
// for RE2 to refuse: their expansion would not be a usable program.
func bigRepeat(src string, i int) (lo, hi, end int, ok bool) {
	m := repeatRe().FindStringSubmatch(src[i:])
	if m == nil {
		return 0, 0, 0, false
	}
	lo, err := strconv.Atoi(m[1])
	if err != nil || lo > 1_000_000 {
		return 0, 0, 0, false
	}
	hi = lo
	if m[2] != "" {
		hi = -1
		if m[3] != "" {
			if hi, err = strconv.Atoi(m[3]); err != nil || hi > 1_000_000 || hi < lo {
				return 0, 0, 0, false
			}
		}
	}
	if lo <= maxRepeat && hi <= maxRepeat {
		return 0, 0, 0, false
	}
	return lo, hi, i + len(m[0]), true
}

var repeatRe = sync.OnceValue(func() *regexp.Regexp { return regexp.MustCompile(`^\{([0-9]+)(,([0-9]*))?\}`) })

// splitRepeat spells atom{lo,hi} as repeats of at most maxRepeat each.
func splitRepeat(atom string, lo, hi int) string {
	var b strings.Builder
	g := "(?:" + atom + ")"
	for n := lo; n > 0; n -= maxRepeat {
		fmt.Fprintf(&b, "%s{%d}", g, min(n, maxRepeat))
	}
	if hi < 0 {
		b.WriteString(g + "*")
		return b.String()
	}
	for n := hi - lo; n > 0; n -= maxRepeat {
		fmt.Fprintf(&b, "%s{0,%d}", g, min(n, maxRepeat))
	}
	return b.String()
}

// lastQuantifier is the quantifier that ends src: `*`, `+`, `?` or `{m,n}`.
func lastQuantifier(src string) string {
	if strings.HasSuffix(src, "}") {
		if j := strings.LastIndexByte(src, '{'); j >= 0 {
			return src[j:]
		}
	}
	return src[len(src)-1:]
}

func isASCIILetter(r rune) bool { return r >= 'a' && r <= 'z' || r >= 'A' && r <= 'Z' }

// translateBracket reads the bracket expression that opens at src[open] and
// returns it in RE2 syntax and the index after its closing `]`. A `]` right
// after `[` or `[^` is a member (POSIX). Escapes inside keep JavaScript's
// meaning, as in multivac, and earn a warning (docs/claims.md).
func translateBracket(src string, open int) (string, int, []string, string) {
	var body strings.Builder
	var warnings []string
	j := open + 1
	neg := false
	if j < len(src) && src[j] == '^' {
		neg = true
		j++
	}
	if j < len(src) && src[j] == ']' {
		body.WriteString(`\]`)
		j++
	}
	for {
		if j >= len(src) {
			return "", 0, nil, invalidRegex(src, "", "missing closing ] — unterminated bracket expression")
		}
		c := src[j]
		switch {
		case c == ']':
			cls := "["
			if neg {
				cls += "^"
			}
			return cls + body.String() + "]", j + 1, warnings, ""
		case c == '[' && j+1 < len(src) && src[j+1] == ':':
			end := strings.Index(src[j+2:], ":]")
			if end < 0 {
				// Unterminated [: — a literal bracket, as the JS compiler reads it.
				body.WriteString(`\[`)
				j++
				continue
			}
			name := src[j+2 : j+2+end]
			ranges, ok := posixClasses[name]
			if !ok {
				return "", 0, nil, fmt.Sprintf("unknown POSIX class [:%s:] — use one of %s", name, classList)
			}
			body.WriteString(ranges)
			j += 2 + end + 2
		case c == '\\' && j+1 < len(src):
			r, size := utf8.DecodeRuneInString(src[j+1:])
			if isASCIILetter(r) {
				warnings = append(warnings, fmt.Sprintf(`\%c inside a bracket expression — engines disagree on it (GNU grep reads a backslash and %q); spell the class out, e.g. [[:space:]]`, r, r))
			}
			body.WriteString(bracketEscape(src[j+1:], r, size))
			j += 1 + size
			if r == 'x' && j+2 <= len(src) && isHex(src[j]) && isHex(src[j+1]) {
				j += 2
			}
		case c == '[' || c == '\\':
			body.WriteByte('\\')
			body.WriteByte(c)
			j++
		case c >= 0xF0: // past U+FFFF: its two surrogates are two members, as in JavaScript
			r, size := utf8.DecodeRuneInString(src[j:])
			if r > 0xFFFF {
				hi, lo := surrogates(r)
				body.WriteRune(hi)
				body.WriteRune(lo)
			} else {
				body.WriteString(src[j : j+size])
			}
			j += size
		default:
			body.WriteByte(c)
			j++
		}
	}
}

// bracketEscape gives RE2 text for a JS escape inside a class.
func bracketEscape(rest string, r rune, size int) string {
	switch r {
	case 's', 'S', 'd', 'D', 'w', 'W', 't', 'n', 'r', 'v', 'f':
		return `\` + string(r)
	case 'b':
		return `\x08`
	case 'x':
		if len(rest) >= 3 && isHex(rest[1]) && isHex(rest[2]) {
			return `\x` + rest[1:3]
		}
	case '-':
		// JavaScript reads `\-` as a literal hyphen, never a range, and
		// QuoteMeta leaves `-` bare.
		return `\-`
	}
	return regexp.QuoteMeta(string(r))
}

func isHex(c byte) bool {
	return c >= '0' && c <= '9' || c >= 'a' && c <= 'f' || c >= 'A' && c <= 'F'
}

// ereCache keeps compiled legs across runs: the server re-reads the law on
// every keystroke, and most of its regexes did not change. A compiled
// Regex is immutable and safe for concurrent use.
var ereCache = &compileCache{m: map[string]ereResult{}}

type ereResult struct {
	re       *Regex
	warnings []string
	msg      string
}

type compileCache struct {
	mu sync.Mutex
	m  map[string]ereResult
}

const ereCacheMax = 8192

func (c *compileCache) get(k string) (ereResult, bool) {
	c.mu.Lock()
	defer c.mu.Unlock()
	r, ok := c.m[k]
	return r, ok
}

// reserve makes room for n more entries at once when the cache is empty
// (a law's parse knows how many legs it holds): one map of that size, not
// a doubling per few hundred regexes.
func (c *compileCache) reserve(n int) {
	c.mu.Lock()
	defer c.mu.Unlock()
	if len(c.m) == 0 && n > 0 {
		c.m = make(map[string]ereResult, min(n, ereCacheMax))
	}
}

func (c *compileCache) put(k string, r ereResult) {
	c.mu.Lock()
	defer c.mu.Unlock()
	if len(c.m) >= ereCacheMax { // crude bound: start over rather than grow
		c.m = map[string]ereResult{}
	}
	c.m[k] = r
}
