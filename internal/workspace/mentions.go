package workspace

import (
	"bytes"
	"path"
	"sort"
	"strconv"

	"github.com/clew-lsp/clew-lsp/internal/anchors"
	"github.com/clew-lsp/clew-lsp/internal/anchors/symbols"
)

// Mentions: the backticked identifiers of the docs' prose, resolved against
// the declaration tables of every code file of the workspace. "Anchor this
// passage" (the editor), `clew-lsp suggest` and verify's mention coverage
// all ask these functions (docs/anchors.md#mentions).

// MaxMentionTargets bounds the targets listed (and the actions offered) for
// an ambiguous mention.
const MaxMentionTargets = 5

// Resolutions of a mention.
const (
	MentionUnique     = "unique"
	MentionAmbiguous  = "ambiguous"
	MentionUnresolved = "unresolved"
)

// MentionTarget is one declaration a mention names, with the pinned anchor
// line that binds a passage to it.
type MentionTarget struct {
	Kind          string `json:"kind"`
	QualifiedName string `json:"qualified_name"`
	Path          string `json:"path"`
	LineStart     int    `json:"line_start"`
	Anchor        string `json:"anchor"`
}

// Title names the target as editors do: "method Cache.Lookup".
func (t MentionTarget) Title() string { return t.Kind + " " + t.QualifiedName }

// DocMention is one mention of a doc and what it resolves to.
type DocMention struct {
	Doc     string `json:"doc"`
	Line    int    `json:"line"`
	Column  int    `json:"column"` // 1-based byte column of the opening backtick
	Mention string `json:"mention"`
	Name    string `json:"name"`
	// Resolution is unique, ambiguous or unresolved.
	Resolution string `json:"resolution"`
	// Candidates is how many declarations the name matched; Targets lists
	// them, at most MaxMentionTargets, sorted by path and line.
	Candidates int             `json:"candidates"`
	Targets    []MentionTarget `json:"targets"`
	// Anchored: the passage already has an anchor to one of the targets.
	Anchored bool `json:"anchored"`
	// Passage is the heading of the passage ("" before the first one);
	// InsertLine is the line an inserted anchor takes.
	Passage    string `json:"passage"`
	InsertLine int    `json:"insert_line"`

	StartByte int `json:"-"`
	EndByte   int `json:"-"`

	m anchors.Mention
}

// MentionStats counts mentions by resolution.
type MentionStats struct {
	Found      int `json:"found"`
	Unique     int `json:"unique"`
	Ambiguous  int `json:"ambiguous"`
	Unresolved int `json:"unresolved"`
	// Anchored counts the resolved mentions whose passage already has an
	// anchor to them.
	Anchored int `json:"anchored"`
}

// MentionCoverage is verify's mention coverage: passages whose resolvable
// (unique or ambiguous) mentions are all anchored, out of the passages
// that hold one.
type MentionCoverage struct {
	Passages int     `json:"passages"`
	Anchored int     `json:"anchored"`
	Share    float64 `json:"share"`
	// Mentions are the counts behind it.
	Mentions MentionStats `json:"mentions"`
}

// MentionScan is every mention of the scanned docs, in doc and offset
// order, with the counts.
type MentionScan struct {
	Mentions []DocMention
	Stats    MentionStats
	Coverage MentionCoverage
}

// Suggestions are what `clew-lsp suggest --json` and the MCP tool
// suggest_anchors answer: the mentions that name code and whose passage
// has no anchor to it yet (unique or ambiguous), and the counts of all.
type Suggestions struct {
	Mentions []DocMention `json:"mentions"`
	Stats    MentionStats `json:"stats"`
}

// Suggestions keeps the scan's unanchored, resolved mentions.
func (sc MentionScan) Suggestions() Suggestions {
	out := Suggestions{Mentions: []DocMention{}, Stats: sc.Stats}
	for _, dm := range sc.Mentions {
		if !dm.Anchored && dm.Resolution != MentionUnresolved {
			out.Mentions = append(out.Mentions, dm)
		}
	}
	return out
}

// ScanMentions resolves the mentions of docs (all docs when nil). rep, when
// given, lets an anchor that moved count for its found target.
func (s *Snapshot) ScanMentions(docs []string, rep *Report) MentionScan {
	scans, bases := s.docMentions(docs)
	refs := s.mentionRefs(bases)
	found := foundBindings(rep)
	return summarize(scans, func(sc docScan, j int) DocMention {
		m := sc.ms[j]
		return s.resolveMention(sc.doc, m, refs[anchors.BaseName(m.Name)], sc.as, found)
	})
}

// docScan is one doc's mentions and anchors.
type docScan struct {
	doc string
	ms  []anchors.Mention
	as  []anchors.Anchor
}

// docMentions scans docs (all docs when nil) for mentions, and returns
// their base names.
func (s *Snapshot) docMentions(docs []string) ([]docScan, map[string]bool) {
	if docs == nil {
		docs = s.Docs()
	}
	var scans []docScan
	bases := map[string]bool{}
	for _, doc := range docs {
		text, st, sum := s.readDoc(doc)
		if st != anchors.FileOK {
			continue
		}
		ms := anchors.ScanMentionsText(text.text())
		for _, m := range ms {
			bases[anchors.BaseName(m.Name)] = true
		}
		scans = append(scans, docScan{doc, ms, s.tables.parseDocSum(doc, text, sum).anchors})
	}
	return scans, bases
}

// summarize resolves every mention of scans with resolve and counts them.
func summarize(scans []docScan, resolve func(sc docScan, j int) DocMention) MentionScan {
	var out MentionScan
	type passageKey struct {
		doc  string
		line int
	}
	passages := map[passageKey]bool{} // resolvable passage → all anchored so far
	var order []passageKey
	for _, sc := range scans {
		for j, m := range sc.ms {
			dm := resolve(sc, j)
			out.Mentions = append(out.Mentions, dm)
			out.Stats.add(dm)
			if dm.Resolution == MentionUnresolved {
				continue
			}
			k := passageKey{sc.doc, m.Passage.StartLine}
			all, seen := passages[k]
			if !seen {
				order = append(order, k)
				all = true
			}
			passages[k] = all && dm.Anchored
		}
	}
	out.Coverage.Passages = len(order)
	for _, k := range order {
		if passages[k] {
			out.Coverage.Anchored++
		}
	}
	if out.Coverage.Passages > 0 {
		out.Coverage.Share = float64(int(float64(out.Coverage.Anchored)/float64(out.Coverage.Passages)*10000+0.5)) / 10000
	}
	out.Coverage.Mentions = out.Stats
	return out
}

func (st *MentionStats) add(dm DocMention) {
	st.Found++
	switch dm.Resolution {
	case MentionUnique:
		st.Unique++
	case MentionAmbiguous:
		st.Ambiguous++
	default:
		st.Unresolved++
	}
	if dm.Anchored {
		st.Anchored++
	}
}

// MentionAt is the mention whose code span holds byte offset off of doc,
// resolved; ok is false when the offset is on none.
func (s *Snapshot) MentionAt(doc string, off int, rep *Report) (DocMention, bool) {
	text, ok := s.Text(doc)
	if !ok {
		return DocMention{}, false
	}
	for _, m := range anchors.ScanMentions(text) {
		if off < m.StartByte || off > m.EndByte {
			continue
		}
		base := anchors.BaseName(m.Name)
		refs := s.mentionRefs(map[string]bool{base: true})
		return s.resolveMention(doc, m, refs[base], s.tables.parseDoc(doc, text).anchors, foundBindings(rep)), true
	}
	return DocMention{}, false
}

// MentionEdit is the doc edit that anchors dm's passage to target: the
// pinned anchor line after the mention's block. ok is false when the
// anchor would not be read there as an anchor of that passage (the doc's
// structure is one the insertion rule does not cover); nothing is offered
// then rather than a line the parser would skip.
func (s *Snapshot) MentionEdit(dm DocMention, target MentionTarget) (DocEdit, bool) {
	text, ok := s.Text(dm.Doc)
	if !ok {
		return DocEdit{}, false
	}
	e := anchors.MentionInsertEdit(text, dm.m, target.Anchor)
	if !insertionReads(dm.Doc, text, []anchors.Edit{e}, []anchors.Mention{dm.m}) {
		return DocEdit{}, false
	}
	return DocEdit{Doc: dm.Doc, Edits: []anchors.Edit{e}}, true
}

// SuggestEdits are the insertions `suggest --write` makes: for every
// unique, unanchored mention, one pinned anchor per passage and target,
// after the block of its first mention there. A doc whose insertions would
// not all be read back as anchors of their passages gets none.
func (s *Snapshot) SuggestEdits(scan MentionScan) []DocEdit {
	byDoc := map[string][]anchors.Edit{}
	ms := map[string][]anchors.Mention{}
	done := map[string]bool{}
	for _, dm := range scan.Mentions {
		if dm.Resolution != MentionUnique || dm.Anchored {
			continue
		}
		t := dm.Targets[0]
		key := dm.Doc + "\x00" + strconv.Itoa(dm.m.Passage.StartLine) + "\x00" + t.Anchor
		if done[key] {
			continue
		}
		done[key] = true
		text, ok := s.Text(dm.Doc)
		if !ok {
			continue
		}
		byDoc[dm.Doc] = append(byDoc[dm.Doc], anchors.MentionInsertEdit(text, dm.m, t.Anchor))
		ms[dm.Doc] = append(ms[dm.Doc], dm.m)
	}
	var out []DocEdit
	for doc, edits := range byDoc {
		text, _ := s.Text(doc)
		if insertionReads(doc, text, edits, ms[doc]) {
			out = append(out, DocEdit{Doc: doc, Edits: edits})
		}
	}
	sort.Slice(out, func(i, j int) bool { return out[i].Doc < out[j].Doc })
	return out
}

// insertionReads re-parses the doc with the insertions applied and checks
// that each is read as an anchor in its mention's passage.
func insertionReads(doc string, text []byte, edits []anchors.Edit, ms []anchors.Mention) bool {
	before, _ := anchors.ParseDoc(doc, text)
	after, _ := anchors.ParseDoc(doc, anchors.ApplyEdits(text, edits))
	if len(after) != len(before)+len(edits) {
		return false
	}
	// Line numbers after the insertions: each insertion shifts the later
	// lines by one.
	for i, m := range ms {
		line := m.InsertLine
		for j, o := range ms {
			if o.InsertLine < m.InsertLine || o.InsertLine == m.InsertLine && j < i {
				line++
			}
		}
		var hit bool
		for _, a := range after {
			if a.Line == line && a.Passage.Heading == m.Passage.Heading && a.Passage.Level == m.Passage.Level {
				hit = true
				break
			}
		}
		if !hit {
			return false
		}
	}
	return true
}

func (s *Snapshot) resolveMention(doc string, m anchors.Mention, refs []anchors.MentionRef, docAnchors []anchors.Anchor, found map[string]*anchors.Binding) DocMention {
	dm := DocMention{Doc: doc, Line: m.Line, Column: m.Col, Mention: m.Text, Name: m.Name,
		Passage: m.Passage.Heading, InsertLine: m.InsertLine, StartByte: m.StartByte, EndByte: m.EndByte, m: m,
		Targets: []MentionTarget{}}
	hits := anchors.ResolveMention(m.Name, m.Call, refs)
	dm.Candidates = len(hits)
	switch len(hits) {
	case 0:
		dm.Resolution = MentionUnresolved
		return dm
	case 1:
		dm.Resolution = MentionUnique
	default:
		dm.Resolution = MentionAmbiguous
	}
	for _, h := range hits {
		if anchoredIn(m, h, docAnchors, found) {
			dm.Anchored = true
		}
	}
	for _, h := range hits[:min(len(hits), MaxMentionTargets)] {
		d := h.Decl
		b := anchors.Binding{Form: anchors.FormSymbol, Kind: d.Kind, QualifiedName: d.QualifiedName, Path: h.Path,
			StartLine: d.StartLine, EndLine: d.EndLine, DeclHash: d.DeclHash, BodyHash: d.BodyHash}
		dm.Targets = append(dm.Targets, MentionTarget{Kind: d.Kind, QualifiedName: d.QualifiedName, Path: h.Path,
			LineStart: d.StartLine, Anchor: anchors.FormatAnchor(b, true)})
	}
	return dm
}

// anchoredIn: an anchor whose passage holds the mention names the
// declaration (as written, or where the check found it).
func anchoredIn(m anchors.Mention, h anchors.Ref, docAnchors []anchors.Anchor, found map[string]*anchors.Binding) bool {
	for _, a := range docAnchors {
		if a.Form != anchors.FormSymbol || m.Line < a.Passage.StartLine || m.Line > a.Passage.EndLine {
			continue
		}
		if a.QualifiedName == h.Decl.QualifiedName && a.Path == h.Path && anchors.KindNames(h.Path, a.Kind, h.Decl.Kind) {
			return true
		}
		if f := found[a.ID()]; f != nil && f.QualifiedName == h.Decl.QualifiedName && f.Path == h.Path {
			return true
		}
	}
	return false
}

func foundBindings(rep *Report) map[string]*anchors.Binding {
	out := map[string]*anchors.Binding{}
	if rep == nil {
		return out
	}
	for _, a := range rep.Anchors {
		if a.Found != nil {
			out[a.ID] = a.Found
		}
	}
	return out
}

// mentionRefs reads every code file that may declare one of the base names
// (mayDeclareAny) and returns its declarations of those names, by base name. Files
// without a grammar, configuration files and docs are not read; a file
// too large or binary is skipped as the check skips it.
func (s *Snapshot) mentionRefs(bases map[string]bool) map[string][]anchors.MentionRef {
	out := map[string][]anchors.MentionRef{}
	if len(bases) == 0 {
		return out
	}
	names := make([][]byte, 0, len(bases))
	for b := range bases {
		names = append(names, []byte(b))
	}
	paths := s.mentionPaths()
	// Read, filter and parse on every processor; merge in path order.
	found := make([][]anchors.MentionRef, len(paths))
	parallel(len(paths), func(i int) {
		p := paths[i]
		text, st := s.readUncached(p)
		lang, _ := s.Language(p)
		if st != anchors.FileOK || !mayDeclareAny(lang, text, names, bases) {
			return
		}
		found[i] = s.refsIn(p, lang, text, bases)
	})
	mergeRefs(out, found)
	return out
}

// mentionPaths are the files mentions may name declarations of: code files
// with a grammar, configuration files and docs left out.
func (s *Snapshot) mentionPaths() []string {
	var paths []string
	for _, p := range s.Files() {
		if lang, ok := s.Language(p); ok && !symbols.IsKeyLanguage(lang) && !s.config.IsDoc(p) {
			paths = append(paths, p)
		}
	}
	return paths
}

// refsIn are the declarations of one file whose base name is in bases.
func (s *Snapshot) refsIn(p string, lang symbols.Language, text []byte, bases map[string]bool) []anchors.MentionRef {
	pkg := path.Base(path.Dir(p))
	if lang == symbols.Go {
		pkg = goPackage(p, text)
	}
	var out []anchors.MentionRef
	decls := s.tables.parse(lang, text).Decls
	for j := range decls {
		if bases[anchors.BaseName(decls[j].QualifiedName)] {
			out = append(out, anchors.MentionRef{Ref: anchors.Ref{Path: p, Decl: &decls[j]}, Package: pkg})
		}
	}
	return out
}

// goPackage is a Go file's package clause's name, else its directory's.
func goPackage(p string, text []byte) string {
	if name := packageClause(text); name != nil {
		return string(name)
	}
	return path.Base(path.Dir(p))
}

// packageClause is the name of the first line that reads `package`,
// spaces or tabs, and an ASCII identifier (the regular expression
// (?m)^package[ \t]+([A-Za-z_][A-Za-z0-9_]*), which it replaces: it ran
// over every Go file mention coverage reads, 1.5 % of a cold verify), or
// nil. bytes.Index finds each candidate.
func packageClause(text []byte) []byte {
	for i := 0; ; {
		k := bytes.Index(text[i:], []byte("package"))
		if k < 0 {
			return nil
		}
		at := i + k
		i = at + 1
		if at > 0 && text[at-1] != '\n' {
			continue
		}
		j := at + len("package")
		sp := j
		for j < len(text) && (text[j] == ' ' || text[j] == '\t') {
			j++
		}
		if j == sp || j >= len(text) || !(text[j] == '_' || text[j] >= 'a' && text[j] <= 'z' || text[j] >= 'A' && text[j] <= 'Z') {
			continue
		}
		e := j + 1
		for e < len(text) && (text[e] == '_' || text[e] >= 'a' && text[e] <= 'z' || text[e] >= 'A' && text[e] <= 'Z' || text[e] >= '0' && text[e] <= '9') {
			e++
		}
		return text[j:e]
	}
}

// collectRefs parses, on every processor, the paths pick chooses (asked in
// path order, before any parse) and adds their declarations of bases to
// refs, in path order.
func (s *Snapshot) collectRefs(paths []string, refs map[string][]anchors.MentionRef, bases map[string]bool, pick func(i int) bool) {
	found := make([][]anchors.MentionRef, len(paths))
	s.collectRefsInto(paths, found, bases, pick)
	mergeRefs(refs, found)
}

// collectRefsInto is collectRefs's parse: found[i] gets the declarations
// of bases of each picked path.
func (s *Snapshot) collectRefsInto(paths []string, found [][]anchors.MentionRef, bases map[string]bool, pick func(i int) bool) {
	var picked []int
	for i := range paths {
		if pick(i) {
			picked = append(picked, i)
		}
	}
	parallel(len(picked), func(k int) {
		p := paths[picked[k]]
		if text, st := s.readUncached(p); st == anchors.FileOK {
			lang, _ := s.Language(p)
			found[picked[k]] = s.refsIn(p, lang, text, bases)
		}
	})
}

func mergeRefs(out map[string][]anchors.MentionRef, found [][]anchors.MentionRef) {
	for _, refs := range found {
		for _, r := range refs {
			b := anchors.BaseName(r.Decl.QualifiedName)
			out[b] = append(out[b], r)
		}
	}
}

// holdsAnyWord: few names are looked up one by one; many by reading the
// text's words once.
func holdsAnyWord(text []byte, names [][]byte, set map[string]bool) bool {
	if len(names) <= 8 {
		for _, n := range names {
			if declaresName(text, n, false) {
				return true
			}
		}
		return false
	}
	found := false
	eachWord(text, func(word []byte) bool {
		found = set[string(word)]
		return !found
	})
	return found
}
