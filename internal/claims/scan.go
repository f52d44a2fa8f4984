package claims

import (
	"bytes"
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
}

// scanner holds one run's automata and scratch state. It is used by one
// goroutine at a time.
type scanner struct {
	regexes []scanRegex
	byRegex map[*Regex]int32
	litID   map[string]int32 // "\x00"-prefixed for folded literals
	lits    []string
	folded  []bool
	trigger [][]int32 // literal → regexes it wakes up
	exact   *acMatcher
	fold    *acMatcher
	exactOf []int32 // automaton pattern index → literal id
	foldOf  []int32

	// Generation stamps: a slot equal to the current generation is set.
	fileGen, unitGen uint32
	covers           []uint32 // regex → fileGen when the file is scanned for it
	woken            []uint32 // regex → unitGen when already tried on this unit
	hitGen           []uint32 // literal → unitGen when found in this unit
	hits             []int32
}

// newScanner prepares the automata for every regex of a run.
func newScanner(res []*Regex) *scanner {
	sc := &scanner{byRegex: map[*Regex]int32{}, litID: map[string]int32{}}
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
	inTrigger := make([]bool, len(sc.lits))
	for id := range sc.trigger {
		inTrigger[id] = len(sc.trigger[id]) > 0
	}
	var exact, fold []string
	for id, l := range sc.lits {
		if !inTrigger[id] {
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
	if len(exact) > 0 {
		sc.exact = newACMatcher(exact, false)
	}
	if len(fold) > 0 {
		sc.fold = newACMatcher(fold, true)
	}
	sc.covers = make([]uint32, len(sc.regexes))
	sc.woken = make([]uint32, len(sc.regexes))
	sc.hitGen = make([]uint32, len(sc.lits))
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
// once per matching unit and regex, units in order. A binary file matches
// nothing.
func (sc *scanner) scanFile(path string, content []byte, rids []int32, match func(rid int32, line int)) {
	if IsBinary(content) || len(rids) == 0 {
		return
	}
	sc.fileGen++
	var always []int32
	needExact, needFold := false, false
	for _, rid := range rids {
		sc.covers[rid] = sc.fileGen
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
	unit := func(b []byte, s string, line int) {
		sc.unitGen++
		sc.hits = sc.hits[:0]
		if needExact {
			sc.find(sc.exact, sc.exactOf, b, s)
		}
		if needFold {
			sc.find(sc.fold, sc.foldOf, b, s)
		}
		for _, lit := range sc.hits {
			for _, rid := range sc.trigger[lit] {
				if sc.covers[rid] != sc.fileGen || sc.woken[rid] == sc.unitGen {
					continue
				}
				sc.woken[rid] = sc.unitGen
				if sc.allGroups(rid, b, s) && sc.regexes[rid].re.matchUnit(b, s) {
					match(rid, line)
				}
			}
		}
		for _, rid := range always {
			if sc.regexes[rid].re.matchUnit(b, s) {
				match(rid, line)
			}
		}
	}
	if isSQLPath(path) {
		eachStatement(string(content), func(st Statement) { unit(nil, st.Text, st.Line) })
		return
	}
	if len(always) > 0 || needExact && needFold {
		eachLine(content, func(line []byte, n int) { unit(line, "", n) })
		return
	}
	// Only lines holding a trigger literal can match: jump from one to the
	// next with the automaton over the whole file, counting line breaks on
	// the way, and treat each such line as a unit.
	m := sc.exact
	if needFold {
		m = sc.fold
	}
	line, lineStart := 1, 0
	for pos := 0; pos < len(content); {
		end := m.nextHit(content, pos)
		if end < 0 {
			return
		}
		start := bytes.LastIndexByte(content[:end], '\n') + 1
		line += bytes.Count(content[lineStart:start], []byte{'\n'})
		lineStart = start
		stop := bytes.IndexByte(content[end:], '\n')
		if stop < 0 {
			stop = len(content)
		} else {
			stop += end
		}
		text := content[start:stop]
		if len(text) > 0 && text[len(text)-1] == '\r' {
			text = text[:len(text)-1]
		}
		if !(bytes.Contains(text, anchorClose) && openerRe.Match(text)) {
			unit(text, "", line)
		}
		pos = stop + 1
	}
}

// find records the literals of one automaton found in the unit.
func (sc *scanner) find(m *acMatcher, of []int32, b []byte, s string) {
	hit := func(p int32) {
		id := of[p]
		if sc.hitGen[id] != sc.unitGen {
			sc.hitGen[id] = sc.unitGen
			sc.hits = append(sc.hits, id)
		}
	}
	if b != nil || s == "" {
		m.scan(b, hit)
	} else {
		m.scanString(s, hit)
	}
}

// allGroups: every literal group of the regex occurs in this unit (the
// trigger group woke it; the others are looked for in the unit's text).
func (sc *scanner) allGroups(rid int32, b []byte, s string) bool {
	sr := &sc.regexes[rid]
	for gi, g := range sr.groups {
		if gi == sr.trigger {
			continue
		}
		found := false
		for _, id := range g {
			if sc.hitGen[id] == sc.unitGen || sc.contains(id, b, s) {
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
	if hasAstral(b, s) { // JavaScript's UTF-16 reading (jsfold.go)
		return r.re.MatchString(utf16View(b, s))
	}
	if b != nil {
		return r.re.Match(b)
	}
	return r.re.MatchString(s)
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
		if !(bytes.Contains(line, anchorClose) && openerRe.Match(line)) {
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
