package anchors

import (
	"strings"
)

// Mention is one backticked identifier in a doc's prose (`Cache.Lookup`,
// “ `Lookup()` “): what "Anchor this passage" and `clew-lsp suggest`
// offer to bind. Code spans inside fenced or indented code blocks, HTML
// comments and front matter are not mentions (docs/anchors.md#mentions).
type Mention struct {
	// Text is the code span's content as written, Name the identifier it
	// names: separators `::`, `#` and `->` read as ".", a trailing "()"
	// dropped (`Cache::lookup()` → `Cache.lookup`).
	Text string
	Name string
	// Call: the mention ends in "()", so it names something callable.
	Call bool

	Line      int // 1-based line of the opening backtick
	Col       int // 1-based byte column of the opening backtick
	StartByte int // the code span, backticks included
	EndByte   int

	// Passage is the passage an anchor written after the mention's block
	// belongs to: the heading above it to the next heading of the same or
	// a higher level, as the anchor parser assigns it.
	Passage Passage

	// InsertAt is where the anchor line for this mention goes: the start of
	// the line after the mention's paragraph, heading, table or quote (for
	// a list item: after the whole item, its indented continuation and
	// nested content included); Indent is that line's indentation, so a
	// list item's anchor stays in the item. InsertLine is the 1-based line
	// the inserted anchor will have. Never inside a code block.
	InsertAt   int
	InsertLine int
	Indent     string
}

// maxMentionBytes bounds what a code span may hold to be read as a name.
const maxMentionBytes = 200

// ScanMentions lists every backticked identifier of a Markdown doc, in
// order. It never fails: text that is not Markdown yields no mentions.
func ScanMentions(text []byte) []Mention {
	return ScanMentionsText(string(text))
}

// ScanMentionsText is ScanMentions over the doc as a string (see
// ParseDocText).
func ScanMentionsText(text string) []Mention {
	sc := newBlockScan(text)
	sc.run()
	var out []Mention
	for _, seg := range sc.segments {
		for _, sp := range codeSpans(text, seg.start, seg.end) {
			name, ok := MentionName(sp.content)
			if !ok {
				continue
			}
			line := sc.lineAt(sp.start)
			out = append(out, Mention{
				Text: sp.content, Name: name, Call: strings.HasSuffix(strings.TrimSpace(sp.content), "()"),
				Line: line.n, Col: sp.start - line.start + 1,
				StartByte: sp.start, EndByte: sp.end,
				Passage:  sc.passageAt(seg.insertLine),
				InsertAt: seg.insertAt, InsertLine: seg.insertLine, Indent: seg.indent,
			})
		}
	}
	return out
}

// MentionInsertEdit is the edit that writes anchor (one `<!-- @code … -->`
// comment) on its own line after m's block, with the doc's line ending
// (CRLF when the doc uses it).
func MentionInsertEdit(text []byte, m Mention, anchor string) Edit {
	eol := "\n"
	if strings.Contains(string(text), "\r\n") {
		eol = "\r\n"
	}
	at := m.InsertAt
	if at > len(text) {
		at = len(text)
	}
	if at == len(text) && at > 0 && text[at-1] != '\n' {
		// The block ends the doc without a line break.
		return Edit{Start: at, End: at, New: eol + m.Indent + anchor + eol}
	}
	return Edit{Start: at, End: at, New: m.Indent + anchor + eol}
}

// MentionName reads a code span's content as an identifier: dotted
// segments of letters, digits, `_` and `$` (not starting with a digit),
// `::`, `#` or `->` as separators, an optional trailing "()". The last
// segment has at least two bytes, so `i` and `x` are not names, and a file
// name (`root.go`, `config.json`) is not one either.
func MentionName(content string) (string, bool) {
	s := strings.TrimSpace(content)
	if len(s) == 0 || len(s) > maxMentionBytes {
		return "", false
	}
	call := strings.HasSuffix(s, "()")
	s = strings.TrimSuffix(s, "()")
	s = strings.NewReplacer("::", ".", "#", ".", "->", ".").Replace(s)
	segs := strings.Split(s, ".")
	for _, seg := range segs {
		if !isIdentifier(seg) {
			return "", false
		}
	}
	last := segs[len(segs)-1]
	if len(last) < 2 || len(segs) > 1 && !call && fileExtensions[last] {
		return "", false
	}
	return s, true
}

// fileExtensions end the file names docs put in backticks.
var fileExtensions = map[string]bool{
	"go": true, "md": true, "ts": true, "tsx": true, "js": true, "jsx": true, "mjs": true, "py": true,
	"rs": true, "java": true, "kt": true, "rb": true, "php": true, "cs": true, "cpp": true, "hpp": true,
	"swift": true, "scala": true, "lua": true, "sh": true, "json": true, "yml": true, "yaml": true,
	"toml": true, "txt": true, "html": true, "css": true, "proto": true, "sql": true, "tf": true,
	"mod": true, "sum": true, "lock": true, "cfg": true, "ini": true, "xml": true, "csv": true,
}

func isIdentifier(s string) bool {
	if s == "" {
		return false
	}
	for i := 0; i < len(s); i++ {
		c := s[i]
		switch {
		case c == '_' || c == '$' || c >= 'a' && c <= 'z' || c >= 'A' && c <= 'Z':
		case c >= '0' && c <= '9':
			if i == 0 {
				return false
			}
		default:
			return false
		}
	}
	return true
}
