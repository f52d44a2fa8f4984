package workspace

import (
	"encoding/binary"
	"time"
)

// Records that outlive a snapshot. A feature that keeps what it derived
// from a file's content (contextmap's identifier index, verify's mention
// records) keeps with it the stat the file was read under, and later
// trusts a file whose stat is still that one: it is not read again. Only a
// stat old enough to tell a later write is kept (git's racy rule): a write
// within the clock's granularity of the read could otherwise leave size
// and times as they were. The records are persisted through the
// PersistentStore, whose entries a feature decodes strictly with a
// PackReader: a record that does not hold together is never trusted.

// RacyWindow is how recently a file may have changed for its stat to be
// trusted later.
const RacyWindow = 100 * time.Millisecond

// TrustedStat is the stat a record may keep of a file read after start:
// st when it had not changed for RacyWindow before start, else the zero
// stat (Ok false: read the file again next time).
func TrustedStat(st FileStat, start time.Time) FileStat {
	limit := start.Add(-RacyWindow).UnixNano()
	if !st.Ok || st.ModTime >= limit || st.Ctime >= limit {
		return FileStat{}
	}
	return st
}

// StatUnchanged reports whether a file whose trusted stat was rec has it
// still (now, from FileStats): then its content is the one recorded.
func StatUnchanged(rec, now FileStat) bool { return rec.Ok && now.Ok && rec == now }

// PackReader reads a persisted entry's uvarints and strings strictly: the
// first malformed or out-of-bounds field sets Bad, and every later read
// answers zero values.
type PackReader struct {
	S   string
	Off int
	Bad bool
}

// Num reads a uvarint.
func (r *PackReader) Num() uint64 {
	v, n := uvarintString(r.S[min(r.Off, len(r.S)):])
	if n <= 0 {
		r.Bad = true
		return 0
	}
	r.Off += n
	return v
}

// Str reads a uvarint length and that many bytes.
func (r *PackReader) Str() string {
	n := r.Num()
	if r.Bad || n > uint64(len(r.S)-r.Off) {
		r.Bad = true
		return ""
	}
	s := r.S[r.Off : r.Off+int(n)]
	r.Off += int(n)
	return s
}

// Done reports whether every byte was read and none was malformed.
func (r *PackReader) Done() bool { return !r.Bad && r.Off == len(r.S) }

// AppendPackString appends s as PackReader.Str reads it.
func AppendPackString(b []byte, s string) []byte {
	b = binary.AppendUvarint(b, uint64(len(s)))
	return append(b, s...)
}

func uvarintString(s string) (uint64, int) {
	var v uint64
	for i := 0; i < len(s) && i < binary.MaxVarintLen64; i++ {
		c := s[i]
		v |= uint64(c&0x7f) << (7 * i)
		if c < 0x80 {
			if c == 0 && i > 0 {
				return 0, -1 // not the shortest form: no encoder here writes it
			}
			if i == binary.MaxVarintLen64-1 && c > 1 {
				return 0, -1 // past 64 bits (binary.Uvarint's overflow)
			}
			return v, i + 1
		}
	}
	return 0, -1
}
