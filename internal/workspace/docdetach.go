package workspace

import (
	"strings"

	"github.com/clew-lsp/clew-lsp/internal/anchors"
)

// detach gives the parsed anchors' strings memory of their own. ParseDoc
// slices them out of one copy of the doc's text, so whatever outlives the
// parse (a memoised verdict holds the anchor's path and pin) kept that
// whole copy alive: over a session of edits to a 100 KB doc, one copy per
// version whose verdict was memoised. A string equal to the same field of
// the previous version's anchor at the same place (counted from the start
// or from the end, which covers an edit inside the doc) shares that one's
// memory, so a keystroke clones only what it changed. Values never
// change, only where their bytes live.
func detach(as, prev []anchors.Anchor) {
	shift := len(as) - len(prev)
	for i := range as {
		var p, q *anchors.Anchor
		if i < len(prev) {
			p = &prev[i]
		}
		if j := i - shift; j >= 0 && j < len(prev) {
			q = &prev[j]
		}
		a := &as[i]
		own := func(s string, pick func(*anchors.Anchor) string) string {
			if s == "" {
				return ""
			}
			for _, c := range []*anchors.Anchor{p, q} {
				if c != nil && pick(c) == s {
					return pick(c)
				}
			}
			return strings.Clone(s)
		}
		a.Doc = own(a.Doc, func(c *anchors.Anchor) string { return c.Doc })
		a.Form = anchors.Form(own(string(a.Form), func(c *anchors.Anchor) string { return string(c.Form) }))
		a.Claim = own(a.Claim, func(c *anchors.Anchor) string { return c.Claim })
		a.Kind = own(a.Kind, func(c *anchors.Anchor) string { return c.Kind })
		a.QualifiedName = own(a.QualifiedName, func(c *anchors.Anchor) string { return c.QualifiedName })
		a.Path = own(a.Path, func(c *anchors.Anchor) string { return c.Path })
		a.Section = own(a.Section, func(c *anchors.Anchor) string { return c.Section })
		a.DeclSHA = own(a.DeclSHA, func(c *anchors.Anchor) string { return c.DeclSHA })
		a.BodySHA = own(a.BodySHA, func(c *anchors.Anchor) string { return c.BodySHA })
		a.Passage.Heading = own(a.Passage.Heading, func(c *anchors.Anchor) string { return c.Passage.Heading })
	}
}
