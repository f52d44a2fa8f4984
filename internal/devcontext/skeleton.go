package devcontext

import (
	"cmp"
	"maps"
	"slices"
	"strconv"
	"strings"
)

// A seed declaration that would take most of the budget (a large class,
// say, at 2k tokens) leaves nothing for what the change touches next. Such
// a seed is given as its skeleton: its own signature line and, below it,
// the signature lines of the declarations inside it (members, nested
// declarations), in source order, indented by nesting. A file seed (the
// cursor outside any declaration) that costs more than fileSkeletonShare
// of the limit is given the same way: its path, then the signature lines
// of its declarations. It stays required and first; its full text is one
// request away (its uri, or a larger budget).

// skeletonShare: a seed declaration with declarations inside it whose full
// text costs more than this share of the limit is given as its skeleton,
// when the skeleton costs less.
const skeletonShare = 0.5

// fileSkeletonShare: the same for a file seed, at more than twice the
// limit. Measured on the usefulness bench: at the limit itself (1×) the
// 8k answers on spf13/pflag (a 8.6–9.3k-token flag.go) fell to 42 % of
// their tokens in touched files; at 2× the 2k answers gain (pflag 62 →
// 66 %, click 54 → 57 %) and the others do not change.
const fileSkeletonShare = 2.0

const skeletonMeans = "a seed declaration that has declarations inside it (a class's members, a type's fields) and whose full text costs more than skeleton_share of the limit, or a file seed that costs more than file_skeleton_share of it, is given as a skeleton entry: its signature line (a file: its path) and, indented below it, those of the declarations inside it in source order; still required, its full text one request away"

// Skeleton entry facts.
const (
	FactSkeleton = "skeleton" // the skeleton's text
	FactMembers  = "members"  // how many declarations inside it the skeleton names
)

// skeletonOf builds the skeleton node of a seed declaration or file, or
// nil when it has no declarations inside it with a signature line, or the
// skeleton would not be cheaper than the seed in full.
func (s *selection) skeletonOf(n *Node) *Node {
	file := n.Kind == KindFile && n.Path != ""
	if !file && (n.Range == nil || n.Outline == "" || (n.Kind != KindSymbol && n.Kind != KindTest)) {
		return nil
	}
	var inner []*Node
	for _, id := range s.ix.decls[n.Path] {
		m := s.ix.nodes[id]
		if m == n || m.Range == nil || m.Outline == "" || !file && (!inside(m.Range, n.Range) || *m.Range == *n.Range) {
			continue
		}
		inner = append(inner, m)
	}
	if len(inner) == 0 {
		return nil
	}
	slices.SortFunc(inner, func(a, b *Node) int {
		if c := cmp.Or(cmp.Compare(a.Range.StartLine, b.Range.StartLine), cmp.Compare(a.Range.StartCol, b.Range.StartCol),
			cmp.Compare(b.Range.EndLine, a.Range.EndLine)); c != 0 {
			return c
		}
		return naturalCompare(a.URI, b.URI)
	})
	var b strings.Builder
	if file {
		b.WriteString(n.Path)
	} else {
		b.WriteString(n.Outline)
	}
	for i, m := range inner {
		depth := 1
		for _, o := range inner[:i] {
			if inside(m.Range, o.Range) && *m.Range != *o.Range {
				depth++
			}
		}
		b.WriteByte('\n')
		b.WriteString(strings.Repeat("    ", depth))
		b.WriteString(m.Outline)
	}
	text := b.String()
	if TokensFor(len(text)) >= TokensFor(n.CostBytes()) {
		return nil
	}
	facts := maps.Clone(n.Facts)
	if facts == nil {
		facts = map[string]string{}
	}
	facts[FactSkeleton] = text
	facts[FactMembers] = strconv.Itoa(len(inner))
	facts[FactFullTokens] = strconv.FormatUint(TokensFor(n.CostBytes()), 10)
	return &Node{URI: n.URI, Kind: KindSkeleton, Title: n.Title, Name: n.Name, Path: n.Path, Range: n.Range,
		Text: text, Facts: facts, Version: n.Version, Status: n.Status}
}

// inside reports whether range a lies within range b (by lines).
func inside(a, b *Range) bool {
	return b.StartLine <= a.StartLine && a.EndLine <= b.EndLine
}

// skeletons replaces each seed that costs more than its share of the
// limit (skeletonShare, fileSkeletonShare) by its skeleton, where it has
// one.
func (s *selection) skeletons(live []*candidate) {
	for _, c := range live {
		share := skeletonShare
		if c.node.Kind == KindFile {
			share = fileSkeletonShare
		}
		if !c.seed || float64(TokensFor(c.node.CostBytes())) <= share*float64(s.set.limit) {
			continue
		}
		if k := s.skeletonOf(c.node); k != nil {
			c.node = k
		}
	}
}

// skeletonShows reports whether skeleton k names declaration n's signature.
func skeletonShows(k, n *Node) bool {
	if k.Path != n.Path || n.Range == nil {
		return false
	}
	return k.Range == nil || inside(n.Range, k.Range) // a file's skeleton names all its declarations
}

// skeletonWhy says why a seed is given as its skeleton.
func skeletonWhy(e Entry) string {
	if strings.HasPrefix(e.URI, FileURI("")) {
		return "given as its skeleton (its path and the signature lines of its " + e.Facts[FactMembers] + " declaration(s)): whole it costs " +
			e.Facts[FactFullTokens] + " tokens, more than the seed selector's file_skeleton_share " + strconv.FormatFloat(fileSkeletonShare, 'f', -1, 64) + " of the limit"
	}
	return "given as its skeleton (its signature and the " + e.Facts[FactMembers] + " declaration(s) inside it, one line each): in full it costs " +
		e.Facts[FactFullTokens] + " tokens, more than the seed selector's skeleton_share " + strconv.FormatFloat(skeletonShare, 'f', -1, 64) + " of the limit"
}
