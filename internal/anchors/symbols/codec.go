package symbols

import (
	"encoding/binary"
	"errors"
	"fmt"
)

// TableRules versions what Parse makes of a file beyond the hash scheme:
// kinds, names, spans, signatures, token lists. Raise it with any change
// to a walker or a grammar that can change a Table, so persisted tables
// (the workspace's cache between runs) made by older code are not used.
const TableRules = 1

// tableCodec is the version of the encoding below (2: SQL's Changes are
// written; a version-1 entry would come back without them).
const tableCodec = 2

// CacheVersion names everything a persisted Table depends on inside this
// package: a cache keys its entries by it as well as by the content.
func CacheVersion() string {
	return fmt.Sprintf("symbols-tables/rules=%d/scheme=%d/codec=%d", TableRules, HashScheme, tableCodec)
}

// EncodeTable writes t in a compact binary form that DecodeTable reads
// back exactly (every field of every Decl and Change; nil and empty slices
// kept apart, except a Decl's Body, whose empty list has one form). Strings are written once and referred to by number: body token
// lists repeat the same few hundred strings.
func EncodeTable(t Table) []byte {
	e := tableEncoder{ids: map[string]uint64{}}
	var body []byte
	body = e.str(body, string(t.Language))
	body = binary.AppendUvarint(body, uint64(t.SyntaxErrors))
	body = append(body, boolByte(t.GaveUp))
	body = appendLen(body, t.Decls == nil, len(t.Decls))
	for i := range t.Decls {
		body = e.decl(body, &t.Decls[i])
	}
	body = appendLen(body, t.Changes == nil, len(t.Changes))
	for i := range t.Changes {
		c := &t.Changes[i]
		body = e.decl(body, &c.Decl)
		body = e.str(body, c.Op)
		body = e.str(body, c.NewName)
	}
	out := binary.AppendUvarint(nil, uint64(len(e.strs)))
	for _, s := range e.strs {
		out = binary.AppendUvarint(out, uint64(len(s)))
		out = append(out, s...)
	}
	return append(out, body...)
}

// decl writes every field of one Decl.
func (e *tableEncoder) decl(body []byte, d *Decl) []byte {
	for _, s := range []string{d.Kind, d.Name, d.QualifiedName, d.Container} {
		body = e.str(body, s)
	}
	for _, n := range []int{d.StartLine, d.EndLine, d.StartByte, d.EndByte, d.NameStartByte, d.NameEndByte, d.BodyTokens} {
		body = binary.AppendVarint(body, int64(n))
	}
	for _, s := range []string{d.DeclHash, d.BodyHash, d.Signature} {
		body = e.str(body, s)
	}
	body = append(body, boolByte(d.SchemeSensitive))
	body = appendLen(body, d.Body.Len() == 0, d.Body.Len())
	for i := range d.Body.Len() {
		body = e.str(body, d.Body.At(i))
	}
	return body
}

func boolByte(b bool) byte {
	if b {
		return 1
	}
	return 0
}

type tableEncoder struct {
	ids  map[string]uint64
	strs []string
}

func (e *tableEncoder) str(b []byte, s string) []byte {
	id, ok := e.ids[s]
	if !ok {
		id = uint64(len(e.strs))
		e.ids[s] = id
		e.strs = append(e.strs, s)
	}
	return binary.AppendUvarint(b, id)
}

// appendLen writes a slice length, 0 for nil and n+1 otherwise.
func appendLen(b []byte, isNil bool, n int) []byte {
	if isNil {
		return binary.AppendUvarint(b, 0)
	}
	return binary.AppendUvarint(b, uint64(n)+1)
}

var errBadTable = errors.New("malformed table encoding")

// DecodeTable reads what EncodeTable wrote. Any malformed input (short,
// overlong, out-of-range numbers, trailing bytes) is an error, never a
// panic or a partial table.
func DecodeTable(b []byte) (Table, error) {
	d := tableDecoder{b: b}
	n := d.count()
	d.strs = make([]string, 0, n)
	for i := 0; i < n && d.err == nil; i++ {
		l := d.count()
		if d.err == nil {
			d.strs = append(d.strs, string(d.b[:l]))
			d.b = d.b[l:]
		}
	}
	var t Table
	t.Language = Language(d.str())
	t.SyntaxErrors = d.int(d.uvarint())
	t.GaveUp = d.bool()
	if nd, isNil := d.length(); !isNil {
		t.Decls = make([]Decl, 0, nd)
		for i := 0; i < nd && d.err == nil; i++ {
			t.Decls = append(t.Decls, d.decl())
		}
	}
	if nc, isNil := d.length(); !isNil {
		t.Changes = make([]Change, 0, nc)
		for i := 0; i < nc && d.err == nil; i++ {
			c := Change{Decl: d.decl()}
			c.Op, c.NewName = d.str(), d.str()
			t.Changes = append(t.Changes, c)
		}
	}
	if d.err == nil && len(d.b) != 0 {
		d.fail()
	}
	if d.err != nil {
		return Table{}, d.err
	}
	return t, nil
}

// decl reads what tableEncoder.decl wrote.
func (d *tableDecoder) decl() Decl {
	var x Decl
	x.Kind, x.Name, x.QualifiedName, x.Container = d.str(), d.str(), d.str(), d.str()
	for _, p := range []*int{&x.StartLine, &x.EndLine, &x.StartByte, &x.EndByte, &x.NameStartByte, &x.NameEndByte, &x.BodyTokens} {
		*p = d.varint()
	}
	x.DeclHash, x.BodyHash, x.Signature = d.str(), d.str(), d.str()
	x.SchemeSensitive = d.bool()
	if nb, isNil := d.length(); !isNil {
		d.body = d.body[:0]
		for j := 0; j < nb && d.err == nil; j++ {
			d.body = append(d.body, d.str())
		}
		x.Body = PackTokens(d.body)
	}
	return x
}

type tableDecoder struct {
	b    []byte
	strs []string
	body []string // scratch: one body's tokens, packed after
	err  error
}

func (d *tableDecoder) fail() {
	if d.err == nil {
		d.err = errBadTable
	}
	d.b = nil
}

func (d *tableDecoder) uvarint() uint64 {
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

func (d *tableDecoder) varint() int {
	if d.err != nil {
		return 0
	}
	v, n := binary.Varint(d.b)
	if n <= 0 || int64(int(v)) != v {
		d.fail()
		return 0
	}
	d.b = d.b[n:]
	return int(v)
}

func (d *tableDecoder) int(v uint64) int {
	if v > 1<<31 {
		d.fail()
		return 0
	}
	return int(v)
}

// count reads a number of following items; each takes at least one byte,
// so a count past the remaining input is malformed (and never allocated).
func (d *tableDecoder) count() int {
	v := d.uvarint()
	if v > uint64(len(d.b)) {
		d.fail()
		return 0
	}
	return int(v)
}

// length reads an appendLen value.
func (d *tableDecoder) length() (int, bool) {
	v := d.uvarint()
	if d.err != nil || v == 0 {
		return 0, true
	}
	if v-1 > uint64(len(d.b)) {
		d.fail()
		return 0, true
	}
	return int(v - 1), false
}

func (d *tableDecoder) str() string {
	id := d.uvarint()
	if d.err != nil {
		return ""
	}
	if id >= uint64(len(d.strs)) {
		d.fail()
		return ""
	}
	return d.strs[id]
}

func (d *tableDecoder) bool() bool {
	switch d.byte() {
	case 0:
		return false
	case 1:
		return true
	}
	d.fail()
	return false
}

func (d *tableDecoder) byte() byte {
	if d.err != nil || len(d.b) == 0 {
		d.fail()
		return 0
	}
	c := d.b[0]
	d.b = d.b[1:]
	return c
}
