package claims

import (
	"regexp"
	"regexp/syntax"
	"sort"
	"strings"
	"sync"
)

// This file ports picomatch 4's lib/parse.js for the options multivac uses
// (`dot: true`, POSIX paths), emitting the same JavaScript regex source with
// the `.`/`..`/empty-segment lookaheads left out (see Glob). Keeping the
// structure of the original makes its quirks reproducible and reviewable.

const (
	pmSlash = `\/`
	pmDot   = `\.`
	pmQmark = `[^/]`
	pmStar  = `[^/]*?`
	// picomatch: (?:(?!(?:^|\/)\.{1,2}(?:\/|$)).)*? — the only `.` its
	// output holds, spelled as JavaScript reads it (no line terminators).
	pmGlobstar = `(?:` + jsDot + `*?)`
	pmPlus     = `\+`
)

var pmPosix = map[string]string{
	"alnum": "a-zA-Z0-9", "alpha": "a-zA-Z", "ascii": `\x00-\x7F`, "blank": ` \t`,
	"cntrl": `\x00-\x1F\x7F`, "digit": "0-9", "graph": `\x21-\x7E`, "lower": "a-z",
	"print": `\x20-\x7E `, "punct": "\\-!\"#$%&'()\\*+,./:;<=>?@[\\]^_`{|}~",
	"space": ` \t\r\n\v\f`, "upper": "A-Z", "word": "A-Za-z0-9_", "xdigit": "A-Fa-f0-9",
}

var (
	pmNonSpecial  = sync.OnceValue(func() *regexp.Regexp { return regexp.MustCompile(`^[^@![\].,$*+?^{}()|\\/]+`) })
	pmSpecialChar = sync.OnceValue(func() *regexp.Regexp { return regexp.MustCompile(`[-*+?.^${}(|)[\]]`) })
)

func pmEscapeRegex(s string) string {
	return pmSpecialChar().ReplaceAllStringFunc(s, func(m string) string { return `\` + m })
}

type pmToken struct {
	typ       string
	value     string
	output    string
	hasOutput bool
	prev      *pmToken
	star      bool
	posix     bool
	extglob   bool
	// braces
	outputIndex, tokensIndex int
	comma, dots              bool
}

func (t *pmToken) out() string {
	if t.hasOutput {
		return t.output
	}
	return t.value
}

func (t *pmToken) setOutput(s string) { t.output, t.hasOutput = s, true }

type pmExtglob struct {
	typ        string
	open       string
	close      string
	inner      string
	parens     int
	conditions int
	prev       *pmToken
}

var pmExtglobChars = map[string][2]string{
	"!": {"negate", "(?:(?!(?:"},
	"?": {"qmark", "(?:"},
	"+": {"plus", "(?:"},
	"*": {"star", "(?:"},
	"@": {"at", "(?:"},
}

var pmExtglobClose = map[string]string{
	"negate": "))" + pmStar + ")", "qmark": ")?", "plus": ")+", "star": ")*", "at": ")",
}

var pmReplacements = map[string]string{"***": "*", "**/**": "**", "**/**/**": "**"}

// picomatchSource returns the regex source picomatch.makeRe would build
// (without its ^(?:…)$ wrapper), whether the glob is negated by a leading
// `!`, and a message when the pattern needs a construct RE2 lacks.
func picomatchSource(input string) (src string, negated bool, negations int, unsupported string) {
	if input[0] == '.' || input[0] == '*' {
		if out, ok := pmFastpaths(input); ok {
			return "^(?:" + out + ")$", false, 0, ""
		}
	}
	p := &pmParser{}
	out, negated := p.parse(input)
	if p.lookahead {
		return "", false, 0, "glob " + input + " holds a lookaround group (?=…)/(?!…) — write it without one; exclusions !<glob> say \"not\""
	}
	return "^(?:" + out + ")$", negated, p.negations, ""
}

func pmFastpaths(input string) (string, bool) {
	if r, ok := pmReplacements[input]; ok {
		input = r
	}
	input = strings.TrimPrefix(input, "./")
	var create func(string) (string, bool)
	create = func(s string) (string, bool) {
		switch s {
		case "*":
			return pmStar, true
		case ".*":
			return pmDot + pmStar, true
		case "*.*":
			return pmStar + pmDot + pmStar, true
		case "*/*":
			return pmStar + pmSlash + pmStar, true
		case "**":
			return pmGlobstar, true
		case "**/*":
			return "(?:" + pmGlobstar + pmSlash + ")?" + pmStar, true
		case "**/*.*":
			return "(?:" + pmGlobstar + pmSlash + ")?" + pmStar + pmDot + pmStar, true
		case "**/.*":
			return "(?:" + pmGlobstar + pmSlash + ")?" + pmDot + pmStar, true
		}
		m := pmFastExt().FindStringSubmatch(s)
		if m == nil {
			return "", false
		}
		src, ok := create(m[1])
		if !ok {
			return "", false
		}
		return src + pmDot + m[2], true
	}
	src, ok := create(input)
	if !ok {
		return "", false
	}
	return src + pmSlash + "?", true
}

// JavaScript's \w is ASCII-only, like RE2's.
var pmFastExt = sync.OnceValue(func() *regexp.Regexp { return regexp.MustCompile(`^(.*?)\.(\w+)$`) })

type pmParser struct {
	input     string
	index     int
	start     int
	output    strings.Builder
	tokens    []*pmToken
	prev      *pmToken
	backtrack bool
	negated   bool
	brackets  int
	braces    int
	parens    int
	quotes    int
	extglobs  []*pmExtglob
	braceToks []*pmToken
	stack     []string
	lookahead bool // a raw lookaround group written in the glob
	negations int  // negated extglobs !(…): lookahead, see negate.go
	noFast    bool // parse.js's fastpaths: false
}

func (p *pmParser) eos() bool { return p.index == len(p.input)-1 }

func (p *pmParser) peek(n int) string {
	i := p.index + n
	if i >= 0 && i < len(p.input) {
		return p.input[i : i+1]
	}
	return ""
}

func (p *pmParser) advance() string {
	p.index++
	if p.index < len(p.input) {
		return p.input[p.index : p.index+1]
	}
	return ""
}

func (p *pmParser) remaining() string {
	if p.index+1 >= len(p.input) {
		return ""
	}
	return p.input[p.index+1:]
}

func (p *pmParser) setOutput(s string) {
	p.output.Reset()
	p.output.WriteString(s)
}

// trimOutput drops the last n bytes of the output (JS: output.slice(0, -n)).
func (p *pmParser) trimOutput(n int) {
	s := p.output.String()
	if n > len(s) {
		n = len(s)
	}
	p.setOutput(s[:len(s)-n])
}

func (p *pmParser) increment(typ string) {
	p.adjust(typ, 1)
	p.stack = append(p.stack, typ)
}

func (p *pmParser) decrement(typ string) {
	p.adjust(typ, -1)
	if len(p.stack) > 0 {
		p.stack = p.stack[:len(p.stack)-1]
	}
}

func (p *pmParser) adjust(typ string, d int) {
	switch typ {
	case "parens":
		p.parens += d
	case "braces":
		p.braces += d
	case "brackets":
		p.brackets += d
	}
}

func (p *pmParser) appendTok(t *pmToken) {
	p.output.WriteString(t.out())
}

func (p *pmParser) push(tok *pmToken) {
	prev := p.prev
	if prev.typ == "globstar" {
		isBrace := p.braces > 0 && (tok.typ == "comma" || tok.typ == "brace")
		isExtglob := tok.extglob || (len(p.extglobs) > 0 && (tok.typ == "pipe" || tok.typ == "paren"))
		if tok.typ != "slash" && tok.typ != "paren" && !isBrace && !isExtglob {
			p.trimOutput(len(prev.out()))
			prev.typ = "star"
			prev.value = "*"
			prev.setOutput(pmStar)
			p.output.WriteString(prev.output)
		}
	}
	if len(p.extglobs) > 0 && tok.typ != "paren" {
		p.extglobs[len(p.extglobs)-1].inner += tok.value
	}
	if tok.value != "" || tok.output != "" {
		p.appendTok(tok)
	}
	if prev.typ == "text" && tok.typ == "text" {
		base := prev.output
		if base == "" {
			base = prev.value
		}
		prev.setOutput(base + tok.value)
		prev.value += tok.value
		return
	}
	tok.prev = prev
	p.tokens = append(p.tokens, tok)
	p.prev = tok
}

func (p *pmParser) extglobOpen(typ, value string) {
	spec := pmExtglobChars[value]
	tok := &pmExtglob{typ: spec[0], open: spec[1], close: pmExtglobClose[spec[0]], conditions: 1, prev: p.prev, parens: p.parens}
	p.increment("parens")
	p.push(&pmToken{typ: typ, value: value, hasOutput: true})
	p.push(&pmToken{typ: "paren", extglob: true, value: p.advance(), output: tok.open, hasOutput: true})
	p.extglobs = append(p.extglobs, tok)
}

func (p *pmParser) extglobClose(tok *pmExtglob) {
	output := tok.close
	if tok.typ == "negate" {
		p.negations++
		extglobStar := pmStar
		if len(tok.inner) > 1 && strings.Contains(tok.inner, "/") {
			extglobStar = pmGlobstar
		}
		if extglobStar != pmStar || p.eos() || pmOnlyParens().MatchString(p.remaining()) {
			output = ")$))" + extglobStar
			tok.close = output
		}
		if rest := p.remaining(); strings.Contains(tok.inner, "*") && pmDotExt().MatchString(rest) {
			// `!(*.d).ts`: the lookahead sees the extension that follows.
			sub := &pmParser{noFast: true}
			expr, _ := sub.parse(rest)
			if sub.negations > 0 || sub.lookahead {
				p.lookahead = true
			}
			output = ")" + expr + ")" + extglobStar + ")"
			tok.close = output
		}
	}
	p.push(&pmToken{typ: "paren", extglob: true, value: ")", output: output, hasOutput: true})
	p.decrement("parens")
}

var (
	pmOnlyParens = sync.OnceValue(func() *regexp.Regexp { return regexp.MustCompile(`^\)+$`) })
	pmDotExt     = sync.OnceValue(func() *regexp.Regexp { return regexp.MustCompile(`^\.[^\\/.]+$`) })
)

func (p *pmParser) parse(input string) (string, bool) {
	if r, ok := pmReplacements[input]; ok {
		input = r
	}
	bos := &pmToken{typ: "bos", hasOutput: true}
	p.tokens = []*pmToken{bos}
	p.prev = bos
	if strings.HasPrefix(input, "./") {
		input = input[2:]
	}
	p.input = input
	p.index = -1

	if !p.noFast && !pmNotFast().MatchString(input) {
		return p.fastParse(input), false
	}

	for !p.eos() {
		value := p.advance()
		if value == "\x00" {
			continue
		}
		if value == `\` {
			next := p.peek(1)
			if next == "/" || next == "." || next == ";" {
				continue
			}
			if next == "" {
				value += `\`
				p.push(&pmToken{typ: "text", value: value})
				continue
			}
			if m := pmBackslashes().FindString(p.remaining()); len(m) > 2 {
				p.index += len(m)
				if len(m)%2 != 0 {
					value += `\`
				}
			}
			if next := p.advance(); next != "" {
				value = value[:len(value)-1] + pmJSEscape(next[0])
			}
			if p.brackets == 0 {
				p.push(&pmToken{typ: "text", value: value})
				continue
			}
		}

		if p.brackets > 0 && (value != "]" || p.prev.value == "[" || p.prev.value == "[^") {
			if value == ":" {
				inner := p.prev.value[min(1, len(p.prev.value)):]
				if strings.Contains(inner, "[") {
					p.prev.posix = true
					if strings.Contains(inner, ":") {
						idx := strings.LastIndex(p.prev.value, "[")
						pre := p.prev.value[:idx]
						rest := p.prev.value[min(idx+2, len(p.prev.value)):]
						if posix, ok := pmPosix[rest]; ok {
							p.prev.value = pre + posix
							p.backtrack = true
							p.advance()
							continue
						}
					}
				}
			}
			if (value == "[" && p.peek(1) != ":") || (value == "-" && p.peek(1) == "]") {
				value = `\` + value
			}
			if value == "]" && (p.prev.value == "[" || p.prev.value == "[^") {
				value = `\` + value
			}
			p.prev.value += value
			p.output.WriteString(value)
			continue
		}

		if p.quotes == 1 && value != `"` {
			value = pmEscapeRegex(value)
			p.prev.value += value
			p.output.WriteString(value)
			continue
		}

		switch value {
		case `"`:
			p.quotes = 1 - p.quotes
			continue
		case "(":
			p.increment("parens")
			p.push(&pmToken{typ: "paren", value: value})
			continue
		case ")":
			if n := len(p.extglobs); n > 0 && p.parens == p.extglobs[n-1].parens+1 {
				eg := p.extglobs[n-1]
				p.extglobs = p.extglobs[:n-1]
				p.extglobClose(eg)
				continue
			}
			out := `\)`
			if p.parens > 0 {
				out = ")"
			}
			p.push(&pmToken{typ: "paren", value: value, output: out, hasOutput: true})
			p.decrement("parens")
			continue
		case "[":
			if !strings.Contains(p.remaining(), "]") {
				value = `\` + value
			} else {
				p.increment("brackets")
			}
			p.push(&pmToken{typ: "bracket", value: value})
			continue
		case "]":
			if p.prev.typ == "bracket" && len(p.prev.value) == 1 {
				p.push(&pmToken{typ: "text", value: value, output: `\` + value, hasOutput: true})
				continue
			}
			if p.brackets == 0 {
				p.push(&pmToken{typ: "text", value: value, output: `\` + value, hasOutput: true})
				continue
			}
			p.decrement("brackets")
			prevValue := p.prev.value[1:]
			if !p.prev.posix && strings.HasPrefix(prevValue, "^") && !strings.Contains(prevValue, "/") {
				value = "/" + value
			}
			p.prev.value += value
			p.output.WriteString(value)
			if pmSpecialChar().MatchString(prevValue) {
				continue
			}
			escaped := pmEscapeRegex(p.prev.value)
			p.trimOutput(len(p.prev.value))
			p.prev.value = "(?:" + escaped + "|" + p.prev.value + ")"
			p.output.WriteString(p.prev.value)
			continue
		case "{":
			p.increment("braces")
			open := &pmToken{typ: "brace", value: value, output: "(", hasOutput: true, outputIndex: p.output.Len(), tokensIndex: len(p.tokens)}
			p.braceToks = append(p.braceToks, open)
			p.push(open)
			continue
		case "}":
			if len(p.braceToks) == 0 {
				p.push(&pmToken{typ: "text", value: value, output: value, hasOutput: true})
				continue
			}
			brace := p.braceToks[len(p.braceToks)-1]
			output := ")"
			if brace.dots {
				var rng []string
				for i := len(p.tokens) - 1; i >= 0; i-- {
					t := p.tokens[i]
					p.tokens = p.tokens[:i]
					if t.typ == "brace" {
						break
					}
					if t.typ != "dots" {
						rng = append([]string{t.value}, rng...)
					}
				}
				output = pmExpandRange(rng)
				p.backtrack = true
			}
			if !brace.comma && !brace.dots {
				out := p.output.String()[:brace.outputIndex]
				toks := p.tokens[min(brace.tokensIndex, len(p.tokens)):]
				brace.value, brace.output = `\{`, `\{`
				value, output = `\}`, `\}`
				p.setOutput(out)
				for _, t := range toks {
					if t.output != "" {
						p.output.WriteString(t.output)
					} else {
						p.output.WriteString(t.value)
					}
				}
			}
			p.push(&pmToken{typ: "brace", value: value, output: output, hasOutput: true})
			p.decrement("braces")
			p.braceToks = p.braceToks[:len(p.braceToks)-1]
			continue
		case "|":
			if n := len(p.extglobs); n > 0 {
				p.extglobs[n-1].conditions++
			}
			p.push(&pmToken{typ: "text", value: value})
			continue
		case ",":
			output := value
			if n := len(p.braceToks); n > 0 && len(p.stack) > 0 && p.stack[len(p.stack)-1] == "braces" {
				p.braceToks[n-1].comma = true
				output = "|"
			}
			p.push(&pmToken{typ: "comma", value: value, output: output, hasOutput: true})
			continue
		case "/":
			if p.prev.typ == "dot" && p.index == p.start+1 {
				p.start = p.index + 1
				p.setOutput("")
				p.tokens = p.tokens[:len(p.tokens)-1]
				p.prev = bos
				continue
			}
			p.push(&pmToken{typ: "slash", value: value, output: pmSlash, hasOutput: true})
			continue
		case ".":
			if p.braces > 0 && p.prev.typ == "dot" {
				if p.prev.value == "." {
					p.prev.setOutput(pmDot)
				}
				brace := p.braceToks[len(p.braceToks)-1]
				p.prev.typ = "dots"
				p.prev.setOutput(p.prev.out() + value)
				p.prev.value += value
				brace.dots = true
				continue
			}
			if p.braces+p.parens == 0 && p.prev.typ != "bos" && p.prev.typ != "slash" {
				p.push(&pmToken{typ: "text", value: value, output: pmDot, hasOutput: true})
				continue
			}
			p.push(&pmToken{typ: "dot", value: value, output: pmDot, hasOutput: true})
			continue
		case "?":
			isGroup := p.prev.value == "("
			if !isGroup && p.peek(1) == "(" && p.peek(2) != "?" {
				p.extglobOpen("qmark", value)
				continue
			}
			if p.prev.typ == "paren" {
				next := p.peek(1)
				output := value
				if (p.prev.value == "(" && !strings.ContainsAny(next, "!=<:")) || next == "<" && !pmNamedGroup().MatchString(p.remaining()) {
					output = `\` + value
				}
				if p.prev.value == "(" && (next == "!" || next == "=" || next == "<" && (p.peek(2) == "!" || p.peek(2) == "=")) {
					p.lookahead = true // a raw lookaround group written in the glob
				}
				p.push(&pmToken{typ: "text", value: value, output: output, hasOutput: true})
				continue
			}
			p.push(&pmToken{typ: "qmark", value: value, output: pmQmark, hasOutput: true})
			continue
		case "!":
			if p.peek(1) == "(" {
				if p.peek(2) != "?" || !strings.ContainsAny(p.peek(3), "!=<:") || p.peek(3) == "" {
					p.extglobOpen("negate", value)
					continue
				}
			}
			if p.index == 0 {
				p.negate()
				continue
			}
		case "+":
			if p.peek(1) == "(" && p.peek(2) != "?" {
				p.extglobOpen("plus", value)
				continue
			}
			if p.prev.value == "(" {
				p.push(&pmToken{typ: "plus", value: value, output: pmPlus, hasOutput: true})
				continue
			}
			if p.prev.typ == "bracket" || p.prev.typ == "paren" || p.prev.typ == "brace" || p.parens > 0 {
				p.push(&pmToken{typ: "plus", value: value})
				continue
			}
			p.push(&pmToken{typ: "plus", value: pmPlus})
			continue
		case "@":
			if p.peek(1) == "(" && p.peek(2) != "?" {
				p.push(&pmToken{typ: "at", extglob: true, value: value, hasOutput: true})
				continue
			}
			p.push(&pmToken{typ: "text", value: value})
			continue
		}

		if value != "*" {
			if value == "$" || value == "^" {
				value = `\` + value
			}
			if m := pmNonSpecial().FindString(p.remaining()); m != "" {
				value += m
				p.index += len(m)
			}
			p.push(&pmToken{typ: "text", value: value})
			continue
		}

		// Stars.
		prev := p.prev
		if prev.typ == "globstar" || prev.star {
			prev.typ = "star"
			prev.star = true
			prev.value += value
			prev.setOutput(pmStar)
			p.backtrack = true
			continue
		}
		rest := p.remaining()
		if len(rest) >= 2 && rest[0] == '(' && rest[1] != '?' {
			p.extglobOpen("star", value)
			continue
		}
		if prev.typ == "star" {
			prior := prev.prev
			before := prior.prev
			isStart := prior.typ == "slash" || prior.typ == "bos"
			afterStar := before != nil && (before.typ == "star" || before.typ == "globstar")
			isBrace := p.braces > 0 && (prior.typ == "comma" || prior.typ == "brace")
			isExtglob := len(p.extglobs) > 0 && (prior.typ == "pipe" || prior.typ == "paren")
			if !isStart && prior.typ != "paren" && !isBrace && !isExtglob {
				p.push(&pmToken{typ: "star", value: value, hasOutput: true})
				continue
			}
			for strings.HasPrefix(rest, "/**") {
				if after := p.index + 4; after < len(p.input) && p.input[after] != '/' {
					break
				}
				rest = rest[3:]
				p.index += 3
			}
			priorPrevBos := prior.prev != nil && prior.prev.typ == "bos"
			switch {
			case prior.typ == "bos" && p.eos():
				prev.typ = "globstar"
				prev.value += value
				prev.setOutput(pmGlobstar)
				p.setOutput(prev.output)
				continue
			case prior.typ == "slash" && !priorPrevBos && !afterStar && p.eos():
				p.trimOutput(len(prior.out()) + len(prev.out()))
				prior.setOutput("(?:" + prior.out())
				prev.typ = "globstar"
				prev.setOutput(pmGlobstar + "|$)")
				prev.value += value
				p.output.WriteString(prior.output + prev.output)
				continue
			case prior.typ == "slash" && !priorPrevBos && strings.HasPrefix(rest, "/"):
				end := ""
				if len(rest) > 1 {
					end = "|$"
				}
				p.trimOutput(len(prior.out()) + len(prev.out()))
				prior.setOutput("(?:" + prior.out())
				prev.typ = "globstar"
				prev.setOutput(pmGlobstar + pmSlash + "|" + pmSlash + end + ")")
				prev.value += value
				p.output.WriteString(prior.output + prev.output)
				p.advance()
				p.push(&pmToken{typ: "slash", value: "/", hasOutput: true})
				continue
			case prior.typ == "bos" && strings.HasPrefix(rest, "/"):
				prev.typ = "globstar"
				prev.value += value
				prev.setOutput("(?:^|" + pmSlash + "|" + pmGlobstar + pmSlash + ")")
				p.setOutput(prev.output)
				p.advance()
				p.push(&pmToken{typ: "slash", value: "/", hasOutput: true})
				continue
			}
			p.trimOutput(len(prev.out()))
			prev.typ = "globstar"
			prev.setOutput(pmGlobstar)
			prev.value += value
			p.output.WriteString(prev.output)
			continue
		}
		p.push(&pmToken{typ: "star", value: value, output: pmStar, hasOutput: true})
	}

	for p.brackets > 0 {
		p.setOutput(pmEscapeLast(p.output.String(), '[', -1))
		p.decrement("brackets")
	}
	for p.parens > 0 {
		p.setOutput(pmEscapeLast(p.output.String(), '(', -1))
		p.decrement("parens")
	}
	for p.braces > 0 {
		p.setOutput(pmEscapeLast(p.output.String(), '{', -1))
		p.decrement("braces")
	}
	if p.prev.typ == "star" || p.prev.typ == "bracket" {
		p.push(&pmToken{typ: "maybe_slash", output: pmSlash + "?", hasOutput: true})
	}
	if p.backtrack {
		var b strings.Builder
		for _, t := range p.tokens {
			b.WriteString(t.out())
		}
		return b.String(), p.negated
	}
	return p.output.String(), p.negated
}

var (
	pmNotFast     = sync.OnceValue(func() *regexp.Regexp { return regexp.MustCompile(`(^[*!]|[/()[\]{}"])`) })
	pmBackslashes = sync.OnceValue(func() *regexp.Regexp { return regexp.MustCompile(`^\\+`) })
	pmNamedGroup  = sync.OnceValue(func() *regexp.Regexp { return regexp.MustCompile(`<([!=]|\w+>)`) })
)

func (p *pmParser) negate() {
	count := 1
	for p.peek(1) == "!" && (p.peek(2) != "(" || p.peek(3) == "?") {
		p.advance()
		p.start++
		count++
	}
	if count%2 == 0 {
		return
	}
	p.negated = true
	p.start++
}

// fastParse is parse.js's shortcut for patterns without slashes, groups,
// classes or braces: every non-word character is literal except ? * and .
func (p *pmParser) fastParse(input string) string {
	var b strings.Builder
	for i := 0; i < len(input); {
		c := input[i]
		switch {
		case c == '\\':
			// Backslash runs: an even run is one literal backslash pair, an odd
			// run escapes the next character.
			j := i
			for j < len(input) && input[j] == '\\' {
				j++
			}
			if (j-i)%2 == 0 {
				b.WriteString(`\\`)
				i = j
				continue
			}
			// An odd run escapes the next character, with JavaScript's reading.
			if j < len(input) {
				b.WriteString(pmJSEscape(input[j]))
				i = j + 1
			} else {
				i = j
			}
		case c == '?':
			b.WriteString(pmQmark)
			i++
		case c == '.':
			b.WriteString(pmDot)
			i++
		case c == '*':
			b.WriteString(pmStar)
			for i < len(input) && input[i] == '*' {
				i++
			}
		case isWordByte(c) || c >= 0x80:
			b.WriteByte(c)
			i++
		default:
			b.WriteString(regexp.QuoteMeta(string(c)))
			i++
		}
	}
	return "^(?:" + b.String() + ")$"
}

func isWordByte(c byte) bool { return isLetterByte(c) || isDigitByte(c) || c == '_' }

// pmEscapeLast backslash-escapes the last unescaped occurrence of ch.
func pmEscapeLast(s string, ch byte, last int) string {
	if last < 0 || last >= len(s) {
		last = len(s) - 1
	}
	idx := strings.LastIndexByte(s[:last+1], ch)
	if idx < 0 {
		return s
	}
	if idx > 0 && s[idx-1] == '\\' {
		return pmEscapeLast(s, ch, idx-1)
	}
	return s[:idx] + `\` + s[idx:]
}

// pmExpandRange turns {a..b} into a class as picomatch does: sorted, joined
// by "-"; when that is no valid class, the escaped bounds joined by "..".
func pmExpandRange(args []string) string {
	sorted := append([]string(nil), args...)
	sort.Strings(sorted)
	value := "[" + strings.Join(sorted, "-") + "]"
	if _, err := syntax.Parse(value, syntax.Perl); err != nil {
		esc := make([]string, len(sorted))
		for i, a := range sorted {
			esc[i] = pmEscapeRegex(a)
		}
		return strings.Join(esc, "..")
	}
	return value
}

// pmJSEscape renders a JavaScript escape `\c` as RE2 text with the same
// meaning: the shorthands both engines share stay escapes, any other letter
// or digit is JavaScript's identity escape, punctuation stays escaped.
func pmJSEscape(c byte) string {
	switch {
	case strings.IndexByte("bBdDwWsStnrfv", c) >= 0:
		return `\` + string(c)
	case isLetterByte(c) || isDigitByte(c) || c >= 0x80:
		return string(c)
	}
	return regexp.QuoteMeta(string(c))
}
