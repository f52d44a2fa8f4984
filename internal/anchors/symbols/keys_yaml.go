package symbols

import (
	"bytes"
	"strings"
	"unicode/utf8"

	"go.yaml.in/yaml/v3"
)

// yamlKeys lists every mapping key of every document, and every sequence
// item, by path. A file of several documents starts each path with the
// document's index ("[1].spec.replicas"). Aliases count as the value they
// name; merge keys ("<<") merge into their mapping's value.
func yamlKeys(src []byte) (out []keyEntry) {
	defer func() {
		if recover() != nil {
			out = nil // the YAML library must not take the server down
		}
	}()
	lines := lineStarts(src)
	dec := yaml.NewDecoder(bytes.NewReader(src))
	var docs []*yaml.Node
	for len(docs) < 1000 {
		var n yaml.Node
		if err := dec.Decode(&n); err != nil {
			break // the end, or broken YAML: what parsed still resolves
		}
		docs = append(docs, &n)
	}
	y := yamlWalk{src: src, lines: lines}
	for i, d := range docs {
		var prefix []string
		if len(docs) > 1 {
			prefix = []string{indexSegment(i)}
		}
		end := len(src)
		if i+1 < len(docs) {
			end = y.docStart(docs[i+1])
		}
		root := d
		if root.Kind == yaml.DocumentNode && len(root.Content) == 1 {
			root = root.Content[0]
		}
		if len(prefix) > 0 {
			start := y.offset(root)
			y.add(prefix, start, y.trimEnd(start, end), start, start, root, "document "+prefix[0])
		}
		y.children(prefix, root, end, 0)
	}
	return y.out
}

type yamlWalk struct {
	src   []byte
	lines []int
	out   []keyEntry
}

// offset converts a node's 1-based line and character column to a byte offset.
func (y *yamlWalk) offset(n *yaml.Node) int {
	if n == nil || n.Line <= 0 || n.Line > len(y.lines) {
		return 0
	}
	off := y.lines[n.Line-1]
	for col := 1; col < n.Column && off < len(y.src) && y.src[off] != '\n'; col++ {
		_, w := utf8.DecodeRune(y.src[off:])
		off += w
	}
	return off
}

func (y *yamlWalk) docStart(d *yaml.Node) int {
	if d.Kind == yaml.DocumentNode && len(d.Content) == 1 {
		return y.offset(d.Content[0])
	}
	return y.offset(d)
}

// trimEnd moves an end offset back over blank lines, comment lines and
// trailing separators, so a key's span ends at its value's last text.
func (y *yamlWalk) trimEnd(start, end int) int {
	if end > len(y.src) {
		end = len(y.src)
	}
	for end > start {
		ls := lineOf(y.lines, end-1) - 1
		lineStart := y.lines[ls]
		if lineStart <= start {
			break
		}
		line := strings.TrimSpace(string(y.src[lineStart:end]))
		if line == "" || strings.HasPrefix(line, "#") || line == "---" || line == "..." {
			end = lineStart
			continue
		}
		break
	}
	for end > start && strings.ContainsRune(" \t\r\n,", rune(y.src[end-1])) {
		end--
	}
	return end
}

func (y *yamlWalk) add(path []string, start, end, ns, ne int, val *yaml.Node, header string) {
	v := y.value(val, 0)
	y.out = append(y.out, keyEntry{
		path: append([]string(nil), path...), start: start, end: end,
		nameStart: ns, nameEnd: ne, value: v.tokens(nil), header: header,
	})
}

// children adds the entries of a mapping or sequence; end is where the
// node's text ends (the next sibling of its parent, or the document's end).
func (y *yamlWalk) children(path []string, n *yaml.Node, end, depth int) {
	if n == nil || depth > 64 {
		return
	}
	switch n.Kind {
	case yaml.MappingNode:
		for i := 0; i+1 < len(n.Content); i += 2 {
			k, v := n.Content[i], n.Content[i+1]
			if k.Value == "<<" && k.Tag == "!!merge" {
				continue
			}
			next := end
			if i+2 < len(n.Content) {
				next = y.offset(n.Content[i+2])
			}
			start := y.offset(k)
			seg := append(append([]string(nil), path...), KeySegment(k.Value))
			nameEnd := start + len(y.keyText(k, start))
			y.add(seg, start, y.trimEnd(start, next), start, nameEnd, v, firstLine(y.src, start))
			if v.Kind != yaml.AliasNode {
				y.children(seg, v, next, depth+1)
			}
		}
	case yaml.SequenceNode:
		for i, it := range n.Content {
			next := end
			if i+1 < len(n.Content) {
				next = y.offset(n.Content[i+1])
				if d := y.dashBefore(next); d >= 0 {
					next = d
				}
			}
			start := y.offset(it)
			// The "- " marker belongs to the item.
			if s := y.dashBefore(start); s >= 0 {
				start = s
			}
			seg := append([]string(nil), path...)
			seg = append(seg, indexSegment(i))
			y.add(seg, start, y.trimEnd(start, next), start, start, it, firstLine(y.src, start))
			if it.Kind != yaml.AliasNode {
				y.children(seg, it, next, depth+1)
			}
		}
	}
}

func (y *yamlWalk) dashBefore(off int) int {
	i := off - 1
	for i >= 0 && (y.src[i] == ' ' || y.src[i] == '\t') {
		i--
	}
	if i >= 0 && y.src[i] == '-' {
		return i
	}
	return -1
}

// keyText is the key as written at start (quotes included).
func (y *yamlWalk) keyText(k *yaml.Node, start int) string {
	rest := y.src[start:]
	if k.Style&(yaml.DoubleQuotedStyle|yaml.SingleQuotedStyle) != 0 && len(rest) > 0 {
		q := rest[0]
		for i := 1; i < len(rest); i++ {
			if rest[i] == '\\' && q == '"' {
				i++
				continue
			}
			if rest[i] == q {
				return string(rest[:i+1])
			}
		}
	}
	if bytes.HasPrefix(rest, []byte(k.Value)) {
		return k.Value
	}
	return ""
}

// value converts a node to its canonical form; aliases are followed a
// bounded number of times (a billion-laughs file stays cheap).
func (y *yamlWalk) value(n *yaml.Node, depth int) *keyValue {
	if n == nil || depth > 64 {
		return &keyValue{kind: 's', scalar: "null"}
	}
	switch n.Kind {
	case yaml.DocumentNode:
		if len(n.Content) == 1 {
			return y.value(n.Content[0], depth+1)
		}
	case yaml.AliasNode:
		return y.value(n.Alias, depth+1)
	case yaml.MappingNode:
		v := &keyValue{kind: 'm'}
		for i := 0; i+1 < len(n.Content); i += 2 {
			k, val := n.Content[i], n.Content[i+1]
			if k.Value == "<<" && k.Tag == "!!merge" {
				merged := y.value(val, depth+1)
				if merged.kind == 'm' {
					v.mapping = append(v.mapping, merged.mapping...)
				}
				continue
			}
			v.mapping = append(v.mapping, keyMember{key: k.Value, val: y.value(val, depth+1)})
		}
		return v
	case yaml.SequenceNode:
		v := &keyValue{kind: 'q'}
		for _, it := range n.Content {
			v.seq = append(v.seq, y.value(it, depth+1))
		}
		return v
	case yaml.ScalarNode:
		return &keyValue{kind: 's', scalar: yamlScalar(n)}
	}
	return &keyValue{kind: 's', scalar: "null"}
}

// yamlScalar is a scalar by its resolved type and value.
func yamlScalar(n *yaml.Node) string {
	switch n.ShortTag() {
	case "!!null":
		return "null"
	case "!!bool":
		var b bool
		if n.Decode(&b) == nil {
			if b {
				return "true"
			}
			return "false"
		}
	case "!!int", "!!float":
		return numberToken(n.Value)
	case "!!str", "!!binary", "!!timestamp":
		return stringToken(n.Value)
	}
	return n.ShortTag() + " " + stringToken(n.Value)
}

func firstLine(src []byte, start int) string {
	end := bytes.IndexByte(src[start:], '\n')
	if end < 0 {
		return string(src[start:])
	}
	return string(src[start : start+end])
}
