package claims

// An Aho–Corasick automaton finds every literal of every leg in one pass
// over a unit's bytes, however many literals there are: the multi-literal
// scan grep tools put in front of their regex engines. It is a dense DFA
// over byte classes (only the bytes some literal uses are told apart), so
// a step is two table loads.

// acMatcher finds a fixed set of byte strings.
type acMatcher struct {
	class  [256]uint16 // byte → byte class (0: a byte no literal uses)
	stride int         // number of classes
	delta  []int32     // state*stride + class → next state (a full DFA)
	out    [][]int32   // state → the literals that end there (suffix links folded in)
	term   []bool      // state → len(out) > 0, the one test made per byte
}

// newACMatcher builds the automaton for lits; fold: lits are lower-case and
// the text's ASCII letters are lower-cased as they are read (the `i` flag's
// ASCII case folding, which is exact for ASCII literals).
func newACMatcher(lits []string, fold bool) *acMatcher {
	m := &acMatcher{}
	used := [256]bool{}
	for _, l := range lits {
		for i := 0; i < len(l); i++ {
			used[l[i]] = true
		}
	}
	n := uint16(1)
	for b := 0; b < 256; b++ {
		if used[b] {
			m.class[b] = n
			n++
		}
	}
	if fold { // an upper-case ASCII letter reads as its lower case
		for b := 'A'; b <= 'Z'; b++ {
			m.class[b] = m.class[b+'a'-'A']
		}
	}
	m.stride = int(n)

	// The trie, with -1 for "no edge yet".
	m.delta = make([]int32, m.stride)
	for i := range m.delta {
		m.delta[i] = -1
	}
	m.out = [][]int32{nil}
	for id, l := range lits {
		s := int32(0)
		for i := 0; i < len(l); i++ {
			c := int(m.class[l[i]])
			next := m.delta[int(s)*m.stride+c]
			if next < 0 {
				next = int32(len(m.out))
				m.out = append(m.out, nil)
				row := make([]int32, m.stride)
				for j := range row {
					row[j] = -1
				}
				m.delta = append(m.delta, row...)
				m.delta[int(s)*m.stride+c] = next
			}
			s = next
		}
		m.out[s] = append(m.out[s], int32(id))
	}

	// Breadth first: fill the missing edges from the failure state's row
	// and inherit its outputs.
	fail := make([]int32, len(m.out))
	queue := make([]int32, 0, len(m.out))
	for c := 0; c < m.stride; c++ {
		if next := m.delta[c]; next > 0 {
			fail[next] = 0
			queue = append(queue, next)
		} else {
			m.delta[c] = 0
		}
	}
	for len(queue) > 0 {
		s := queue[0]
		queue = queue[1:]
		if f := fail[s]; len(m.out[f]) > 0 {
			m.out[s] = append(m.out[s][:len(m.out[s]):len(m.out[s])], m.out[f]...)
		}
		for c := 0; c < m.stride; c++ {
			i := int(s)*m.stride + c
			if next := m.delta[i]; next >= 0 {
				fail[next] = m.delta[int(fail[s])*m.stride+c]
				queue = append(queue, next)
			} else {
				m.delta[i] = m.delta[int(fail[s])*m.stride+c]
			}
		}
	}
	m.term = make([]bool, len(m.out))
	for s, o := range m.out {
		m.term[s] = len(o) > 0
	}
	return m
}

// scan calls hit for each literal found in text (a literal found several
// times is reported each time; the caller dedupes).
func (m *acMatcher) scan(text []byte, hit func(lit int32)) {
	s := int32(0)
	stride := m.stride
	for _, b := range text {
		s = m.delta[int(s)*stride+int(m.class[b])]
		if m.term[s] {
			for _, id := range m.out[s] {
				hit(id)
			}
		}
	}
}

// scanString is scan over a string (SQL statements).
func (m *acMatcher) scanString(text string, hit func(lit int32)) {
	s := int32(0)
	stride := m.stride
	for i := 0; i < len(text); i++ {
		s = m.delta[int(s)*stride+int(m.class[text[i]])]
		if m.term[s] {
			for _, id := range m.out[s] {
				hit(id)
			}
		}
	}
}

// nextHit returns the index just past the first literal that ends at or
// after from, or -1: the scanner's jump to the next line worth a look.
func (m *acMatcher) nextHit(text []byte, from int) int {
	s := int32(0)
	stride := m.stride
	for i := from; i < len(text); i++ {
		c := text[i]
		if c == '\n' { // literals never span lines
			s = 0
			continue
		}
		s = m.delta[int(s)*stride+int(m.class[c])]
		if m.term[s] {
			return i + 1
		}
	}
	return -1
}
