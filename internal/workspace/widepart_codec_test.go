package workspace

import (
	"bytes"
	"crypto/sha256"
	"testing"

	"github.com/clew-lsp/clew-lsp/internal/anchors"
)

func widePartSample() ([sha256.Size]byte, []storedCand) {
	pk := sha256.Sum256([]byte("pass"))
	stat := FileStat{Size: 12, ModTime: 1_700_000_000_000_000_000, Ctime: 1_700_000_000_000_000_001, Inode: 77, Ok: true}
	return pk, []storedCand{
		{path: "a/a.go", st: anchors.FileOK, size: 12, spent: true, stat: stat, accepted: true, sum: sha256.Sum256([]byte("a"))},
		{path: "b/b.go", st: anchors.FileOK, size: 12, stat: stat},
		{path: "c/blob.go", st: anchors.FileBinary, size: 3, stat: stat},
		{path: "d/empty.go", st: anchors.FileOK, spent: true, stat: stat},
	}
}

// An entry reads back as written; one of another root, or cut short, or
// with bytes left over, or naming a status no scanned candidate has, does
// not read at all.
func TestWidePartEntryRoundTrips(t *testing.T) {
	pk, recs := widePartSample()
	data := encodeWidePart("/w", pk, recs)
	gotPK, got, ok := decodeWidePart(data, "/w")
	if !ok || gotPK != pk || len(got) != len(recs) {
		t.Fatalf("decode: ok %v, %d records", ok, len(got))
	}
	for i := range recs {
		if got[i] != recs[i] {
			t.Errorf("record %d: %+v, want %+v", i, got[i], recs[i])
		}
	}
	bad := map[string][]byte{
		"another root": data,
		"cut short":    data[:len(data)-1],
		"left over":    append(append([]byte{}, data...), 0),
	}
	for what, b := range bad {
		root := "/w"
		if what == "another root" {
			root = "/other"
		}
		if _, _, ok := decodeWidePart(b, root); ok {
			t.Errorf("%s: decoded", what)
		}
	}
	empty := encodeWidePart("/w", pk, nil)
	long := append(empty[:len(empty)-1:len(empty)-1], 0x80, 0x00) // the count 0 in two bytes
	if _, _, ok := decodeWidePart(long, "/w"); ok {
		t.Error("a number not in its shortest form: decoded")
	}
	for _, b := range []string{"\x80\x80\x80\x80\x80\x80\x80\x80\x80\x02", "\xff\xff\xff\xff\xff\xff\xff\xff\xff\x7f"} {
		r := PackReader{S: b}
		if r.Num(); !r.Bad {
			t.Errorf("%q: a number past 64 bits read", b)
		}
	}
	largest := PackReader{S: "\xff\xff\xff\xff\xff\xff\xff\xff\xff\x01"}
	if largest.Num() != 1<<64-1 || !largest.Done() {
		t.Error("the largest 64-bit number not read")
	}
	unread := append([]storedCand{}, recs...)
	unread[1].st = anchors.FileUnread
	if _, _, ok := decodeWidePart(encodeWidePart("/w", pk, unread), "/w"); ok {
		t.Error("a candidate the budget left unread: decoded")
	}
}

func FuzzDecodeWidePart(f *testing.F) {
	pk, recs := widePartSample()
	f.Add(encodeWidePart("/w", pk, recs))
	f.Add(encodeWidePart("/w", pk, nil))
	f.Add([]byte{})
	f.Fuzz(func(t *testing.T, data []byte) {
		pk, recs, ok := decodeWidePart(data, "/w")
		if ok && !bytes.Equal(encodeWidePart("/w", pk, recs), data) {
			t.Fatalf("%q decodes to %+v, which encodes otherwise", data, recs)
		}
	})
}
