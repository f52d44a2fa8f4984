package gitstate

import (
	"bytes"
	"encoding/binary"
	"strconv"

	"github.com/go-git/go-git/v5/plumbing/hash"
)

// indexEntry is what Tracked needs of one entry of git's index.
type indexEntry struct {
	name  string
	mode  uint32
	stage uint8
}

// decodeIndex reads the entries of an index file (.git/index) the way
// go-git's index.Decoder does, without its reflective field-by-field
// reads (about sixteen allocations an entry, most of a load's git work).
// It knows versions 2, 3 and 4 (path prefix compression), the TREE, REUC
// and EOIE extensions and skips every optional one (a name in capitals),
// and checks the trailing checksum with go-git's hash. Anything else — a
// required extension it does not know (a split index's "link", a sparse
// index's "sdir"), a truncated or inconsistent file, a layout go-git would
// read differently — gives ok=false, and the caller decodes the same bytes
// with go-git, whose answer (entries or error) stands. So where ok is
// true, the entries are exactly go-git's (FuzzDecodeIndex,
// TestDecodeIndexIsGoGits).
func decodeIndex(data []byte) (entries []indexEntry, ok bool) {
	const header, fixed, sumLen = 12, 62, 20 // fixed: an entry up to its flags
	if len(data) < header+sumLen || string(data[:4]) != "DIRC" {
		return nil, false
	}
	version := binary.BigEndian.Uint32(data[4:])
	if version < 2 || version > 4 {
		return nil, false
	}
	count := binary.BigEndian.Uint32(data[8:])
	end := len(data) - sumLen
	// Every entry takes at least 63 bytes (v4: the fixed part, a one-byte
	// strip length and a NUL), so a count the file cannot hold is refused
	// before anything is allocated for it.
	if uint64(count) > uint64(end-header)/(fixed+1) {
		return nil, false
	}
	entries = make([]indexEntry, 0, count)
	// The names go into one buffer, made a string once: no allocation per
	// entry. ends[i] is where entry i's name ends in it.
	names := make([]byte, 0, len(data)/2)
	ends := make([]int, 0, count)
	prev := 0 // start of the previous name in names (v4 strips from it)
	pos := header
	for i := uint32(0); i < count; i++ {
		if end-pos < fixed {
			return nil, false
		}
		e := data[pos:]
		mode := binary.BigEndian.Uint32(e[24:])
		flags := binary.BigEndian.Uint16(e[60:])
		read := fixed
		if flags&0x4000 != 0 { // extended flags follow (go-git reads them in any version)
			if end-pos < fixed+2 {
				return nil, false
			}
			read += 2
		}
		pos += read
		start := len(names)
		if version == 4 {
			strip, n, ok := varint(data[pos:end])
			if !ok {
				return nil, false
			}
			pos += n
			last := start - prev // the previous name's length
			if i == 0 && strip > 0 || strip > uint64(last) {
				return nil, false
			}
			nul := bytes.IndexByte(data[pos:end], 0)
			if nul < 0 {
				return nil, false
			}
			names = append(names, names[prev:start-int(strip)]...)
			names = append(names, data[pos:pos+nul]...)
			pos += nul + 1
		} else {
			nameLen := int(flags & 0xfff)
			consumed := nameLen
			if nameLen == 0xfff { // too long for the field: NUL-terminated
				nul := bytes.IndexByte(data[pos:end], 0)
				if nul < 0 {
					return nil, false
				}
				nameLen, consumed = nul, nul+1
			}
			if end-pos < consumed {
				return nil, false
			}
			names = append(names, data[pos:pos+nameLen]...)
			pos += consumed
			// NUL padding to a multiple of eight bytes, counted as go-git
			// counts it (a terminating NUL already read is part of it).
			if pad := 8 - (read+nameLen)%8 - (consumed - nameLen); pad > 0 {
				if end-pos < pad {
					return nil, false
				}
				pos += pad
			}
		}
		prev = start
		ends = append(ends, len(names))
		entries = append(entries, indexEntry{mode: mode, stage: uint8(flags>>12) & 3})
	}
	// Extensions follow while there is room for one before the checksum
	// (go-git's test: eight bytes of header and the checksum remain).
	for end-pos > 0 {
		if end-pos < 8 {
			return nil, false
		}
		sig, size := data[pos:pos+4], binary.BigEndian.Uint32(data[pos+4:])
		pos += 8
		if uint64(size) > uint64(end-pos) {
			return nil, false
		}
		body := data[pos : pos+int(size)]
		pos += int(size)
		switch string(sig) {
		case "TREE":
			if !wellFormedTree(body) {
				return nil, false
			}
		case "REUC":
			if !wellFormedResolveUndo(body) {
				return nil, false
			}
		case "EOIE":
			if len(body) != 24 {
				return nil, false
			}
		default:
			if sig[0] < 'A' || sig[0] > 'Z' { // required, and unknown
				return nil, false
			}
		}
	}
	h := hash.New(hash.CryptoType)
	h.Write(data[:end])
	if h.Size() != sumLen || !bytes.Equal(h.Sum(nil), data[end:]) {
		return nil, false
	}
	all := string(names)
	from := 0
	for i := range entries {
		entries[i].name = all[from:ends[i]]
		from = ends[i]
	}
	return entries, true
}

// varint reads git's offset varint (each continuation adds one before the
// shift, so every value has one encoding), as go-git's
// binary.ReadVariableWidthInt does; n is the bytes it took. Values past
// 2^56 are refused: no name is that long.
func varint(b []byte) (v uint64, n int, ok bool) {
	for n < len(b) && n < 8 {
		c := b[n]
		n++
		v += uint64(c & 0x7f)
		if c&0x80 == 0 {
			return v, n, true
		}
		v = (v + 1) << 7
	}
	return 0, 0, false
}

// wellFormedTree: the cache-tree extension is a run of complete entries —
// path NUL, entry count SP, subtree count LF, and an object id unless the
// count is negative — that go-git's decoder reads without error. Anything
// it might read otherwise is not well formed here.
func wellFormedTree(b []byte) bool {
	for len(b) > 0 {
		i := bytes.IndexByte(b, 0)
		if i < 0 {
			return false
		}
		b = b[i+1:]
		sp := bytes.IndexByte(b, ' ')
		if sp < 0 {
			return false
		}
		n, err := strconv.Atoi(string(b[:sp]))
		if err != nil {
			return false
		}
		b = b[sp+1:]
		lf := bytes.IndexByte(b, '\n')
		if lf < 0 {
			return false
		}
		if _, err := strconv.Atoi(string(b[:lf])); err != nil {
			return false
		}
		b = b[lf+1:]
		if n >= 0 {
			if len(b) < 20 {
				return false
			}
			b = b[20:]
		}
	}
	return true
}

// wellFormedResolveUndo: the resolve-undo extension is a run of complete
// entries — path NUL, three octal modes each NUL-terminated, and an object
// id per non-zero mode — that go-git's decoder reads without error.
func wellFormedResolveUndo(b []byte) bool {
	for len(b) > 0 {
		i := bytes.IndexByte(b, 0)
		if i < 0 {
			return false
		}
		b = b[i+1:]
		ids := 0
		for range 3 {
			j := bytes.IndexByte(b, 0)
			if j < 0 {
				return false
			}
			m, err := strconv.ParseInt(string(b[:j]), 8, 64)
			if err != nil {
				return false
			}
			if m != 0 {
				ids++
			}
			b = b[j+1:]
		}
		if len(b) < 20*ids {
			return false
		}
		b = b[20*ids:]
	}
	return true
}
