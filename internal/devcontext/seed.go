package devcontext

import "strings"

// seed turns the request into seeds, in request order: the position (the
// innermost declaration, else the file; then the file as a path seed), uris,
// paths, intent. Object seeds are task tier, relevance 1, required.
func (s *selection) seed() error {
	if p := s.req.Position; p != nil {
		file, _ := normPath(p.Path)
		if id, ok := s.innermost(file, p.Line, p.Column); ok {
			s.objectSeed(id, FromPosition, "", "the declaration at the cursor")
		} else if id, ok := s.ix.byURI[FileURI(file)]; ok && s.ix.nodes[id] != nil {
			s.objectSeed(id, FromPosition, "", "the file at the cursor, outside any declaration")
		} else if id, ok := s.docAt(file); ok {
			s.objectSeed(id, FromPosition, "", "the document at the cursor")
		} else {
			return unknown("nothing is indexed at %s:%d", file, p.Line)
		}
		s.seeds = append(s.seeds, Seed{URI: file, Kind: SeedKindPath, From: FromPosition})
		s.pathSeeds = append(s.pathSeeds, file)
	}
	for _, u := range s.req.URIs {
		u = strings.TrimSpace(u)
		id, viaAlias, ok := s.ix.lookup(u)
		if !ok {
			return unknown("%s names nothing in the workspace", u)
		}
		resolved := ""
		if viaAlias {
			resolved = s.ix.ids[id]
		}
		s.objectSeed(id, FromURIs, resolved, "named in the request")
		s.seeds[len(s.seeds)-1].URI = u
	}
	for _, p := range s.set.paths {
		s.seeds = append(s.seeds, Seed{URI: p, Kind: SeedKindPath, From: FromPaths})
		s.pathSeeds = append(s.pathSeeds, p)
	}
	if it := strings.TrimSpace(s.req.Intent); it != "" {
		s.seeds = append(s.seeds, Seed{URI: it, Kind: SeedKindIntent, From: FromIntent})
	}
	return nil
}

func (s *selection) objectSeed(id int, from, resolved, why string) {
	n := s.ix.nodes[id]
	s.seeds = append(s.seeds, Seed{URI: n.URI, Kind: n.Kind, From: from, Resolved: resolved})
	s.offer(id, TierTask, relSeed, Discovery{Selector: SelSeed, Reason: why, Depth: 0, Confidence: confDeclared, Weight: relSeed})
	c := s.cands[id]
	if !c.seed {
		c.seed = true
		s.required[id] = true
		s.objSeeds = append(s.objSeeds, id)
	}
}

// innermost finds the declaration (symbol or test) in file whose range holds
// the position and starts last; ties go to the one that ends first, then to
// the smaller URI. A closure is not a declaration: its function is.
func (s *selection) innermost(file string, line, col int) (int, bool) {
	bestID, found := 0, false
	var best Range
	for _, kind := range []string{KindSymbol, KindTest} {
		for _, id := range s.ix.ofKind(kind) {
			n := s.ix.nodes[id]
			if n.Path != file || n.Range == nil || !n.Range.Contains(line, col) {
				continue
			}
			r := *n.Range
			if found {
				if c := comparePos(r.StartLine, r.StartCol, best.StartLine, best.StartCol); c < 0 ||
					(c == 0 && comparePos(r.EndLine, endCol(r.EndCol), best.EndLine, endCol(best.EndCol)) > 0) ||
					(c == 0 && comparePos(r.EndLine, endCol(r.EndCol), best.EndLine, endCol(best.EndCol)) == 0 &&
						naturalCompare(n.URI, s.ix.ids[bestID]) >= 0) {
					continue
				}
			}
			bestID, best, found = id, r, true
		}
	}
	return bestID, found
}

// Contains reports whether (line, col) is inside r; a column of 0 on either
// side means the whole line.
func (r Range) Contains(line, col int) bool {
	if line < r.StartLine || line > r.EndLine {
		return false
	}
	if col == 0 {
		return true
	}
	if line == r.StartLine && r.StartCol > 0 && col < r.StartCol {
		return false
	}
	if line == r.EndLine && r.EndCol > 0 && col > r.EndCol {
		return false
	}
	return true
}

func endCol(c int) int {
	if c == 0 {
		return int(^uint(0) >> 1)
	}
	return c
}

func comparePos(l1, c1, l2, c2 int) int {
	switch {
	case l1 != l2:
		if l1 < l2 {
			return -1
		}
		return 1
	case c1 < c2:
		return -1
	case c1 > c2:
		return 1
	}
	return 0
}

// docAt finds the Markdown node (doc, README, ADR or AGENTS.md) whose path
// is file: a cursor in a doc seeds the doc, as a cursor in code outside any
// declaration seeds the file.
func (s *selection) docAt(file string) (int, bool) {
	for _, kind := range []string{KindDoc, KindReadme, KindADR, KindAgents} {
		for _, id := range s.ix.ofKind(kind) {
			if n := s.ix.nodes[id]; n != nil && n.Path == file {
				return id, true
			}
		}
	}
	return 0, false
}
