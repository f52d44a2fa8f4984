package symbols

// GoLayout is what one run of the chunk lexer finds in a Go file: its
// top-level declarations and its brace groups. A caller that needs more
// than one of GoDeclRanges, GoBraceGroups and ParseGoDecls on the same
// bytes lexes them once (LexGoLayout) and asks the layout.
type GoLayout struct {
	chunks []goChunk
	groups []BraceGroup
	ranges [][2]int
}

// LexGoLayout lexes src; ok is false when goChunks would refuse it (then
// GoDeclRanges, GoBraceGroups and ParseGoDecls refuse it too).
func LexGoLayout(src []byte) (*GoLayout, bool) {
	l, ok := goLexFile(src)
	if !ok {
		return nil, false
	}
	g := &GoLayout{chunks: l.chunks, groups: l.groups}
	for _, c := range l.chunks {
		if c.keyword != "package" && c.keyword != "import" {
			if g.ranges == nil {
				g.ranges = make([][2]int, 0, len(l.chunks))
			}
			g.ranges = append(g.ranges, [2]int{c.start, c.end})
		}
	}
	return g, true
}

// Ranges is GoDeclRanges of the layout's bytes (not to be modified).
func (g *GoLayout) Ranges() [][2]int { return g.ranges }

// BraceGroups is GoBraceGroups of the layout's bytes (not to be
// modified).
func (g *GoLayout) BraceGroups() []BraceGroup { return g.groups }

// ParseGoDeclsIn is ParseGoDecls(src, keep, opt) for the src g was lexed
// from.
func ParseGoDeclsIn(g *GoLayout, src []byte, keep func(start, end int) bool, opt Options) (Table, bool) {
	return parseGoChunks(g.chunks, src, keep, opt)
}
