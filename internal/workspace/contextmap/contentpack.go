package contextmap

import (
	"crypto/sha256"
	"encoding/binary"
	"errors"
	"path"
	"slices"
	"strconv"

	"github.com/clew-lsp/clew-lsp/internal/anchors/symbols"
	"github.com/clew-lsp/clew-lsp/internal/devcontext"
)

// A file's declarations as one encoded entry (a content pack): the source,
// then every declaration as the search and the world read it — names,
// kind, signature, spans, doc-comment start, node range, outline, URI, a
// test's tested names and the body tokens as ids into the file's strings.
// A new seed's world reached a few hundred files no earlier request of the
// Load had: each was read (system calls), its stored table read and
// decoded (a string per distinct token, a packed token list per
// declaration, two hashes per declaration the world never reads), and its
// declarations' URIs, outlines, ranges and doc-comment starts computed.
// Now a pack is kept in the persistent store beside the tables (under a
// key of its own: contentPackKey) and decoded into the declarations
// directly; its strings are slices of one copy of its string section.
//
// Every content is built through a pack (newContent encodes and decodes),
// so the stored form is the only form and a world built from the store is
// the world built from the file. The store vouches for an entry's
// integrity (version, key, checksum); decodeContent refuses anything that
// does not hold together (the scheme, the path and blob it was made for,
// lengths, string ids, spans inside the source, no trailing bytes), and a
// refused entry only means the file is read and parsed again.

// contentPackScheme names everything a pack depends on besides the file
// and the table: the layout below and the rules that derive a
// declaration's URI, doc-comment start, outline, test and tested names
// (newContent). Change it with any of them. (The store's own version
// already changes with every build.)
const contentPackScheme = "clew-lsp context content v2"

var errBadContent = errors.New("contextmap: malformed content pack")

// cxSym is what the search and the world read of a declaration: a
// symbols.Decl without what they never read (its hashes, name span,
// token count), with its body tokens as ids into the file's strings.
type cxSym struct {
	Kind, Name, QualifiedName, Container, Signature string
	StartLine, EndLine, StartByte, EndByte          int
	Body                                            cxTokens
}

// cxTokens is a declaration's body tokens: ids into the strings of its
// file's pack (no string per token, no copy of their text).
type cxTokens struct {
	strs []string
	ids  []uint32
}

// Len is the number of tokens.
func (l cxTokens) Len() int { return len(l.ids) }

// At is token i.
func (l cxTokens) At(i int) string { return l.strs[l.ids[i]] }

// Strings is the tokens as a slice.
func (l cxTokens) Strings() []string {
	if len(l.ids) == 0 {
		return nil
	}
	out := make([]string, len(l.ids))
	for i, id := range l.ids {
		out[i] = l.strs[id]
	}
	return out
}

// idOf is s's id among c's strings (they ascend: decodeContent refuses a
// pack whose strings do not), ok when s is one of them.
func (c *cxContent) idOf(s string) (id uint32, ok bool) {
	i, found := slices.BinarySearch(c.strs, s)
	return uint32(i), found
}

// contentPackKey is a pack's key in the persistent store: everything the
// content depends on (cxContentKey: path, blob, import path, language)
// and the file's test flag, under the scheme.
func contentPackKey(k cxContentKey, test bool) [sha256.Size]byte {
	var b []byte
	for _, s := range []string{contentPackScheme, string(k.lang), k.importPath, k.path, k.blob} {
		b = binary.AppendUvarint(b, uint64(len(s)))
		b = append(b, s...)
	}
	if test {
		b = append(b, 1)
	} else {
		b = append(b, 0)
	}
	return sha256.Sum256(b)
}

// Layout (uvarint lengths, counts and numbers):
//
//	scheme, path, blob, source (each length and bytes)
//	strings: n; each length and bytes, in ascending order (idOf checks)
//	package (string id); declarations, body tokens, tested names (counts)
//	per declaration: kind, name, qualified name, container, signature
//	  (string ids); start line, end line, start byte, end byte; doc
//	  start; node range (start line, start col, end line, end col);
//	  outline, URI (string ids); flags (1: a test); tested names (count,
//	  string ids); body (count, string ids)
//
// The first two sections are what the content keeps (one string); the
// rest is read once.

type packEncoder struct {
	ids  map[string]uint32
	strs []string
	recs []byte
}

func (e *packEncoder) num(v int) { e.recs = binary.AppendUvarint(e.recs, uint64(v)) }

func (e *packEncoder) str(s string) { e.recs = binary.AppendUvarint(e.recs, uint64(e.ids[s])) }

func appendRaw(b []byte, s string) []byte {
	b = binary.AppendUvarint(b, uint64(len(s)))
	return append(b, s...)
}

// packDecl is what encodeContent writes of one declaration.
type packDecl struct {
	d                     *symbols.Decl
	outline, uri          string
	start, sl, sc, el, ec int
	test                  bool
	tested                []string
}

// encodeContent is the pack of code file f (import path ip) from its
// source and table: where a declaration's URI, doc-comment start, range,
// outline and tested names are decided. The strings are written sorted
// (an id's order is its string's), so a content finds a token's id by a
// binary search (cxContent.idOf).
func encodeContent(f cxFile, ip string, src []byte, tab symbols.Table) []byte {
	lines := lineStarts(src)
	pkg := ""
	if f.lang == symbols.Go {
		pkg = goPackage(src)
	}
	e := packEncoder{ids: map[string]uint32{pkg: 0}}
	add := func(s string) {
		if _, ok := e.ids[s]; !ok {
			e.ids[s] = 0
		}
	}
	nbody, ntested := 0, 0
	pds := make([]packDecl, len(tab.Decls))
	for i := range tab.Decls {
		d := &tab.Decls[i]
		p := &pds[i]
		p.d = d
		p.test = f.test && isTestDecl(f.lang, d)
		kind := devcontext.KindSymbol
		if p.test {
			kind = devcontext.KindTest
			p.tested = testedNames(f.lang, d)
		}
		p.uri = symbolURI(kind, ip, d.QualifiedName)
		if f.lang == symbols.Go && (d.QualifiedName == "init" || d.QualifiedName == "_") {
			p.uri += "#" + path.Base(f.path) + ":" + strconv.Itoa(d.StartLine) // may repeat in a package
		}
		p.start = docCommentStart(src, lines, d.StartByte, d.StartLine)
		p.sl, p.sc = linePos(lines, p.start)
		p.el, p.ec = linePos(lines, max(d.EndByte-1, p.start))
		p.outline = OutlineOf(d, src)
		for _, s := range []string{d.Kind, d.Name, d.QualifiedName, d.Container, d.Signature, p.outline, p.uri} {
			add(s)
		}
		for _, t := range p.tested {
			add(t)
		}
		ntested += len(p.tested)
		nbody += d.Body.Len()
		for t := range d.Body.Len() {
			add(d.Body.At(t))
		}
	}
	e.strs = make([]string, 0, len(e.ids))
	for s := range e.ids {
		e.strs = append(e.strs, s)
	}
	slices.Sort(e.strs)
	for i, s := range e.strs {
		e.ids[s] = uint32(i)
	}
	e.str(pkg)
	head := e.recs
	e.recs = nil
	for i := range pds {
		p := &pds[i]
		d := p.d
		for _, s := range []string{d.Kind, d.Name, d.QualifiedName, d.Container, d.Signature} {
			e.str(s)
		}
		for _, n := range []int{d.StartLine, d.EndLine, d.StartByte, d.EndByte, p.start, p.sl, p.sc, p.el, p.ec} {
			e.num(n)
		}
		e.str(p.outline)
		e.str(p.uri)
		if p.test {
			e.num(1)
		} else {
			e.num(0)
		}
		e.num(len(p.tested))
		for _, t := range p.tested {
			e.str(t)
		}
		e.num(d.Body.Len())
		for t := range d.Body.Len() {
			e.str(d.Body.At(t))
		}
	}
	decls := e.recs
	e.recs = head
	n := len(contentPackScheme) + len(f.path) + len(f.blob) + len(src) + len(e.recs) + len(decls) + 64
	for _, s := range e.strs {
		n += len(s) + 2
	}
	out := make([]byte, 0, n)
	out = appendRaw(out, contentPackScheme)
	out = appendRaw(out, f.path)
	out = appendRaw(out, f.blob)
	out = appendRaw(out, string(src))
	out = binary.AppendUvarint(out, uint64(len(e.strs)))
	for _, s := range e.strs {
		out = appendRaw(out, s)
	}
	out = append(out, e.recs...) // the package
	out = binary.AppendUvarint(out, uint64(len(tab.Decls)))
	out = binary.AppendUvarint(out, uint64(nbody))
	out = binary.AppendUvarint(out, uint64(ntested))
	return append(out, decls...)
}

// minDeclRecord is the fewest bytes a declaration's record takes: 19
// numbers of at least a byte each.
const minDeclRecord = 19

// packDecoder reads a pack's bytes strictly, like workspace.PackReader,
// but over the bytes the store read into a reused buffer rather than a
// string: only the source-and-strings section is copied out (the records
// of ids, most of a pack, are read and dropped), where PackReader would
// make the whole entry one string the kept declarations hold alive.
type packDecoder struct {
	b   []byte
	err error
}

func (d *packDecoder) fail() {
	if d.err == nil {
		d.err = errBadContent
	}
	d.b = nil
}

func (d *packDecoder) uvarint() uint64 {
	if d.err != nil {
		return 0
	}
	v, n := binary.Uvarint(d.b)
	if n <= 0 {
		d.fail()
		return 0
	}
	d.b = d.b[n:]
	return v
}

// num is a number that fits an int32 (offsets, lines, columns).
func (d *packDecoder) num() int {
	v := d.uvarint()
	if v > 1<<31-1 {
		d.fail()
		return 0
	}
	return int(v)
}

// count is a number of following items of at least one byte each.
func (d *packDecoder) count() int {
	v := d.uvarint()
	if v > uint64(len(d.b)) {
		d.fail()
		return 0
	}
	return int(v)
}

// ids appends n uvarint string ids below nstrs to body (the body
// tokens: most of a pack's numbers, one or two bytes each).
func (d *packDecoder) ids(body []uint32, n, nstrs int) []uint32 {
	b := d.b
	for ; n > 0; n-- {
		var v uint64
		switch {
		case len(b) > 0 && b[0] < 0x80:
			v, b = uint64(b[0]), b[1:]
		case len(b) > 1 && b[1] < 0x80:
			v, b = uint64(b[0]&0x7f)|uint64(b[1])<<7, b[2:]
		default:
			var k int
			v, k = binary.Uvarint(b)
			if k <= 0 {
				d.fail()
				return body
			}
			b = b[k:]
		}
		if v >= uint64(nstrs) {
			d.fail()
			return body
		}
		body = append(body, uint32(v))
	}
	d.b = b
	return body
}

// raw reads a length-prefixed byte string (a slice of the input).
func (d *packDecoder) raw() []byte {
	n := d.count()
	if d.err != nil {
		return nil
	}
	s := d.b[:n:n]
	d.b = d.b[n:]
	return s
}

// decodeContent reads the pack of code file f: its declarations, their
// nodes under f's path. Anything that does not hold together is an error,
// never a panic or a partial content.
func decodeContent(data []byte, f cxFile) (*cxContent, error) {
	d := packDecoder{b: data}
	if string(d.raw()) != contentPackScheme || string(d.raw()) != f.path || string(d.raw()) != f.blob {
		return nil, errBadContent
	}
	// The kept section (source and strings) as one string: the content's
	// texts are slices of it.
	keepFrom := len(data) - len(d.b)
	srcLen := d.count()
	if d.err != nil {
		return nil, d.err
	}
	srcAt := len(data) - len(d.b)
	d.b = d.b[srcLen:]
	nstrs := d.count()
	strsAt := d.b
	for i := 0; i < nstrs && d.err == nil; i++ {
		n := d.count()
		if d.err == nil {
			d.b = d.b[n:]
		}
	}
	if d.err != nil {
		return nil, d.err
	}
	keptEnd := len(data) - len(d.b)
	kept := string(data[keepFrom:keptEnd])
	at := func(off, n int) string { return kept[off-keepFrom : off-keepFrom+n] }
	strs := make([]string, nstrs)
	{ // the lengths again (they held above), slicing kept
		r := packDecoder{b: strsAt}
		for i := range strs {
			n := r.count()
			off := len(data) - len(r.b)
			strs[i] = at(off, n)
			r.b = r.b[n:]
			if i > 0 && strs[i-1] >= strs[i] {
				return nil, errBadContent // the ids are found by a binary search
			}
		}
	}
	str := func() string {
		id := d.uvarint()
		if id >= uint64(nstrs) {
			d.fail()
			return ""
		}
		return strs[id]
	}
	text := at(srcAt, srcLen)
	c := &cxContent{text: text, strs: strs}
	c.pkg = str()
	nd, nb, nt := d.count(), d.count(), d.count()
	if d.err == nil && nd > len(d.b)/minDeclRecord {
		d.fail() // more declarations than their records could fill: not allocated
	}
	if d.err != nil {
		return nil, d.err
	}
	c.decls = make([]cxContentDecl, nd)
	syms := make([]cxSym, nd)
	ranges := make([]devcontext.Range, nd)
	body := make([]uint32, 0, nb)
	var tested []string
	if nt > 0 {
		tested = make([]string, 0, nt)
	}
	for i := 0; i < nd && d.err == nil; i++ {
		y := &syms[i]
		y.Kind, y.Name, y.QualifiedName, y.Container, y.Signature = str(), str(), str(), str(), str()
		y.StartLine, y.EndLine, y.StartByte, y.EndByte = d.num(), d.num(), d.num(), d.num()
		start := d.num()
		r := &ranges[i]
		r.StartLine, r.StartCol, r.EndLine, r.EndCol = d.num(), d.num(), d.num(), d.num()
		outline, uri := str(), str()
		flags := d.uvarint()
		ntd := d.count()
		if d.err != nil || flags > 1 || len(tested)+ntd > nt || !(start <= y.StartByte && y.StartByte <= y.EndByte &&
			y.EndByte <= len(text) && 1 <= y.StartLine && y.StartLine <= y.EndLine) {
			d.fail()
			break
		}
		t0 := len(tested)
		for range ntd {
			tested = append(tested, str())
		}
		nbd := d.count()
		if d.err != nil || len(body)+nbd > nb {
			d.fail()
			break
		}
		b0 := len(body)
		body = d.ids(body, nbd, nstrs)
		y.Body = cxTokens{strs: strs, ids: body[b0:len(body):len(body)]}
		x := &c.decls[i]
		*x = cxContentDecl{d: y, base: cxBaseName(y.Name), kc: classOf(y.Kind), test: flags == 1, uri: uri, start: start}
		if y.Container != "" {
			x.cbase = cxBaseName(y.Container)
		}
		kind := devcontext.KindSymbol
		if x.test {
			kind = devcontext.KindTest
			if ntd > 0 {
				x.tested = tested[t0:len(tested):len(tested)]
			}
		}
		x.node = devcontext.Node{URI: uri, Kind: kind, Title: y.QualifiedName, Name: y.QualifiedName, Path: f.path,
			Range: r, Text: text[start:y.EndByte], Outline: outline, Facts: declarationFacts(y.Kind)}
	}
	if d.err == nil && (len(d.b) != 0 || len(body) != nb || len(tested) != nt) {
		d.fail()
	}
	if d.err != nil {
		return nil, d.err
	}
	return c, nil
}
