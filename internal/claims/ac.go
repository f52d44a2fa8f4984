package claims

import "slices"

// An Aho–Corasick automaton finds every literal of every leg in one pass
// over a unit's bytes, however many literals there are: the multi-literal
// scan grep tools put in front of their regex engines. It is a dense DFA
// over byte classes (only the bytes some literal uses are told apart).
//
// The table is laid out for the scanner's inner loop, one load and one
// compare a byte: a state is its row's offset in next (state × stride),
// and the states where a literal ends are numbered last, so "stop here"
// is off >= special.

// acMatcher finds a fixed set of byte strings. Units never hold a line
// break (lines are split on it, statements have their spaces collapsed),
// so a literal holding one is never reported: a `\n` byte leads back to
// the root.
type acMatcher struct {
	class   [256]uint16 // byte → byte class (0: a byte no literal uses)
	stride  int         // number of classes
	next    []int32     // offset + class → next state's offset (a full DFA)
	special int32       // offsets >= special: a literal ends there
	out     [][]int32   // offset/stride → the literals that end there (suffix links folded in)
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
	used['\n'] = true // its own class: every state leaves it for the root
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
	stride := int(n)
	m.stride = stride

	// The trie, with -1 for "no edge yet"; states by creation number.
	delta := make([]int32, stride, stride*trieStates(lits, &m.class))
	for i := range delta {
		delta[i] = -1
	}
	out := [][]int32{nil}
	for id, l := range lits {
		s := int32(0)
		for i := 0; i < len(l); i++ {
			c := int(m.class[l[i]])
			next := delta[int(s)*stride+c]
			if next < 0 {
				next = int32(len(out))
				out = append(out, nil)
				for j := 0; j < stride; j++ {
					delta = append(delta, -1)
				}
				delta[int(s)*stride+c] = next
			}
			s = next
		}
		out[s] = append(out[s], int32(id))
	}

	// Breadth first: fill the missing edges from the failure state's row
	// and inherit its outputs.
	fail := make([]int32, len(out))
	queue := make([]int32, 0, len(out))
	for c := 0; c < stride; c++ {
		if next := delta[c]; next > 0 {
			fail[next] = 0
			queue = append(queue, next)
		} else {
			delta[c] = 0
		}
	}
	for len(queue) > 0 {
		s := queue[0]
		queue = queue[1:]
		if f := fail[s]; len(out[f]) > 0 {
			out[s] = append(out[s][:len(out[s]):len(out[s])], out[f]...)
		}
		for c := 0; c < stride; c++ {
			i := int(s)*stride + c
			if next := delta[i]; next >= 0 {
				fail[next] = delta[int(fail[s])*stride+c]
				queue = append(queue, next)
			} else {
				delta[i] = delta[int(fail[s])*stride+c]
			}
		}
	}

	// Renumber: plain states first (the root stays 0), then the ones with
	// an output; store offsets, not numbers.
	states := len(out)
	order := make([]int32, 0, states) // new number → old number
	for s := 0; s < states; s++ {
		if len(out[s]) == 0 {
			order = append(order, int32(s))
		}
	}
	plain := len(order)
	for s := 0; s < states; s++ {
		if len(out[s]) > 0 {
			order = append(order, int32(s))
		}
	}
	renum := make([]int32, states)
	for nu, old := range order {
		renum[old] = int32(nu)
	}
	nl := int(m.class['\n'])
	m.next = make([]int32, states*stride)
	m.out = make([][]int32, states)
	for nu, old := range order {
		m.out[nu] = out[old]
		for c := 0; c < stride; c++ {
			m.next[nu*stride+c] = renum[delta[int(old)*stride+c]] * int32(stride)
		}
		m.next[nu*stride+nl] = 0 // literals never span lines
	}
	m.special = int32(plain * stride)
	return m
}

// trieStates counts the trie's states (the root included), so its table
// is allocated once at its size: sorted, each literal adds the bytes past
// what it shares with the one before (read through the byte classes, which
// fold case). It is a capacity hint: a miscount only costs a copy.
func trieStates(lits []string, class *[256]uint16) int {
	keys := make([]string, len(lits))
	for i, l := range lits {
		k := make([]byte, len(l))
		for j := 0; j < len(l); j++ {
			k[j] = byte(class[l[j]])
		}
		keys[i] = string(k)
	}
	slices.Sort(keys)
	n, prev := 1, ""
	for _, k := range keys {
		common := 0
		for common < len(k) && common < len(prev) && k[common] == prev[common] {
			common++
		}
		n += len(k) - common
		prev = k
	}
	return n
}

// outputs returns the literals that end at state offset off.
func (m *acMatcher) outputs(off int32) []int32 { return m.out[int(off)/m.stride] }

// scanString calls hit for each literal found in text, a SQL statement (a
// literal found several times is reported each time; the caller dedupes).
// Lines go through the scanner's own loop (wakeScan), over the same table.
func (m *acMatcher) scanString(text string, hit func(lit int32)) {
	off := int32(0)
	for i := 0; i < len(text); i++ {
		off = m.next[off+int32(m.class[text[i]])]
		if off >= m.special {
			for _, id := range m.outputs(off) {
				hit(id)
			}
		}
	}
}
