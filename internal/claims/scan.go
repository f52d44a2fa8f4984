package claims

import (
	"bytes"
	"slices"
	"strings"
	"sync"
)

// The scanner evaluates many regexes over one file in a single pass: each
// unit (line, or SQL statement) goes once through an Aho–Corasick
// automaton holding every regex's required literals, and a regex runs only
// on the units where its literals were all found. Regexes without a usable
// literal run on every unit of the files they cover. The regex alone
// decides a match, so the literals never change a verdict (FuzzScan).

// minLiteral is the shortest literal worth prefiltering on: a one-byte
// literal hits nearly every line and only costs the automaton time.
const minLiteral = 2

// scanRegex is one distinct regex of a run and its prefilter.
type scanRegex struct {
	re      *Regex
	groups  [][]int32 // literal ids: each group needs one of its literals in the unit
	trigger int       // the group whose hit wakes the regex up (the rarest)
	always  bool      // no usable literal: run on every unit
	pure    bool      // the regex is its one trigger literal: a woken unit matches
}

// scanner holds one run's automata. It is read-only once built, so the
// goroutines of a batch share it; each has its own scanState.
type scanner struct {
	regexes []scanRegex
	byRegex map[*Regex]int32
	litID   map[string]int32 // "\x00"-prefixed for folded literals
	lits    []string
	folded  []bool
	trigger [][]int32 // literal → regexes it wakes up
	exact   lazyAC    // the case-sensitive trigger literals
	fold    lazyAC    // the ASCII case-folded ones (`i`)
	exactOf []int32   // automaton pattern index → literal id
	foldOf  []int32
	rare    []int // literal → offset of its rarest byte (indexScan)
}

// lazyAC is an automaton built the first time a file needs it: when every
// file is searched literal by literal (indexScan; most multivac laws),
// building it for ~800 literals was a tenth of a run. Safe for the
// goroutines of a batch.
type lazyAC struct {
	once sync.Once
	lits []string
	fold bool
	m    *acMatcher
}

func (l *lazyAC) get() *acMatcher {
	l.once.Do(func() { l.m = newACMatcher(l.lits, l.fold) })
	return l.m
}

// scanState is one goroutine's scratch state over a scanner.
type scanState struct {
	sc *scanner
	// Generation stamps: a slot equal to the current generation is set.
	fileGen, unitGen uint32
	covers           []uint32 // regex → fileGen when the file is scanned for it
	woken            []uint32 // regex → unitGen when already tried on this unit
	hitGen           []uint32 // literal → unitGen when found in this unit
	hits             []int32
	woke, always     []int32
	lits             []int32 // fewLiterals' answer
	events           []wakeEvent
	parts            [scanParts][]wakeEvent // wakeScan's, per part
}

func (sc *scanner) newState() *scanState {
	return &scanState{sc: sc, covers: make([]uint32, len(sc.regexes)),
		woken: make([]uint32, len(sc.regexes)), hitGen: make([]uint32, len(sc.lits))}
}

// nextUnit starts a unit: a new generation, the stamps cleared on the
// (theoretical) wrap so no stale stamp reads as set.
func (st *scanState) nextUnit() {
	st.unitGen++
	if st.unitGen == 0 {
		clear(st.woken)
		clear(st.hitGen)
		st.unitGen = 1
	}
}

// newScanner prepares the automata for every regex of a run.
func newScanner(res []*Regex) *scanner {
	sc := &scanner{byRegex: make(map[*Regex]int32, len(res)), litID: make(map[string]int32, len(res)), regexes: make([]scanRegex, 0, len(res))}
	for _, re := range res {
		if _, ok := sc.byRegex[re]; ok {
			continue
		}
		sc.byRegex[re] = int32(len(sc.regexes))
		sr := scanRegex{re: re}
		for _, g := range re.lits {
			if ids, ok := sc.group(g, re.fold); ok {
				sr.groups = append(sr.groups, ids)
			}
		}
		sr.always = len(sr.groups) == 0
		sr.pure = re.pure != "" && len(sr.groups) == 1 && len(sr.groups[0]) == 1 && sc.lits[sr.groups[0][0]] == re.pure && !sc.folded[sr.groups[0][0]]
		sc.regexes = append(sc.regexes, sr)
	}
	// Wake each regex on its rarest group: the one whose literals the
	// fewest regexes share.
	use := make([]int, len(sc.lits))
	for _, sr := range sc.regexes {
		for _, g := range sr.groups {
			for _, id := range g {
				use[id]++
			}
		}
	}
	sc.trigger = make([][]int32, len(sc.lits))
	for i := range sc.regexes {
		sr := &sc.regexes[i]
		best, bestScore := -1, 0
		for gi, g := range sr.groups {
			score := 0
			for _, id := range g {
				score += use[id]
			}
			if best < 0 || score < bestScore {
				best, bestScore = gi, score
			}
		}
		sr.trigger = best
		if best >= 0 {
			for _, id := range sr.groups[best] {
				sc.trigger[id] = append(sc.trigger[id], int32(i))
			}
		}
	}
	// Only the trigger literals go into the automata: the other groups are
	// checked on the few units a trigger wakes up.
	var exact, fold []string
	for id, l := range sc.lits {
		if len(sc.trigger[id]) == 0 {
			continue
		}
		if sc.folded[id] {
			fold = append(fold, l)
			sc.foldOf = append(sc.foldOf, int32(id))
		} else {
			exact = append(exact, l)
			sc.exactOf = append(sc.exactOf, int32(id))
		}
	}
	sc.exact.lits, sc.fold.lits, sc.fold.fold = exact, fold, true
	sc.rare = make([]int, len(sc.lits))
	for id, l := range sc.lits {
		sc.rare[id] = rarestByte(l)
	}
	return sc
}

// group interns one literal group; ok=false when a literal is too short
// to be worth it (the group is then dropped: a weaker filter, never a
// wrong one).
func (sc *scanner) group(g []string, fold bool) ([]int32, bool) {
	ids := make([]int32, 0, len(g))
	for _, l := range g {
		if len(l) < minLiteral {
			return nil, false
		}
		key := l
		if fold {
			key = "\x00" + l
		}
		id, ok := sc.litID[key]
		if !ok {
			id = int32(len(sc.lits))
			sc.litID[key] = id
			sc.lits = append(sc.lits, l)
			sc.folded = append(sc.folded, fold)
		}
		ids = append(ids, id)
	}
	return ids, true
}

// scanFile runs the regexes rids over one file's content and calls match
// once per matching unit and regex; each regex's units come in order. A
// binary file matches nothing.
func (st *scanState) scanFile(path string, content []byte, rids []int32, match func(rid int32, line int)) {
	sc := st.sc
	if IsBinary(content) || len(rids) == 0 {
		return
	}
	st.fileGen++
	if st.fileGen == 0 {
		clear(st.covers)
		st.fileGen = 1
	}
	always := st.always[:0]
	needExact, needFold := false, false
	for _, rid := range rids {
		st.covers[rid] = st.fileGen
		sr := &sc.regexes[rid]
		if sr.always {
			always = append(always, rid)
			continue
		}
		if g := sr.groups[sr.trigger]; sc.folded[g[0]] {
			needFold = true
		} else {
			needExact = true
		}
	}
	st.always = always
	if isSQLPath(path) {
		st.scanStatements(content, always, needExact, needFold, match)
		return
	}
	// Only lines holding a trigger literal can match a regex that has one:
	// one pass per automaton over the whole file (a regex's trigger is in
	// exactly one of them, so each regex's lines come in order). A file
	// that only a few literals concern (most legs name one file) is
	// searched for each of them instead, jumping between its rarest byte's
	// occurrences: far fewer steps than one a byte.
	if needExact {
		if lits, few := st.fewLiterals(rids); few {
			st.indexScan(lits, content, match)
		} else {
			st.wakeScan(sc.exact.get(), sc.exactOf, content, match)
		}
	}
	if needFold {
		st.wakeScan(sc.fold.get(), sc.foldOf, content, match)
	}
	if len(always) > 0 {
		eachLine(content, func(line []byte, n int) {
			for _, rid := range always {
				if sc.regexes[rid].re.matchUnit(line, "") {
					match(rid, n)
				}
			}
		})
	}
}

// wakeScan goes once through a non-SQL file with one automaton. A literal
// hit records its line for the regexes it triggers that cover this file
// (a hit for a regex of another file costs a table look-up); the lines
// are then tried in order, each once (tryEvents). A line break leads back
// to the root, so no literal spans lines and a line without a hit costs
// one step a byte.
//
// A step waits for the one before it (the next state is a load indexed by
// the current one), so the file is cut at line breaks into four parts and
// all four are walked in the same loop: independent chains keep the core
// busy where one waits on its loads.
func (st *scanState) wakeScan(m *acMatcher, of []int32, content []byte, match func(rid int32, line int)) {
	var cut [scanParts + 1]int
	for k := 1; k < scanParts; k++ {
		cut[k] = len(content)
		if at := max(cut[k-1], len(content)*k/scanParts); len(content) >= splitScanMin && at < len(content) {
			if j := bytes.IndexByte(content[at:], '\n'); j >= 0 {
				cut[k] = at + j + 1
			}
		}
	}
	cut[scanParts] = len(content)
	p0, p1, p2, p3 := content[cut[0]:cut[1]], content[cut[1]:cut[2]], content[cut[2]:cut[3]], content[cut[3]:]
	next, class, special := m.next, &m.class, m.special
	ev := &st.parts
	for k := range ev {
		ev[k] = ev[k][:0]
	}
	var o0, o1, o2, o3 int32
	n := min(len(p0), len(p1), len(p2), len(p3))
	for i := 0; i < n; i++ {
		o0 = next[o0+int32(class[p0[i]])]
		o1 = next[o1+int32(class[p1[i]])]
		o2 = next[o2+int32(class[p2[i]])]
		o3 = next[o3+int32(class[p3[i]])]
		if o0 >= special || o1 >= special || o2 >= special || o3 >= special {
			if o0 >= special {
				ev[0] = st.wake(m, of, o0, content, cut[0]+i, ev[0])
			}
			if o1 >= special {
				ev[1] = st.wake(m, of, o1, content, cut[1]+i, ev[1])
			}
			if o2 >= special {
				ev[2] = st.wake(m, of, o2, content, cut[2]+i, ev[2])
			}
			if o3 >= special {
				ev[3] = st.wake(m, of, o3, content, cut[3]+i, ev[3])
			}
		}
	}
	// What is left of each part, one at a time, from where it stopped.
	for k, o := range [scanParts]int32{o0, o1, o2, o3} {
		for i := cut[k] + n; i < cut[k+1]; i++ {
			if o = next[o+int32(class[content[i]])]; o >= special {
				ev[k] = st.wake(m, of, o, content, i, ev[k])
			}
		}
	}
	all := st.events[:0]
	for k := range ev {
		all = append(all, ev[k]...) // each part's lines come after the one before's
	}
	st.tryEvents(all, content, match)
}

// scanParts is how many parts wakeScan walks at once.
const scanParts = 4

// splitScanMin is the shortest file wakeScan cuts in parts; tests set it to
// 0 (every file cut) and past any file (none cut) and compare.
var splitScanMin = 512

// wake records, for a literal hit ending at byte at, the line it is on
// for each regex its literals trigger that covers this file.
func (st *scanState) wake(m *acMatcher, of []int32, off int32, content []byte, at int, ev []wakeEvent) []wakeEvent {
	ls := int32(-1)
	for _, p := range m.outputs(off) {
		for _, rid := range st.sc.trigger[of[p]] {
			if st.covers[rid] != st.fileGen {
				continue
			}
			if ls < 0 {
				ls = int32(bytes.LastIndexByte(content[:at], '\n') + 1)
			}
			if k := len(ev); k > 0 && ev[k-1] == (wakeEvent{ls, rid}) {
				continue // the same literal again on this line
			}
			ev = append(ev, wakeEvent{ls, rid})
		}
	}
	return ev
}

// fewIndexLiterals is the most trigger literals a file is searched for
// one by one (indexScan); past it the automaton's single pass is cheaper.
// Tests set it to 0 to run the automaton on everything.
var fewIndexLiterals = 6

// fewLiterals lists the distinct exact trigger literals of the regexes
// rids, when there are at most fewIndexLiterals of them.
func (st *scanState) fewLiterals(rids []int32) ([]int32, bool) {
	sc := st.sc
	lits := st.lits[:0]
	for _, rid := range rids {
		sr := &sc.regexes[rid]
		if sr.always {
			continue
		}
		g := sr.groups[sr.trigger]
		if sc.folded[g[0]] {
			continue
		}
		for _, id := range g {
			if !slices.Contains(lits, id) {
				if len(lits) == fewIndexLiterals {
					st.lits = lits
					return nil, false
				}
				lits = append(lits, id)
			}
		}
	}
	st.lits = lits
	return lits, true
}

// wakeEvent: the line starting at start holds a trigger literal of rid.
type wakeEvent struct{ start, rid int32 }

// indexScan is wakeScan's result by searching the file for each literal:
// the line of every occurrence wakes the literal's regexes that cover the
// file; the lines are then tried in order, each once.
func (st *scanState) indexScan(lits []int32, content []byte, match func(rid int32, line int)) {
	sc := st.sc
	ev := st.events[:0]
	for _, id := range lits {
		lit, r := sc.lits[id], sc.rare[id]
		for from := 0; from+len(lit) <= len(content); {
			j := bytes.IndexByte(content[from+r:], lit[r])
			if j < 0 {
				break
			}
			start := from + j
			if start+len(lit) > len(content) {
				break
			}
			if string(content[start:start+len(lit)]) != lit {
				from = start + 1
				continue
			}
			ls := bytes.LastIndexByte(content[:start], '\n') + 1
			for _, rid := range sc.trigger[id] {
				if st.covers[rid] == st.fileGen {
					ev = append(ev, wakeEvent{int32(ls), rid})
				}
			}
			next := bytes.IndexByte(content[start:], '\n') // one wake a line: go on past it
			if next < 0 {
				break
			}
			from = start + next + 1
		}
	}
	slices.SortFunc(ev, func(a, b wakeEvent) int {
		if a.start != b.start {
			return int(a.start - b.start)
		}
		return int(a.rid - b.rid)
	})
	st.tryEvents(ev, content, match)
}

// tryEvents tries each woken line once, in order, with the regexes woken
// on it (events sorted by line start).
func (st *scanState) tryEvents(ev []wakeEvent, content []byte, match func(rid int32, line int)) {
	line, pos := 1, 0
	for i := 0; i < len(ev); {
		ls := int(ev[i].start)
		line += bytes.Count(content[pos:ls], newline)
		pos = ls
		end := bytes.IndexByte(content[ls:], '\n')
		if end < 0 {
			end = len(content)
		} else {
			end += ls
		}
		st.nextUnit() // no literal stamped: allGroups looks the other groups up
		woke := st.woke[:0]
		for ; i < len(ev) && int(ev[i].start) == ls; i++ {
			if rid := ev[i].rid; st.woken[rid] != st.unitGen {
				st.woken[rid] = st.unitGen
				woke = append(woke, rid)
			}
		}
		st.tryLine(content[ls:end], line, woke, match)
		st.woke = woke[:0]
	}
	st.events = ev[:0]
}

var newline = []byte{'\n'}

// rarestByte is the offset of the byte of lit least likely in source text
// (a rough rank: spaces and common letters first, then other letters,
// punctuation, digits, capitals, rare symbols, non-ASCII), the one
// indexScan jumps to.
func rarestByte(lit string) int {
	best, bestRank := 0, 1<<30
	for i := 0; i < len(lit); i++ {
		if r := byteRank(lit[i]); r < bestRank {
			best, bestRank = i, r
		}
	}
	return best
}

func byteRank(c byte) int {
	switch {
	case c == ' ' || strings.IndexByte("etaoinsrl", c) >= 0:
		return 100
	case c >= 'a' && c <= 'z':
		return 60
	case strings.IndexByte("();,.=\"'_:{}/-\t", c) >= 0:
		return 40
	case c >= '0' && c <= '9':
		return 30
	case c >= 'A' && c <= 'Z':
		return 25
	case c < 0x80:
		return 15
	}
	return 5
}

// tryLine runs the woken regexes on one line (its `\r` dropped; a line
// holding a complete anchor comment is no unit).
func (st *scanState) tryLine(text []byte, line int, woke []int32, match func(rid int32, line int)) {
	if len(text) > 0 && text[len(text)-1] == '\r' {
		text = text[:len(text)-1]
	}
	if bytes.Contains(text, anchorClose) && openerRe().Match(text) {
		return
	}
	for _, rid := range woke {
		if sr := &st.sc.regexes[rid]; sr.pure || st.allGroups(rid, text, "") && sr.re.matchUnit(text, "") {
			match(rid, line)
		}
	}
}

// scanStatements is scanFile over a .sql file's statements: each goes
// through the automata (statements are rebuilt text, so there is no
// whole-file pass to jump in).
func (st *scanState) scanStatements(content []byte, always []int32, needExact, needFold bool, match func(rid int32, line int)) {
	sc := st.sc
	eachStatement(string(content), func(stmt Statement) {
		s := stmt.Text
		st.nextUnit()
		st.hits = st.hits[:0]
		if needExact {
			st.find(sc.exact.get(), sc.exactOf, s)
		}
		if needFold {
			st.find(sc.fold.get(), sc.foldOf, s)
		}
		for _, lit := range st.hits {
			for _, rid := range sc.trigger[lit] {
				if st.covers[rid] != st.fileGen || st.woken[rid] == st.unitGen {
					continue
				}
				st.woken[rid] = st.unitGen
				if sr := &sc.regexes[rid]; sr.pure || st.allGroups(rid, nil, s) && sr.re.matchUnit(nil, s) {
					match(rid, stmt.Line)
				}
			}
		}
		for _, rid := range always {
			if sc.regexes[rid].re.matchUnit(nil, s) {
				match(rid, stmt.Line)
			}
		}
	})
}

// find records the literals of one automaton found in a statement.
func (st *scanState) find(m *acMatcher, of []int32, s string) {
	m.scanString(s, func(p int32) {
		id := of[p]
		if st.hitGen[id] != st.unitGen {
			st.hitGen[id] = st.unitGen
			st.hits = append(st.hits, id)
		}
	})
}

// allGroups: every literal group of the regex occurs in this unit (the
// trigger group woke it; the others are looked for in the unit's text).
func (st *scanState) allGroups(rid int32, b []byte, s string) bool {
	sc := st.sc
	sr := &sc.regexes[rid]
	for gi, g := range sr.groups {
		if gi == sr.trigger {
			continue
		}
		found := false
		for _, id := range g {
			if st.hitGen[id] == st.unitGen || sc.contains(id, b, s) {
				found = true
				break
			}
		}
		if !found {
			return false
		}
	}
	return true
}

// contains looks for one literal in a unit (ASCII case-folded for `i`).
func (sc *scanner) contains(id int32, b []byte, s string) bool {
	lit := sc.lits[id]
	if b == nil {
		b = []byte(s) // a statement: rare, only for woken regexes
	}
	if !sc.folded[id] {
		return bytes.Contains(b, []byte(lit))
	}
	for i := 0; i+len(lit) <= len(b); i++ {
		j := 0
		for j < len(lit) && asciiLower(b[i+j]) == lit[j] {
			j++
		}
		if j == len(lit) {
			return true
		}
	}
	return false
}

func asciiLower(c byte) byte {
	if c >= 'A' && c <= 'Z' {
		return c + 'a' - 'A'
	}
	return c
}

// matchUnit tests one unit, given as bytes (a line) or a string (a statement).
func (r *Regex) matchUnit(b []byte, s string) bool {
	re := r.prog.get()
	if hasAstral(b, s) { // JavaScript's UTF-16 reading (jsfold.go)
		return re.MatchString(utf16View(b, s))
	}
	if b != nil {
		return re.Match(b)
	}
	return re.MatchString(s)
}

// eachLine calls fn for every line of a non-SQL file (docs/claims.md): split
// on `\n`, a `\r` before it dropped, a complete anchor comment skipped
// (MV-82), and no extra empty line after a final newline. It streams: no
// line is copied.
func eachLine(content []byte, fn func(line []byte, n int)) {
	n := 0
	for start := 0; start <= len(content); {
		n++
		end := bytes.IndexByte(content[start:], '\n')
		last := end < 0
		if last {
			if start == len(content) && start > 0 {
				return // the file ended with its newline
			}
			end = len(content)
		} else {
			end += start
		}
		line := content[start:end]
		if len(line) > 0 && line[len(line)-1] == '\r' {
			line = line[:len(line)-1]
		}
		if !(bytes.Contains(line, anchorClose) && openerRe().Match(line)) {
			if line == nil {
				line = []byte{}
			}
			fn(line, n)
		}
		if last {
			return
		}
		start = end + 1
	}
}

var anchorClose = []byte("-->")
