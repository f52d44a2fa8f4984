package symbols

import (
	"strconv"
	"strings"

	sitter "github.com/smacker/go-tree-sitter"
)

// tomlKeys lists a TOML file's keys by path: every pair (dotted keys
// expanded), every table header ("[server]" is the key "server", its value
// the pairs under it), every element of an array of tables by index
// ("products[1]"), and the entries of inline tables and arrays.
func tomlKeys(src []byte) (out []keyEntry) {
	defer func() {
		if recover() != nil {
			out = nil
		}
	}()
	tree := parseTree(TOML, src, nil)
	if tree == nil {
		return nil
	}
	defer tree.Close()
	t := tomlWalk{src: src, arrays: map[string]int{}}
	root := tree.RootNode()
	for i := 0; i < int(root.ChildCount()); i++ {
		c := root.Child(i)
		switch c.Type() {
		case "pair":
			t.pair(nil, c, nil)
		case "table", "table_array_element":
			t.table(c)
		}
	}
	return t.out
}

type tomlWalk struct {
	src    []byte
	out    []keyEntry
	arrays map[string]int // next index of each array of tables
}

func (t *tomlWalk) text(n *sitter.Node) string { return string(t.src[n.StartByte():n.EndByte()]) }

// keyPath reads a bare, quoted or dotted key into its segments.
func (t *tomlWalk) keyPath(n *sitter.Node) []string {
	switch n.Type() {
	case "bare_key":
		return []string{t.text(n)}
	case "quoted_key":
		return []string{tomlString(t.text(n))}
	case "dotted_key":
		var out []string
		for i := 0; i < int(n.ChildCount()); i++ {
			out = append(out, t.keyPath(n.Child(i))...)
		}
		return out
	}
	return nil
}

func segments(keys []string) []string {
	out := make([]string, len(keys))
	for i, k := range keys {
		out[i] = KeySegment(k)
	}
	return out
}

func (t *tomlWalk) table(n *sitter.Node) {
	var keys []string
	var pairs []*sitter.Node
	for i := 0; i < int(n.ChildCount()); i++ {
		c := n.Child(i)
		switch c.Type() {
		case "bare_key", "quoted_key", "dotted_key":
			if keys == nil {
				keys = t.keyPath(c)
			}
		case "pair":
			pairs = append(pairs, c)
		}
	}
	if len(keys) == 0 {
		return
	}
	path := segments(keys)
	if n.Type() == "table_array_element" {
		name := JoinKeyPath(path)
		path = append(path, indexSegment(t.arrays[name]))
		t.arrays[name]++
	}
	at := len(t.out)
	t.out = append(t.out, keyEntry{})
	v := &keyValue{kind: 'm'}
	for _, p := range pairs {
		t.pair(path, p, v)
	}
	end := int(n.EndByte())
	for end > int(n.StartByte()) && strings.ContainsRune(" \t\r\n", rune(t.src[end-1])) {
		end--
	}
	t.out[at] = keyEntry{path: path, start: int(n.StartByte()), end: end,
		nameStart: int(n.StartByte()), nameEnd: int(n.StartByte()),
		value: v.tokens(nil), header: firstLine(t.src, int(n.StartByte()))}
}

// pair adds `key = value` under path; into, when set, collects the pair
// into its table's value (dotted keys nest).
func (t *tomlWalk) pair(path []string, n *sitter.Node, into *keyValue) {
	var keyNode, valNode *sitter.Node
	for i := 0; i < int(n.ChildCount()); i++ {
		c := n.Child(i)
		switch c.Type() {
		case "bare_key", "quoted_key", "dotted_key":
			keyNode = c
		case "=", "comment":
		default:
			if keyNode != nil && valNode == nil && c.IsNamed() {
				valNode = c
			}
		}
	}
	if keyNode == nil || valNode == nil {
		return
	}
	keys := t.keyPath(keyNode)
	full := append(append([]string(nil), path...), segments(keys)...)
	at := len(t.out)
	t.out = append(t.out, keyEntry{})
	val := t.value(full, valNode, 0)
	t.out[at] = keyEntry{path: full, start: int(n.StartByte()), end: int(valNode.EndByte()),
		nameStart: int(keyNode.StartByte()), nameEnd: int(keyNode.EndByte()),
		value: val.tokens(nil), header: firstLine(t.src, int(n.StartByte()))}
	if into != nil {
		// `a.b = 1` is {a: {b: 1}} in its table's value.
		for i := len(keys) - 1; i > 0; i-- {
			val = &keyValue{kind: 'm', mapping: []keyMember{{key: keys[i], val: val}}}
		}
		into.mapping = append(into.mapping, keyMember{key: keys[0], val: val})
	}
}

func (t *tomlWalk) value(path []string, n *sitter.Node, depth int) *keyValue {
	if depth > 128 {
		return &keyValue{kind: 's', scalar: "null"}
	}
	switch n.Type() {
	case "string":
		return &keyValue{kind: 's', scalar: stringToken(tomlString(t.text(n)))}
	case "integer", "float":
		return &keyValue{kind: 's', scalar: numberToken(t.text(n))}
	case "boolean":
		return &keyValue{kind: 's', scalar: t.text(n)}
	case "array":
		v := &keyValue{kind: 'q'}
		for i := 0; i < int(n.ChildCount()); i++ {
			c := n.Child(i)
			if !c.IsNamed() || c.Type() == "comment" {
				continue
			}
			seg := append(append([]string(nil), path...), indexSegment(len(v.seq)))
			at := len(t.out)
			t.out = append(t.out, keyEntry{})
			it := t.value(seg, c, depth+1)
			t.out[at] = keyEntry{path: seg, start: int(c.StartByte()), end: int(c.EndByte()),
				nameStart: int(c.StartByte()), nameEnd: int(c.StartByte()),
				value: it.tokens(nil), header: firstLine(t.src, int(c.StartByte()))}
			v.seq = append(v.seq, it)
		}
		return v
	case "inline_table":
		v := &keyValue{kind: 'm'}
		for i := 0; i < int(n.ChildCount()); i++ {
			if c := n.Child(i); c.Type() == "pair" {
				t.pair(path, c, v)
			}
		}
		return v
	}
	// Dates and times: by their text.
	return &keyValue{kind: 's', scalar: n.Type() + " " + t.text(n)}
}

// tomlString is a TOML string's value: basic strings unescape, literal
// strings are raw, and a multi-line string drops the newline after its
// opening delimiter.
func tomlString(s string) string {
	switch {
	case strings.HasPrefix(s, `"""`) && strings.HasSuffix(s, `"""`) && len(s) >= 6:
		body := trimFirstNewline(s[3 : len(s)-3])
		// A backslash at a line's end joins the lines.
		body = joinContinued(body)
		if u, err := strconv.Unquote(`"` + strings.ReplaceAll(strings.ReplaceAll(body, `"`, `\"`), "\n", `\n`) + `"`); err == nil {
			return u
		}
		return body
	case strings.HasPrefix(s, `'''`) && strings.HasSuffix(s, `'''`) && len(s) >= 6:
		return trimFirstNewline(s[3 : len(s)-3])
	case strings.HasPrefix(s, `'`) && strings.HasSuffix(s, `'`) && len(s) >= 2:
		return s[1 : len(s)-1]
	case strings.HasPrefix(s, `"`):
		if u, err := strconv.Unquote(s); err == nil {
			return u
		}
		return strings.Trim(s, `"`)
	}
	return s
}

func trimFirstNewline(s string) string {
	s = strings.TrimPrefix(s, "\r")
	return strings.TrimPrefix(s, "\n")
}

func joinContinued(s string) string {
	lines := strings.Split(s, "\n")
	var b strings.Builder
	for i := 0; i < len(lines); i++ {
		l := strings.TrimSuffix(lines[i], "\r")
		if strings.HasSuffix(l, `\`) && !strings.HasSuffix(l, `\\`) {
			b.WriteString(strings.TrimSuffix(l, `\`))
			for i+1 < len(lines) && strings.TrimSpace(lines[i+1]) == "" {
				i++
			}
			if i+1 < len(lines) {
				lines[i+1] = strings.TrimLeft(lines[i+1], " \t")
			}
			continue
		}
		b.WriteString(l)
		if i+1 < len(lines) {
			b.WriteByte('\n')
		}
	}
	return b.String()
}
