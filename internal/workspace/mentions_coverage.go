package workspace

import (
	"strings"

	"github.com/clew-lsp/clew-lsp/internal/anchors"
	"github.com/clew-lsp/clew-lsp/internal/anchors/symbols"
)

// MentionCoverage is ScanMentions(nil, rep).Coverage, computed with less
// parsing. A Go file the name lexer reads (symbols.GoDeclNames: most of
// them) is not parsed at all: the lexer lists its declarations of the
// mentioned names, with their kinds, containers and lines, which is all
// coverage asks of them. The Go files it refuses where a mentioned name
// may be declared at top level are parsed next. Then a one-segment
// mention (`Close`) whose top-level declarations are all known (no file
// of another language holds the name as a word) has its answer: those are
// its first tier (anchors.MentionFinal). A mention that two declarations
// name exactly, in a passage with no anchor to that name, is ambiguous
// whatever the rest of the repository holds (anchors.MentionSettled). The
// other files are parsed only for the names still open.
func (s *Snapshot) MentionCoverage(rep *Report) MentionCoverage {
	cov, _, _ := s.mentionCoverage(rep)
	return cov
}

// mentionCoverage is MentionCoverage, how many mentions it settled early
// and how many code files its first reading read.
func (s *Snapshot) mentionCoverage(rep *Report) (MentionCoverage, int, int) {
	return s.mentionsFinish(s.mentionsFirst(false, nil), rep)
}

// mentionsRead is the part of the coverage that needs no anchor's answer:
// the docs' mentions, the first reading of the code files, and the parse
// of the Go files the lexer refused where a mentioned name may be a
// top-level declaration. verify's Check runs it beside the anchors.
type mentionsRead struct {
	scans    []docScan
	bases    map[string]bool
	paths    []string
	mf       mentionFiles
	refs     map[string][]anchors.MentionRef
	deferred map[string]bool
}

// mentionsFirst computes the mentionsRead. ahead also parses, into the
// table cache, the files the finish may parse whatever the anchors'
// answers are (parseAhead). With a gate, the reading of the code files
// waits for the check's offer and tests each file for the
// repository-wide pass it shares (mentions_share.go).
func (s *Snapshot) mentionsFirst(ahead bool, gate *scanGate) *mentionsRead {
	scans, bases := s.docMentions(nil)
	mr := &mentionsRead{scans: scans, bases: bases}
	if len(bases) == 0 {
		return mr
	}
	paths := s.mentionPaths()
	mf := s.readMentionFiles(paths, bases, gate)
	found, parsed, places := mf.found, mf.parsed, mf.places
	// First the Go files the lexer refused where a mentioned name may be a
	// top-level declaration. Files of other languages wait: a name one of
	// them holds as a word is not known complete (deferred) until they
	// are parsed, and most mentions settle without them.
	refs := map[string][]anchors.MentionRef{}
	deferred := map[string]bool{}
	s.collectRefsInto(paths, found, bases, func(i int) bool {
		if parsed[i] || !places[i].top {
			return false
		}
		if lang, _ := s.Language(paths[i]); lang != symbols.Go {
			for _, n := range places[i].names {
				deferred[n] = true
			}
			return false
		}
		parsed[i] = true
		return true
	})
	mergeRefs(refs, found)
	mr.paths, mr.mf, mr.refs, mr.deferred = paths, mf, refs, deferred
	if ahead {
		s.parseAhead(mr)
	}
	return mr
}

// parseAhead parses the files mentionsFinish's second collection may
// parse: it picks those holding a name left open, and a name is open only
// if it is not final, which needs no anchor's answer (whether it is
// settled does). The tables land in the table cache, so the finish, after
// the anchors, finds them parsed; it still picks and reads as without.
func (s *Snapshot) parseAhead(mr *mentionsRead) {
	notFinal := map[string]bool{}
	for _, sc := range mr.scans {
		for _, m := range sc.ms {
			base := anchors.BaseName(m.Name)
			if !anchors.MentionFinal(m.Name, m.Call, mr.refs[base], !strings.Contains(m.Name, ".") && !mr.deferred[base]) {
				notFinal[base] = true
			}
		}
	}
	if len(notFinal) == 0 {
		return
	}
	parsed, places := mr.mf.parsed, mr.mf.places
	s.collectRefsInto(mr.paths, make([][]anchors.MentionRef, len(mr.paths)), notFinal, unparsedHolding(parsed, places, notFinal))
}

// mentionsFinish resolves the mentions of mr with the anchors' answers.
func (s *Snapshot) mentionsFinish(mr *mentionsRead, rep *Report) (MentionCoverage, int, int) {
	scans, bases := mr.scans, mr.bases
	if len(bases) == 0 {
		return summarize(scans, nil).Coverage, 0, 0
	}
	paths, mf, refs, deferred := mr.paths, mr.mf, mr.refs, mr.deferred
	parsed, places := mf.parsed, mf.places
	bound := foundBindings(rep)
	type at struct {
		doc string
		j   int
	}
	settled := map[at]bool{}
	final := 0
	open := map[string]bool{}
	for _, sc := range scans {
		for j, m := range sc.ms {
			base := anchors.BaseName(m.Name)
			switch {
			case anchors.MentionFinal(m.Name, m.Call, refs[base], !strings.Contains(m.Name, ".") && !deferred[base]):
				// A one-segment name's first tier is top-level
				// declarations: every file that may hold one was parsed.
				final++
			case !namedInPassage(m, base, sc.as, bound) && anchors.MentionSettled(m.Name, m.Call, refs[base]):
				settled[at{sc.doc, j}] = true
			default:
				open[base] = true
			}
		}
	}

	// Then the other files, for the names still open.
	s.collectRefs(paths, refs, open, unparsedHolding(parsed, places, open))
	return summarize(scans, func(sc docScan, j int) DocMention {
		if settled[at{sc.doc, j}] {
			return DocMention{Resolution: MentionAmbiguous}
		}
		m := sc.ms[j]
		return s.resolveMention(sc.doc, m, refs[anchors.BaseName(m.Name)], sc.as, bound)
	}).Coverage, len(settled) + final, mf.read
}

// namePlaces is what the prefilter saw of one file: the mentioned names
// it may declare, and whether one may be a top-level declaration.
type namePlaces struct {
	names []string
	top   bool
}

// placesOf is mayDeclareAny's answer, name by name: a Go file that lexes
// cleanly by its layout, any other by its words (then any may be top
// level).
func placesOf(lang symbols.Language, text []byte, set map[string]bool) namePlaces {
	var out namePlaces
	seen := map[string]bool{}
	if lang == symbols.Go && mentionPrefilter {
		ok := goNamePlaces(text, func(name []byte, top bool) bool {
			if set[string(name)] {
				if !seen[string(name)] {
					seen[string(name)] = true
					out.names = append(out.names, string(name))
				}
				out.top = out.top || top
			}
			return true
		})
		if ok {
			return out
		}
		out, seen = namePlaces{}, map[string]bool{}
	}
	eachCodeWord(lang, text, func(word []byte) bool {
		if w := string(word); set[w] && !seen[w] {
			seen[w] = true
			out.names = append(out.names, w)
		}
		return true
	})
	out.top = len(out.names) > 0
	return out
}

// namedInPassage: an anchor of m's passage names a declaration of base
// (as written, or where the check found it), so whether m is anchored
// depends on its candidates, not only on how many there are.
func namedInPassage(m anchors.Mention, base string, docAnchors []anchors.Anchor, found map[string]*anchors.Binding) bool {
	for _, a := range docAnchors {
		if a.Form != anchors.FormSymbol || m.Line < a.Passage.StartLine || m.Line > a.Passage.EndLine {
			continue
		}
		if anchors.BaseName(a.QualifiedName) == base {
			return true
		}
		if f := found[a.ID()]; f != nil && anchors.BaseName(f.QualifiedName) == base {
			return true
		}
	}
	return false
}

// lexedRefs are a Go file's declarations of bases as symbols.GoDeclNames
// reads them (no hashes: coverage needs none); ok is false when it does
// not read the file. asked, when set, sees every name the lexer asks
// about (a mention record keeps their hashes).
func lexedRefs(p string, text []byte, bases map[string]bool, asked func(name []byte)) ([]anchors.MentionRef, bool) {
	names, ok := symbols.GoDeclNames(text, func(name []byte) bool {
		if asked != nil {
			asked(name)
		}
		return bases[string(name)]
	})
	if !ok || len(names) == 0 {
		return nil, ok
	}
	return goNameRefs(p, goPackage(p, text), names), true
}

// unparsedHolding selects the files not parsed yet that hold one of names
// as a word (what the other languages' parse must still read).
func unparsedHolding(parsed []bool, places []namePlaces, names map[string]bool) func(i int) bool {
	return func(i int) bool {
		if parsed[i] {
			return false
		}
		for _, n := range places[i].names {
			if names[n] {
				return true
			}
		}
		return false
	}
}
