package contextmap

import (
	"cmp"
	"slices"
	"strings"
)

// cxVocab is every identifier the index's files hold, each once, by its
// hash. It is what makes a lookup exact without reading the files: when
// the only word of the corpus whose hash starts like ident's is ident
// itself, every key in ident's run is a real occurrence of it; when no word
// is ident, no file holds it. Only a shared prefix (two words whose hashes
// agree in the key's bits) or a full-hash collision leaves the answer to
// the files' bytes. A word whose last file left stays: the vocabulary is a
// superset, which costs nothing but a lookup.
type cxVocab struct {
	// hashes are sorted and distinct; word i is text[offs[i]:offs[i+1]].
	hashes []uint64
	offs   []uint32
	text   string
	// extra are words added since the sorted part was made (an edit's new
	// words), sorted by hash, distinct from hashes.
	extra []vocabWord
	// collided are the hashes two different words share.
	collided map[uint64]bool
}

type vocabWord struct {
	h uint64
	w string
}

// vocabSink collects one scan worker's words: the first word seen for a
// hash, and the hashes seen with two different words.
type vocabSink struct {
	words    map[uint64]string
	collided map[uint64]bool
	// recent is a direct-mapped cache of words already in words: most of
	// a file's distinct words (err, nil, ctx) are in most files, and a
	// hit here, in a small table that stays in the processor's cache,
	// spares a probe of the large map, which misses it.
	recent [recentWords]vocabWord
}

const recentWords = 4096 // a power of two

func newVocabSink() *vocabSink { return &vocabSink{words: map[uint64]string{}} }

func (s *vocabSink) add(h uint64, w []byte) {
	r := &s.recent[h&(recentWords-1)]
	if r.h == h && r.w == string(w) {
		return // in words already, under this word
	}
	if old, ok := s.words[h]; ok {
		*r = vocabWord{h, old}
		if old != string(w) {
			s.collide(h)
		}
		return
	}
	ws := string(w)
	s.words[h] = ws
	*r = vocabWord{h, ws}
}

func (s *vocabSink) collide(h uint64) {
	if s.collided == nil {
		s.collided = map[uint64]bool{}
	}
	s.collided[h] = true
}

// merge adds o's words to s.
func (s *vocabSink) merge(o *vocabSink) {
	for h, w := range o.words {
		s.add(h, []byte(w))
	}
	for h := range o.collided {
		s.collide(h)
	}
}

// sorted is the sink's words sorted by hash (each scan worker sorts its
// own, on its core, before the sinks are joined).
func (s *vocabSink) sorted() []vocabWord {
	out := make([]vocabWord, 0, len(s.words))
	for h, w := range s.words {
		out = append(out, vocabWord{h, w})
	}
	slices.SortFunc(out, func(a, b vocabWord) int { return cmp.Compare(a.h, b.h) })
	return out
}

// vocabOfSinks is (*cxVocab)(nil).withWords of the sinks merged into one,
// from their sorted words: one pass over them, where merging the sinks
// and sorting the result was a serial tenth of a first request on a large
// tree. sorted[k] is sinks[k].sorted().
func vocabOfSinks(sinks []*vocabSink, sorted [][]vocabWord) *cxVocab {
	var collided map[uint64]bool
	collide := func(h uint64) {
		if collided == nil {
			collided = map[uint64]bool{}
		}
		collided[h] = true
	}
	for _, s := range sinks {
		for h := range s.collided {
			collide(h)
		}
	}
	n := 0
	for _, ws := range sorted {
		n += len(ws)
	}
	all := make([]vocabWord, 0, n)
	for {
		// The least hash at the lists' heads: the first list's word is kept,
		// another word of the same hash is a collision.
		k := -1
		for i, ws := range sorted {
			if len(ws) > 0 && (k < 0 || ws[0].h < sorted[k][0].h) {
				k = i
			}
		}
		if k < 0 {
			break
		}
		w := sorted[k][0]
		for i, ws := range sorted {
			if len(ws) > 0 && ws[0].h == w.h {
				if ws[0].w != w.w {
					collide(w.h)
				}
				sorted[i] = ws[1:]
			}
		}
		all = append(all, w)
	}
	switch {
	case len(all) == 0:
		return &cxVocab{offs: []uint32{0}, collided: collided}
	case len(all) <= maxVocabExtra:
		return &cxVocab{offs: []uint32{0}, extra: all, collided: collided}
	}
	return vocabOf(all, collided)
}

// maxVocabExtra is how many added words a vocabulary keeps beside its
// sorted part before the two are merged.
const maxVocabExtra = 4096

// withWords is v plus the sink's words (v itself is never modified: older
// snapshots' indexes share it). v may be nil.
func (v *cxVocab) withWords(s *vocabSink) *cxVocab {
	if v == nil {
		v = &cxVocab{offs: []uint32{0}}
	}
	n := &cxVocab{hashes: v.hashes, offs: v.offs, text: v.text, extra: v.extra, collided: v.collided}
	var added []vocabWord
	cloned := false
	collide := func(h uint64) {
		if !cloned {
			m := make(map[uint64]bool, len(n.collided)+1)
			for k := range n.collided {
				m[k] = true
			}
			n.collided, cloned = m, true
		}
		n.collided[h] = true
	}
	for h, w := range s.words {
		if old, ok := v.word(h); ok {
			if old != w {
				collide(h)
			}
			continue
		}
		added = append(added, vocabWord{h, w})
	}
	for h := range s.collided {
		collide(h)
	}
	if len(added) == 0 {
		return n
	}
	slices.SortFunc(added, func(a, b vocabWord) int { return cmp.Compare(a.h, b.h) })
	extra := make([]vocabWord, 0, len(n.extra)+len(added))
	extra = mergeWords(extra, n.extra, added)
	if len(extra) <= maxVocabExtra {
		n.extra = extra
		return n
	}
	// Fold the added words into a new sorted part.
	all := make([]vocabWord, 0, len(v.hashes)+len(extra))
	base := make([]vocabWord, len(v.hashes))
	for i, h := range v.hashes {
		base[i] = vocabWord{h, v.text[v.offs[i]:v.offs[i+1]]}
	}
	all = mergeWords(all, base, extra)
	return vocabOf(all, n.collided)
}

func mergeWords(out, a, b []vocabWord) []vocabWord {
	for len(a) > 0 && len(b) > 0 {
		if a[0].h < b[0].h {
			out, a = append(out, a[0]), a[1:]
		} else {
			out, b = append(out, b[0]), b[1:]
		}
	}
	return append(append(out, a...), b...)
}

// vocabOf makes a vocabulary of words sorted by hash.
func vocabOf(words []vocabWord, collided map[uint64]bool) *cxVocab {
	v := &cxVocab{hashes: make([]uint64, len(words)), offs: make([]uint32, len(words)+1), collided: collided}
	var sb strings.Builder
	for i, w := range words {
		v.hashes[i] = w.h
		sb.WriteString(w.w)
		v.offs[i+1] = uint32(sb.Len())
	}
	v.text = sb.String()
	return v
}

// word is the word of hash h, if the vocabulary has one.
func (v *cxVocab) word(h uint64) (string, bool) {
	if i, ok := slices.BinarySearch(v.hashes, h); ok {
		return v.text[v.offs[i]:v.offs[i+1]], true
	}
	if i, ok := slices.BinarySearchFunc(v.extra, h, func(e vocabWord, h uint64) int { return cmp.Compare(e.h, h) }); ok {
		return v.extra[i].w, true
	}
	return "", false
}

type vocabClass int

const (
	vocabAbsent    vocabClass = iota // no file holds ident
	vocabUnique                      // every key of ident's run is ident
	vocabAmbiguous                   // the run's files must be read to tell
)

// classify says what ident's run of keys (hash h with its low bits bits
// dropped) means.
func (v *cxVocab) classify(ident string, h uint64, bits uint) vocabClass {
	lo := h >> bits << bits
	hi := lo | (1<<bits - 1)
	n, match, collided := 0, false, false
	visit := func(hh uint64, w string) {
		n++
		match = match || w == ident
		collided = collided || v.collided[hh]
	}
	i, _ := slices.BinarySearch(v.hashes, lo)
	for ; i < len(v.hashes) && v.hashes[i] <= hi; i++ {
		visit(v.hashes[i], v.text[v.offs[i]:v.offs[i+1]])
	}
	j, _ := slices.BinarySearchFunc(v.extra, lo, func(e vocabWord, h uint64) int { return cmp.Compare(e.h, h) })
	for ; j < len(v.extra) && v.extra[j].h <= hi; j++ {
		visit(v.extra[j].h, v.extra[j].w)
	}
	switch {
	case n == 1 && match && !collided:
		return vocabUnique
	case match || collided:
		return vocabAmbiguous
	}
	return vocabAbsent
}
