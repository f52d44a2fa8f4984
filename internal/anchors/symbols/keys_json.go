package symbols

import (
	"strconv"
	"strings"
	"unicode/utf8"
)

// jsonKeys lists the keys and array items of a JSON document by path. It
// reads JSON with comments and trailing commas too (tsconfig.json,
// .jsonc), and stops quietly where the text stops being JSON: what parsed
// still resolves.
func jsonKeys(src []byte) []keyEntry {
	p := jsonParser{src: src}
	p.skip()
	p.value(nil, 0)
	return p.out
}

type jsonParser struct {
	src    []byte
	i      int
	out    []keyEntry
	broken bool
}

// skip passes white space and comments.
func (p *jsonParser) skip() {
	for p.i < len(p.src) {
		c := p.src[p.i]
		switch {
		case c == ' ' || c == '\t' || c == '\n' || c == '\r':
			p.i++
		case c == '/' && p.i+1 < len(p.src) && p.src[p.i+1] == '/':
			for p.i < len(p.src) && p.src[p.i] != '\n' {
				p.i++
			}
		case c == '/' && p.i+1 < len(p.src) && p.src[p.i+1] == '*':
			p.i += 2
			for p.i+1 < len(p.src) && !(p.src[p.i] == '*' && p.src[p.i+1] == '/') {
				p.i++
			}
			p.i += 2
			if p.i > len(p.src) {
				p.i = len(p.src)
			}
		default:
			return
		}
	}
}

// value parses one value at p.i; path names it, for the entries of its
// children. It returns the canonical value and the end of its text.
func (p *jsonParser) value(path []string, depth int) (*keyValue, int) {
	if p.i >= len(p.src) || depth > 256 {
		p.broken = true
		return nil, p.i
	}
	switch c := p.src[p.i]; {
	case c == '{':
		return p.object(path, depth)
	case c == '[':
		return p.array(path, depth)
	case c == '"':
		s, ok := p.str()
		if !ok {
			p.broken = true
		}
		return &keyValue{kind: 's', scalar: stringToken(s)}, p.i
	default:
		start := p.i
		for p.i < len(p.src) && !isJSONDelim(p.src[p.i]) {
			p.i++
		}
		word := string(p.src[start:p.i])
		switch word {
		case "true", "false", "null":
			return &keyValue{kind: 's', scalar: word}, p.i
		case "":
			p.broken = true
			return nil, p.i
		}
		return &keyValue{kind: 's', scalar: numberToken(word)}, p.i
	}
}

func isJSONDelim(c byte) bool {
	switch c {
	case ',', ':', '{', '}', '[', ']', '"', ' ', '\t', '\n', '\r', '/':
		return true
	}
	return false
}

func (p *jsonParser) object(path []string, depth int) (*keyValue, int) {
	v := &keyValue{kind: 'm'}
	p.i++ // {
	for !p.broken {
		p.skip()
		if p.i >= len(p.src) {
			p.broken = true
			break
		}
		if p.src[p.i] == '}' {
			p.i++
			return v, p.i
		}
		if p.src[p.i] == ',' { // a trailing or doubled comma
			p.i++
			continue
		}
		if p.src[p.i] != '"' {
			p.broken = true
			break
		}
		keyStart := p.i
		key, ok := p.str()
		keyEnd := p.i
		p.skip()
		if !ok || p.i >= len(p.src) || p.src[p.i] != ':' {
			p.broken = true
			break
		}
		p.i++
		p.skip()
		seg := append(append([]string(nil), path...), KeySegment(key))
		at := len(p.out)
		p.out = append(p.out, keyEntry{}) // parents precede children
		val, end := p.value(seg, depth+1)
		p.out[at] = keyEntry{path: seg, start: keyStart, end: end, nameStart: keyStart, nameEnd: keyEnd,
			value: val.tokens(nil), header: firstLine(p.src, keyStart)}
		v.mapping = append(v.mapping, keyMember{key: key, val: val})
	}
	return v, p.i
}

func (p *jsonParser) array(path []string, depth int) (*keyValue, int) {
	v := &keyValue{kind: 'q'}
	p.i++ // [
	for !p.broken {
		p.skip()
		if p.i >= len(p.src) {
			p.broken = true
			break
		}
		if p.src[p.i] == ']' {
			p.i++
			return v, p.i
		}
		if p.src[p.i] == ',' {
			p.i++
			continue
		}
		start := p.i
		seg := append(append([]string(nil), path...), indexSegment(len(v.seq)))
		at := len(p.out)
		p.out = append(p.out, keyEntry{})
		val, end := p.value(seg, depth+1)
		p.out[at] = keyEntry{path: seg, start: start, end: end, nameStart: start, nameEnd: start,
			value: val.tokens(nil), header: firstLine(p.src, start)}
		v.seq = append(v.seq, val)
	}
	return v, p.i
}

// str reads a string literal at p.i and returns its value.
func (p *jsonParser) str() (string, bool) {
	start := p.i
	p.i++
	for p.i < len(p.src) {
		switch p.src[p.i] {
		case '\\':
			p.i += 2
			continue
		case '"':
			p.i++
			s, err := strconv.Unquote(strings.ReplaceAll(string(p.src[start:p.i]), `\/`, "/"))
			if err != nil {
				// JSON's escapes are nearly Go's; \/ is JSON-only.
				raw := string(p.src[start+1 : p.i-1])
				if utf8.ValidString(raw) {
					return raw, true
				}
				return "", false
			}
			return s, true
		case '\n':
			return "", false
		}
		p.i++
	}
	return "", false
}
