package contextmap

import (
	"bytes"
	"math/bits"
	"slices"
	"sync"

	"github.com/clew-lsp/clew-lsp/internal/anchors/symbols"
)

// The lexical index prefilters the declaration search of the context
// compiler, so a request parses the few files that can matter instead of
// the workspace. It is deliberately crude and only ever narrows a search:
// every edge it leads to is confirmed on a real declaration table.
//
//   - occurs: the files whose bytes hold an identifier (comments and
//     strings included) — where a caller can be.
//   - declares: the files where an identifier sits where a declaration's
//     name does (after func/def/class/fn/type/…, a Go receiver, a method
//     line that ends in "{", `const x = (…) =>`) — where a callee's
//     definition can be. A declaration the hint misses is not found outside
//     the caller's file; the answer then lacks that edge, never invents one.
//
// Each file's scan is the distinct 64-bit hashes of its identifiers and its
// sorted declaration hints. The snapshot's index is two sorted arrays of
// (hash, file) keys made from them with a radix sort — no map of strings to
// build; a name's posting list is a binary search, kept for the snapshot
// once made. A vocabulary of the corpus's words (lexvocab.go) makes a hash
// hit exact without the files' bytes; the rare ambiguous hash is confirmed
// on them. The index of the next snapshot (and of the next process,
// lexpack.go) is this one patched for the files whose content changed
// (lexrecord.go).
type cxLex struct {
	decls [][]string // by index into ctxBase.files: sorted declaration hints; nil for non-code files
	// occ and dec are sorted keys: the hash's high bits, then the file
	// index in the low idxBits bits.
	occ, dec []uint64
	idxBits  uint
	vocab    *cxVocab
	// read returns file i's bytes, for the ambiguous hash.
	read func(i int) []byte

	mu       sync.Mutex
	occurs   map[string][]int32 // posting lists made so far
	declares map[string][]int32
}

// cxLexFile is one file's identifiers and declaration hints.
type cxLexFile struct {
	hashes []uint64 // distinct identifier hashes
	decls  []string // sorted; empty but not nil for a code file without hints
}

// lexIdxBits is how many low bits of a key hold the file index: a multiple
// of four, at least 16, so a repository rarely crosses a step and an index
// can be patched instead of rebuilt.
func lexIdxBits(n int) uint {
	b := uint(max(16, bits.Len(uint(n))))
	return (b + 3) / 4 * 4
}

// newCxLex indexes scanned files from scratch (nil entries are files
// without a scan).
func newCxLex(files []*cxLexFile, vocab *cxVocab, read func(i int) []byte) *cxLex {
	x := &cxLex{decls: make([][]string, len(files)), vocab: vocab, read: read, idxBits: lexIdxBits(len(files))}
	nOcc, nDec := 0, 0
	for _, lf := range files {
		if lf != nil {
			nOcc += len(lf.hashes)
			nDec += len(lf.decls)
		}
	}
	x.occ, x.dec = make([]uint64, 0, nOcc), make([]uint64, 0, nDec)
	for i, lf := range files {
		if lf == nil {
			continue
		}
		x.decls[i] = nonNil(lf.decls)
		x.occ, x.dec = appendKeys(x.occ, x.dec, lf, i, x.idxBits)
	}
	radixSort(x.occ)
	radixSort(x.dec)
	x.init()
	return x
}

func nonNil(s []string) []string {
	if s == nil {
		return []string{}
	}
	return s
}

func (x *cxLex) init() {
	x.occurs, x.declares = map[string][]int32{}, map[string][]int32{}
}

func appendKeys(occ, dec []uint64, lf *cxLexFile, i int, bits uint) ([]uint64, []uint64) {
	for _, h := range lf.hashes {
		occ = append(occ, lexKey(h, i, bits))
	}
	for _, d := range lf.decls {
		dec = append(dec, lexKey(identHash(d), i, bits))
	}
	return occ, dec
}

func lexKey(h uint64, i int, bits uint) uint64 { return h>>bits<<bits | uint64(i) }

func (x *cxLex) key(h uint64, i int) uint64 { return lexKey(h, i, x.idxBits) }

// run is the keys of one hash: the files that may hold it, in file order.
func (x *cxLex) run(keys []uint64, h uint64) []uint64 {
	lo := x.key(h, 0)
	hi := lo | (1<<x.idxBits - 1)
	i, _ := slices.BinarySearch(keys, lo)
	j := i
	for j < len(keys) && keys[j] <= hi {
		j++
	}
	return keys[i:j]
}

// occursIn lists the files holding ident as a token, in file order.
func (x *cxLex) occursIn(ident string) []int32 {
	h := identHash(ident)
	var confirm func(i int) bool
	switch x.vocab.classify(ident, h, x.idxBits) {
	case vocabAbsent:
		return nil
	case vocabAmbiguous:
		confirm = func(i int) bool { return hasToken(x.read(i), ident) }
	}
	return x.postings(x.occurs, x.occ, ident, h, confirm)
}

// declaredIn lists the files with a declaration hint for ident, in file order.
func (x *cxLex) declaredIn(ident string) []int32 {
	return x.postings(x.declares, x.dec, ident, identHash(ident), func(i int) bool {
		_, ok := slices.BinarySearch(x.decls[i], ident)
		return ok
	})
}

// postings is ident's confirmed files of one key array, memoised; confirm
// nil takes every file of the run.
func (x *cxLex) postings(memo map[string][]int32, keys []uint64, ident string, h uint64, confirm func(i int) bool) []int32 {
	x.mu.Lock()
	post, ok := memo[ident]
	x.mu.Unlock()
	if ok {
		return post
	}
	mask := uint64(1)<<x.idxBits - 1
	for _, k := range x.run(keys, h) {
		if i := int(k & mask); confirm == nil || confirm(i) {
			post = append(post, int32(i))
		}
	}
	x.mu.Lock()
	memo[ident] = post
	x.mu.Unlock()
	return post
}

// fileHas reports whether file i holds ident as a token.
func (x *cxLex) fileHas(i int, ident string) bool { return x.holder(ident)(i) }

// holder answers fileHas for one identifier, to ask of many files: its
// hash, class and run are found once.
func (x *cxLex) holder(ident string) func(i int) bool {
	h := identHash(ident)
	class := x.vocab.classify(ident, h, x.idxBits)
	if class == vocabAbsent {
		return func(int) bool { return false }
	}
	run := x.run(x.occ, h)
	return func(i int) bool {
		if i < 0 || i >= len(x.decls) || x.decls[i] == nil {
			return false
		}
		if _, ok := slices.BinarySearch(run, x.key(h, i)); !ok {
			return false
		}
		return class == vocabUnique || hasToken(x.read(i), ident)
	}
}

// radixSort sorts keys in place: four stable passes of 16 bits.
func radixSort(keys []uint64) {
	if len(keys) < 256 {
		slices.Sort(keys)
		return
	}
	var count [1 << 16]int
	radixPasses(keys, 0, 16, count[:])
}

// radixPasses sorts keys stably by their bits from `from` up, in digits of
// `digit` bits (count holds 1<<digit counters); the number of passes must
// be even, so the sorted keys end up back in keys.
func radixPasses(keys []uint64, from, digit uint, count []int) {
	tmp := make([]uint64, len(keys))
	src, dst := keys, tmp
	mask := uint64(len(count) - 1)
	for shift := from; shift < 64; shift += digit {
		clear(count)
		for _, k := range src {
			count[k>>shift&mask]++
		}
		sum := 0
		for d, c := range count {
			count[d] = sum
			sum += c
		}
		for _, k := range src {
			d := k >> shift & mask
			dst[count[d]] = k
			count[d]++
		}
		src, dst = dst, src
	}
}

// hasToken reports whether src holds ident as a whole token of lexScan's
// tokenizer: not preceded or followed by an identifier byte (a digit before
// it would have started a number that swallows it).
func hasToken(src []byte, ident string) bool {
	if ident == "" || !identStart(ident[0]) {
		return false
	}
	for i := 1; i < len(ident); i++ {
		if !identPart(ident[i]) {
			return false
		}
	}
	for off := 0; ; {
		i := bytes.Index(src[off:], []byte(ident))
		if i < 0 {
			return false
		}
		i += off
		end := i + len(ident)
		if (i == 0 || !identPart(src[i-1])) && (end == len(src) || !identPart(src[end])) {
			return true
		}
		off = i + 1
	}
}

// identHash is FNV-1a over an identifier's bytes; 0 is reserved for an
// empty slot.
func identHash[T string | []byte](b T) uint64 {
	h := uint64(14695981039346656037)
	for i := 0; i < len(b); i++ {
		h ^= uint64(b[i])
		h *= 1099511628211
	}
	if h == 0 {
		h = 1
	}
	return h
}

// dedup is a scratch set that collects distinct hashes in first-seen order.
type dedup struct {
	slots []uint64 // power of two
	list  []uint64
}

func (d *dedup) reset() {
	clear(d.slots)
	d.list = d.list[:0]
}

// add reports whether h is new to the set.
func (d *dedup) add(h uint64) bool {
	if len(d.list)*2 >= len(d.slots) {
		d.grow()
	}
	mask := uint64(len(d.slots) - 1)
	for i := h & mask; ; i = (i + 1) & mask {
		switch d.slots[i] {
		case h:
			return false
		case 0:
			d.slots[i] = h
			d.list = append(d.list, h)
			return true
		}
	}
}

func (d *dedup) grow() {
	n := max(1024, 2*len(d.slots))
	d.slots = make([]uint64, n)
	mask := uint64(n - 1)
	for _, h := range d.list {
		i := h & mask
		for d.slots[i] != 0 {
			i = (i + 1) & mask
		}
		d.slots[i] = h
	}
}

func identStart(c byte) bool {
	return c == '_' || c == '$' || c >= 0x80 || ('a' <= c && c <= 'z') || ('A' <= c && c <= 'Z')
}

func identPart(c byte) bool { return identStart(c) || ('0' <= c && c <= '9') }

// isDeclKeyword: the word introduces a declaration's name in one of the
// supported languages. (A switch, not a map: it runs for every token.)
func isDeclKeyword(s string) bool {
	switch s {
	case "func", "def", "function", "fn", "class", "struct", "interface", "trait", "enum", "type", "record",
		"object", "protocol", "extension", "fun", "mod", "namespace", "union":
		return true
	}
	return false
}

// isDeclKeywordBytes is isDeclKeyword of a token's bytes, most words
// told by their first byte and length (kwFirst) without the switch's copy.
func isDeclKeywordBytes(b []byte) bool {
	n := len(b)
	return n > 0 && n < 16 && kwFirst[b[0]]&(1<<n) != 0 && isDeclKeyword(string(b))
}

// isValueKeyword: const, let or var.
func isValueKeyword(b []byte) bool {
	switch string(b) {
	case "const", "let", "var":
		return true
	}
	return false
}

// isControlWord: the word starts a statement, so a line that starts with
// it and ends in "{" declares nothing, and a call of it is no call.
func isControlWord(s string) bool {
	switch s {
	case "if", "for", "while", "switch", "catch", "return", "else", "do", "try", "synchronized", "with", "new",
		"await", "yield", "typeof", "delete", "void", "throw", "super", "this", "function", "foreach", "using",
		"lock", "when", "match", "loop", "unsafe", "go", "defer", "select", "case", "let", "const", "var":
		return true
	}
	return false
}

// lexTok is one token of a line: a view of its bytes, never copied unless
// it is kept (compared as string(b), which Go does without allocating).
type lexTok struct {
	b     []byte
	ident bool
}

func (t lexTok) is(s string) bool { return string(t.b) == s }

// lexScratch is one scan's reusable state: the sets and token buffer are
// cleared, not reallocated, for each file.
type lexScratch struct {
	seen  dedup
	decls map[string]struct{}
	toks  []lexTok
}

var lexScratchPool = sync.Pool{New: func() any {
	return &lexScratch{decls: map[string]struct{}{}}
}}

// lexScan collects a file's identifiers and declaration hints. One pass
// hashes every identifier and notes, per line, whether the line can hold a
// declaration hint at all (a declaration keyword or const/let/var, a Go
// type group, a line ending in "{", a top-level Python line); only those
// lines are tokenized again for lineHints. FuzzLexScan holds it to the
// line-by-line scan it replaced. The first occurrence of each distinct
// identifier goes to words (nil: nowhere), the index's vocabulary.
func lexScan(src []byte, lang symbols.Language, words *vocabSink) *cxLexFile {
	sc := lexScratchPool.Get().(*lexScratch)
	defer lexScratchPool.Put(sc)
	sc.seen.reset()
	clear(sc.decls)
	seen := &sc.seen
	ls := lineScan{lang: lang, decls: sc.decls, toks: sc.toks[:0]}
	defer func() { sc.toks = ls.toks[:0] }()
	goLang, pyLang := lang == symbols.Go, lang == symbols.Python
	lineStart, ntok := 0, 0
	firstIdent, firstType, flagged := false, false, false
	for i := 0; ; {
		if i == len(src) || src[i] == '\n' {
			if ntok > 0 {
				line := src[lineStart:i]
				run := flagged || goLang && (ls.inTypeGroup || firstType)
				if !run && pyLang && line[0] != ' ' && line[0] != '\t' {
					run = true
				}
				if !run && !goLang && !pyLang && firstIdent {
					t := bytes.TrimSpace(line)
					run = len(t) > 0 && t[len(t)-1] == '{'
				}
				if run {
					ls.line(line)
				}
			}
			if i == len(src) {
				break
			}
			i++
			lineStart, ntok = i, 0
			firstIdent, firstType, flagged = false, false, false
			continue
		}
		c := src[i]
		switch lexClass[c] {
		case classIdent:
			h := uint64(14695981039346656037)
			h ^= uint64(c)
			h *= 1099511628211
			j := i + 1
			for j < len(src) && lexClass[src[j]] <= classDigit {
				h ^= uint64(src[j])
				h *= 1099511628211
				j++
			}
			if h == 0 {
				h = 1
			}
			if seen.add(h) && words != nil {
				words.add(h, src[i:j])
			}
			if n := j - i; n < 16 && kwFirst[c]&(1<<n) != 0 && !flagged {
				flagged = isDeclKeyword(string(src[i:j])) || isValueKeyword(src[i:j])
			}
			if ntok == 0 {
				firstIdent = true
				firstType = j-i == 4 && string(src[i:j]) == "type"
			}
			ntok++
			i = j
		case classDigit:
			j := i + 1
			for j < len(src) && lexClass[src[j]] <= classDigit {
				j++
			}
			i = j
		case classSpace:
			i++
		default:
			ntok++
			i++
		}
	}
	lf := &cxLexFile{hashes: slices.Clone(seen.list)}
	for s := range sc.decls {
		lf.decls = append(lf.decls, s)
	}
	slices.Sort(lf.decls)
	return lf
}

// Byte classes of the scan; identifier bytes sort before digits, so
// "identifier part" is class <= classDigit.
const (
	classIdent = iota
	classDigit
	classSpace
	classOther
)

var lexClass = func() (t [256]uint8) {
	for c := 0; c < 256; c++ {
		switch b := byte(c); {
		case identStart(b):
			t[c] = classIdent
		case '0' <= b && b <= '9':
			t[c] = classDigit
		case b == ' ' || b == '\t' || b == '\r':
			t[c] = classSpace
		default:
			t[c] = classOther
		}
	}
	return t
}()

// kwFirst[c] has bit n set when a word of length n starting with c may be
// a declaration keyword or const/let/var: the cheap test before the switch.
var kwFirst = func() (t [256]uint16) {
	for _, w := range []string{"func", "def", "function", "fn", "class", "struct", "interface", "trait", "enum", "type",
		"record", "object", "protocol", "extension", "fun", "mod", "namespace", "union", "const", "let", "var"} {
		if !isDeclKeyword(w) && w != "const" && w != "let" && w != "var" {
			panic("kwFirst: " + w + " is not a keyword of isDeclKeyword")
		}
		t[w[0]] |= 1 << len(w)
	}
	return t
}()

// lineScan is the per-line declaration hint logic and its state (a Go
// type group spans lines).
type lineScan struct {
	lang        symbols.Language
	decls       map[string]struct{}
	toks        []lexTok
	inTypeGroup bool
}

func (ls *lineScan) hint(t lexTok) {
	if t.ident && !isDeclKeyword(string(t.b)) && !isControlWord(string(t.b)) {
		if _, ok := ls.decls[string(t.b)]; !ok { // a lookup does not copy the bytes; an insert does
			ls.decls[string(t.b)] = struct{}{}
		}
	}
}

// line tokenizes one line and records the declaration hints it holds.
func (ls *lineScan) line(line []byte) {
	lang := ls.lang
	toks := ls.toks[:0]
	defer func() { ls.toks = toks[:0] }()
	for i := 0; i < len(line); {
		switch lexClass[line[i]] {
		case classIdent:
			j := i + 1
			for j < len(line) && lexClass[line[j]] <= classDigit {
				j++
			}
			toks = append(toks, lexTok{b: line[i:j], ident: true})
			i = j
		case classDigit:
			j := i + 1
			for j < len(line) && lexClass[line[j]] <= classDigit {
				j++
			}
			i = j
		case classSpace:
			i++
		default:
			toks = append(toks, lexTok{b: line[i : i+1]})
			i++
		}
	}
	if len(toks) == 0 {
		return
	}
	hint := ls.hint
	inTypeGroup := ls.inTypeGroup
	defer func() { ls.inTypeGroup = inTypeGroup }()
	// Go's grouped type declarations: `type (` … `)`.
	if lang == symbols.Go {
		switch {
		case inTypeGroup && toks[0].is(")"):
			inTypeGroup = false
		case inTypeGroup:
			hint(toks[0])
		case len(toks) == 2 && toks[0].is("type") && toks[1].is("("):
			inTypeGroup = true
		}
	}
	// A keyword followed by the name; Go methods skip the receiver.
	for j := 0; j+1 < len(toks); j++ {
		if !toks[j].ident || !isDeclKeywordBytes(toks[j].b) {
			continue
		}
		k := j + 1
		if toks[j].is("func") && toks[k].is("(") {
			depth := 0
			for ; k < len(toks); k++ {
				if toks[k].is("(") {
					depth++
				} else if toks[k].is(")") {
					depth--
					if depth == 0 {
						k++
						break
					}
				}
			}
		}
		if k < len(toks) {
			hint(toks[k])
		}
	}
	trimmed := bytes.TrimSpace(line)
	first := toks[0]
	// A method-like line: `name(…) … {` after modifiers, not a statement.
	if lang != symbols.Go && lang != symbols.Python && len(trimmed) > 0 && trimmed[len(trimmed)-1] == '{' &&
		first.ident && !isControlWord(string(first.b)) {
		for k := 1; k < len(toks); k++ {
			if toks[k].is("(") {
				hint(toks[k-1])
				break
			}
			if toks[k].is("=") || toks[k].is(".") {
				break
			}
		}
	}
	// `const name = (…) =>` and `const name = function`.
	at := 0
	if first.is("export") {
		at = 1
	}
	if at+2 < len(toks) && (toks[at].is("const") || toks[at].is("let") || toks[at].is("var")) &&
		toks[at+2].is("=") && (bytes.Contains(line, []byte("=>")) || bytes.Contains(line, []byte("function"))) {
		hint(toks[at+1])
	}
	// A top-level constant or variable (`const Limit = 10`, `var t = …`,
	// Python's `LIMIT = 10`): what uses_value resolves to.
	if top := len(line) > 0 && line[0] != ' ' && line[0] != '\t'; top {
		if at+1 < len(toks) && (toks[at].is("const") || toks[at].is("let") || toks[at].is("var")) && toks[at+1].ident {
			hint(toks[at+1])
		} else if lang == symbols.Python && len(toks) > 1 && first.ident && toks[1].is("=") {
			hint(first)
		}
	}
}

// isIdent reports whether a declaration's token is an ASCII identifier,
// by the rule the façade's repository-wide prefilter uses for rare tokens.
func isIdent(s string) bool {
	for i, c := range s {
		if c == '_' || c >= 'a' && c <= 'z' || c >= 'A' && c <= 'Z' || (i > 0 && c >= '0' && c <= '9') {
			continue
		}
		return false
	}
	return true
}
