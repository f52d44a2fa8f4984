package anchors

import (
	"regexp"
	"strings"
	"sync"
)

// The block scan of a doc for mentions: which lines are prose (paragraphs,
// headings, tables, quotes, list items) and where an anchor for a mention
// in them goes. It reads the CommonMark block structure as far as the
// question needs: fences (by character and length), indented code (not
// inside a paragraph or list item), HTML comments and blocks, front matter,
// setext underlines, and the outermost list item with its continuation.

// group is a run of lines that one anchor goes after: a paragraph (with a
// setext underline and the comments written directly under it), a heading,
// a quote, or a whole top-level list item.
type group struct {
	last   int    // index of its last line
	indent string // the anchor line's indentation
}

// inlineSegment is a run of prose lines scanned for code spans; code spans
// never cross a segment's end.
type inlineSegment struct {
	start, end int // byte range
	group      int
	insertAt   int
	insertLine int
	indent     string
}

type blockScan struct {
	text     string
	lines    []line
	groups   []group
	segments []inlineSegment
	headings []heading

	fence, quoteFence string // open fence marker, "" when none
	htmlEnd           string // what ends an open HTML block; "\n" for a blank line
	para              bool   // a paragraph is open (lazy continuation possible)
	cur               int    // the open group, -1 when none
	item              *listItem
	quote             bool
	seg               int // the open segment, -1 when none
}

// listItem is the open outermost list item.
type listItem struct {
	contentIndent int
	group         int
}

var (
	bulletRE   = sync.OnceValue(func() *regexp.Regexp { return regexp.MustCompile(`^([-*+])([ \t]+|$)`) })
	orderedRE  = sync.OnceValue(func() *regexp.Regexp { return regexp.MustCompile(`^([0-9]{1,9})[.)]([ \t]+|$)`) })
	thematicRE = sync.OnceValue(func() *regexp.Regexp {
		return regexp.MustCompile(`^(?:(?:\*[ \t]*){3,}|(?:-[ \t]*){3,}|(?:_[ \t]*){3,})$`)
	})
	setextRE   = sync.OnceValue(func() *regexp.Regexp { return regexp.MustCompile(`^(?:=+|-+)[ \t]*$`) })
	htmlOpenRE = sync.OnceValue(func() *regexp.Regexp { return regexp.MustCompile(`^</?([A-Za-z][A-Za-z0-9-]*)(?:[ \t>/]|$)`) })
)

// htmlBlockTags start an HTML block that a blank line ends (CommonMark's
// type 6); raw text tags (type 1) end at their closing tag.
var htmlBlockTags = map[string]bool{
	"address": true, "article": true, "aside": true, "blockquote": true, "details": true, "dialog": true,
	"div": true, "dl": true, "fieldset": true, "figcaption": true, "figure": true, "footer": true, "form": true,
	"h1": true, "h2": true, "h3": true, "h4": true, "h5": true, "h6": true, "header": true, "hr": true,
	"li": true, "main": true, "nav": true, "ol": true, "p": true, "section": true, "summary": true,
	"table": true, "tbody": true, "td": true, "th": true, "thead": true, "tr": true, "ul": true,
}
var htmlRawTags = map[string]bool{"pre": true, "script": true, "style": true, "textarea": true}

func newBlockScan(text string) *blockScan {
	return &blockScan{text: text, lines: splitDocLines(text), cur: -1, seg: -1}
}

// indentWidth is a line's leading whitespace in columns (tabs to the next
// multiple of four) and the rest of the line.
func indentWidth(s string) (int, string) {
	w := 0
	for i := 0; i < len(s); i++ {
		switch s[i] {
		case ' ':
			w++
		case '\t':
			w += 4 - w%4
		default:
			return w, s[i:]
		}
	}
	return w, ""
}

func (sc *blockScan) run() {
	start := 0
	if len(sc.lines) > 0 && frontMatterOpen(strings.TrimPrefix(sc.lines[0].text, "\ufeff")) {
		for i := 1; i < len(sc.lines); i++ {
			if t := strings.TrimRight(sc.lines[i].text, " \t"); t == "---" || t == "..." {
				start = i + 1
				break
			}
		}
	}
	for i := start; i < len(sc.lines); i++ {
		s := sc.lines[i].text
		if i == 0 {
			s = strings.TrimPrefix(s, "\ufeff")
		}
		sc.line(i, s)
	}
	sc.endItem()
	sc.finish()
}

func frontMatterOpen(s string) bool { return strings.TrimRight(s, " \t") == "---" }

// line classifies one line.
func (sc *blockScan) line(i int, s string) {
	w, t := indentWidth(s)
	blank := t == ""
	if sc.fence == "" && sc.htmlEnd == "" && w < 4 {
		if _, txt, ok := atxHeading(t); ok {
			sc.headings = append(sc.headings, heading{line: i + 1, level: headingLevel(t), text: txt})
		}
	}
	base := 0 // the container's content indent
	if sc.item != nil {
		switch {
		case blank:
		case w >= sc.item.contentIndent:
			base = sc.item.contentIndent
		case sc.fence == "" && sc.htmlEnd == "" && sc.para && !sc.interrupts(t, w) && sc.listMarker(t, w) == 0:
			// (any list marker here is a sibling or an outer item, never lazy text)
			sc.prose(i, true) // lazy continuation of the item's paragraph
			return
		default:
			sc.endItem()
		}
	}
	rel := w - base
	switch {
	case sc.fence != "":
		if !blank && rel < 4 && closesFence(t, sc.fence) {
			sc.fence = ""
		}
		sc.extend(i)
		return
	case sc.htmlEnd != "":
		if sc.htmlEnd == "\n" && blank {
			sc.htmlEnd = ""
			return
		}
		if sc.htmlEnd != "\n" && strings.Contains(strings.ToLower(t), sc.htmlEnd) {
			sc.htmlEnd = ""
		}
		sc.extend(i)
		return
	case blank:
		sc.closePara()
		sc.quote, sc.quoteFence = false, ""
		if sc.item == nil {
			sc.cur = -1
		}
		return
	case rel >= 4 && !sc.para && !sc.quote:
		sc.attach(i) // indented code
		return
	}
	if sc.quote && !strings.HasPrefix(t, ">") && sc.para && !sc.interrupts(t, rel) {
		sc.prose(i, true) // lazy continuation of the quote's paragraph
		return
	}
	if sc.quote && !strings.HasPrefix(t, ">") {
		sc.quote, sc.quoteFence = false, ""
		sc.closePara()
		if sc.item == nil {
			sc.cur = -1
		}
	}
	if f := openFence(t); f != "" {
		sc.closePara()
		sc.fence = f
		sc.attach(i)
		return
	}
	if strings.HasPrefix(t, "<!--") {
		sc.closePara()
		if !strings.Contains(t[4:], "-->") {
			sc.htmlEnd = "-->"
		}
		// Comments written directly under a block (anchors) belong to it:
		// a new anchor goes after them.
		sc.extend(i)
		return
	}
	if m := htmlOpenRE().FindStringSubmatch(t); m != nil && !sc.para {
		tag := strings.ToLower(m[1])
		if htmlRawTags[tag] && !strings.HasPrefix(t, "</") {
			if !strings.Contains(strings.ToLower(t), "</"+tag+">") {
				sc.htmlEnd = "</" + tag + ">"
			}
			sc.attach(i)
			return
		}
		if htmlBlockTags[tag] {
			sc.htmlEnd = "\n"
			sc.attach(i)
			return
		}
	}
	if _, _, ok := atxHeading(t); ok {
		sc.closePara()
		sc.startGroup(i)
		sc.segment(i)
		sc.closePara()
		if sc.item == nil {
			sc.cur = -1
		}
		return
	}
	if sc.para && setextRE().MatchString(t) {
		sc.extend(i) // the paragraph was a heading; its underline stays with it
		sc.closePara()
		return
	}
	if thematicRE().MatchString(t) {
		sc.closePara()
		if sc.item == nil {
			sc.cur = -1
		}
		return
	}
	if sc.item == nil && sc.listMarker(t, w) > 0 && (!sc.para || sc.canInterrupt(t)) {
		sc.closePara()
		ci := sc.listMarker(t, w)
		sc.startGroup(i)
		ind := ci
		if ind > 3 {
			ind = 3 // four spaces would read as indented code to the anchor parser
		}
		sc.groups[sc.cur].indent = strings.Repeat(" ", ind)
		sc.item = &listItem{contentIndent: ci, group: sc.cur}
		sc.prose(i, false)
		return
	}
	if strings.HasPrefix(t, ">") {
		if !sc.quote {
			sc.closePara()
			sc.startGroup(i)
			sc.quote = true
		}
		inner := strings.TrimLeft(strings.TrimPrefix(t, ">"), " ")
		for strings.HasPrefix(inner, ">") {
			inner = strings.TrimLeft(strings.TrimPrefix(inner, ">"), " ")
		}
		switch {
		case sc.quoteFence != "":
			if closesFence(inner, sc.quoteFence) {
				sc.quoteFence = ""
			}
			sc.extend(i)
		case openFence(inner) != "":
			sc.closePara()
			sc.quoteFence = openFence(inner)
			sc.extend(i)
		case inner == "":
			sc.closePara()
			sc.extend(i)
		default:
			sc.prose(i, true)
		}
		return
	}
	sc.prose(i, true)
}

func headingLevel(t string) int { return len(t) - len(strings.TrimLeft(t, "#")) }

// interrupts reports whether a line starts a block that ends a paragraph
// (so it cannot be a lazy continuation).
func (sc *blockScan) interrupts(t string, w int) bool {
	if w >= 4 {
		return false
	}
	if _, _, ok := atxHeading(t); ok {
		return true
	}
	return openFence(t) != "" || strings.HasPrefix(t, "<!--") || strings.HasPrefix(t, ">") ||
		thematicRE().MatchString(t) || (sc.listMarker(t, w) > 0 && sc.canInterrupt(t))
}

// canInterrupt: a bullet, or an ordered item starting at 1, with text,
// may interrupt a paragraph.
func (sc *blockScan) canInterrupt(t string) bool {
	if m := orderedRE().FindStringSubmatch(t); m != nil {
		return strings.TrimLeft(m[1], "0") == "1" && strings.TrimSpace(t[len(m[0]):]) != ""
	}
	return strings.TrimSpace(t[1:]) != ""
}

// listMarker is the content indent of a list item starting on this line,
// 0 when it starts none.
func (sc *blockScan) listMarker(t string, w int) int {
	if w > 3 || thematicRE().MatchString(t) {
		return 0
	}
	var m []int
	if m = bulletRE().FindStringSubmatchIndex(t); m == nil {
		m = orderedRE().FindStringSubmatchIndex(t)
	}
	if m == nil {
		return 0
	}
	marker := m[4] // the spacing group starts where the marker ends
	spaces, _ := indentWidth(t[marker:m[5]])
	if spaces == 0 || spaces > 4 {
		spaces = 1
	}
	return w + marker + spaces
}

func openFence(t string) string {
	f := fenceOf(t)
	if len(f) < 3 {
		return ""
	}
	if f[0] == '`' && strings.Contains(t[len(f):], "`") {
		return "" // an info string with a backtick: inline code, not a fence
	}
	return f
}

func closesFence(t, fence string) bool {
	f := fenceOf(t)
	return len(f) >= len(fence) && f[0] == fence[0] && strings.TrimSpace(t[len(f):]) == ""
}

// startGroup opens a new group at line i, or continues the open list item's.
func (sc *blockScan) startGroup(i int) {
	if sc.item != nil {
		sc.cur = sc.item.group
		sc.groups[sc.cur].last = i
		return
	}
	sc.groups = append(sc.groups, group{last: i})
	sc.cur = len(sc.groups) - 1
}

// extend adds line i to the open group, if any (code and comments inside
// a list item, a paragraph's underline or comments).
func (sc *blockScan) extend(i int) {
	if sc.cur >= 0 {
		sc.groups[sc.cur].last = i
	}
}

// attach adds a non-prose block to the open list item (outside one it
// belongs to no group: nothing in it is a mention).
func (sc *blockScan) attach(i int) {
	if sc.item != nil {
		sc.cur = sc.item.group
		sc.extend(i)
		return
	}
	sc.cur = -1
}

// prose adds line i as paragraph text (of a new paragraph unless cont and
// one is open).
func (sc *blockScan) prose(i int, cont bool) {
	if !cont || !sc.para {
		if sc.cur < 0 || sc.item == nil && !sc.quote && !sc.para {
			sc.startGroup(i)
		}
		sc.closeSegment()
	}
	sc.para = true
	sc.extend(i)
	sc.segment(i)
}

// segment adds line i to the open inline segment, opening one if needed.
func (sc *blockScan) segment(i int) {
	ln := sc.lines[i]
	end := ln.start + len(ln.text)
	if sc.seg >= 0 {
		sc.segments[sc.seg].end = end
		return
	}
	sc.segments = append(sc.segments, inlineSegment{start: ln.start, end: end, group: sc.cur})
	sc.seg = len(sc.segments) - 1
}

func (sc *blockScan) closeSegment() { sc.seg = -1 }

func (sc *blockScan) closePara() {
	sc.para = false
	sc.closeSegment()
}

func (sc *blockScan) endItem() {
	if sc.item == nil {
		return
	}
	sc.item = nil
	sc.closePara()
	sc.fence, sc.htmlEnd, sc.quote, sc.quoteFence = "", "", false, ""
	sc.cur = -1
}

// finish computes each segment's insertion point from its group.
func (sc *blockScan) finish() {
	for k := range sc.segments {
		g := sc.groups[sc.segments[k].group]
		ln := sc.lines[g.last]
		at := ln.start + len(ln.text)
		if at < len(sc.text) && sc.text[at] == '\r' {
			at++
		}
		if at < len(sc.text) && sc.text[at] == '\n' {
			at++
		}
		sc.segments[k].insertAt = at
		sc.segments[k].insertLine = ln.n + 1
		sc.segments[k].indent = g.indent
	}
}

// lineAt is the line holding byte offset off.
func (sc *blockScan) lineAt(off int) line {
	lo, hi := 0, len(sc.lines)-1
	for lo < hi {
		mid := (lo + hi + 1) / 2
		if sc.lines[mid].start <= off {
			lo = mid
		} else {
			hi = mid - 1
		}
	}
	return sc.lines[lo]
}

// passageAt is the passage of an anchor on line n, as assignPassages
// gives it.
func (sc *blockScan) passageAt(n int) Passage {
	p := Passage{StartLine: 1, EndLine: len(sc.lines)}
	hi := -1
	for j, h := range sc.headings {
		if h.line <= n {
			hi = j
		}
	}
	if hi < 0 {
		return p
	}
	h := sc.headings[hi]
	p = Passage{Heading: h.text, Level: h.level, StartLine: h.line, EndLine: len(sc.lines)}
	for _, next := range sc.headings[hi+1:] {
		if next.level <= h.level {
			p.EndLine = next.line - 1
			break
		}
	}
	return p
}
