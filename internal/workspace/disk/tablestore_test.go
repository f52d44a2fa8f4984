package disk

import (
	"bytes"
	"crypto/sha256"
	"os"
	"path/filepath"
	"testing"
)

// TestGetIntoIsGet: GetInto (and Get, which is GetInto without a buffer)
// answers as the entry read whole and checked — the payload of a whole
// entry, a miss for a missing, truncated, extended or flipped one and for
// one copied under another key's name — and reads into the buffer it is
// given when that is large enough.
func TestGetIntoIsGet(t *testing.T) {
	s, err := OpenTableStoreAt(t.TempDir(), "v1")
	if err != nil {
		t.Fatal(err)
	}
	key, other := sha256.Sum256([]byte("a")), sha256.Sum256([]byte("b"))
	payload := bytes.Repeat([]byte("payload "), 100)
	s.Put(key, payload)
	entry, err := os.ReadFile(s.path(key))
	if err != nil {
		t.Fatal(err)
	}
	check := func(name string) {
		t.Helper()
		// The reference: the file read whole, its envelope checked (Get
		// is GetInto without a buffer).
		var want []byte
		wantOK := false
		if b, err := os.ReadFile(s.path(key)); err == nil {
			want, wantOK = s.open(key, b)
		}
		buf := make([]byte, 0, 4096)
		got, grown, ok := s.GetInto(key, buf)
		if ok != wantOK || !bytes.Equal(got, want) {
			t.Errorf("%s: GetInto = %v (%d bytes), the entry read whole = %v (%d bytes)", name, ok, len(got), wantOK, len(want))
		}
		if ok && &grown[:1][0] != &buf[:1][0] {
			t.Errorf("%s: a 4096-byte buffer was not used", name)
		}
	}
	check("whole")
	if got, _, _ := s.GetInto(key, nil); !bytes.Equal(got, payload) {
		t.Error("GetInto without a buffer does not return the payload")
	}
	if got, ok := s.Get(key); !ok || !bytes.Equal(got, payload) {
		t.Error("Get does not return the payload")
	}
	for name, b := range map[string][]byte{
		"truncated":        entry[:len(entry)-5],
		"extended":         append(bytes.Clone(entry), 0),
		"payload flipped":  flipByte(entry, len(entry)/2),
		"checksum flipped": flipByte(entry, len(entry)-1),
	} {
		if err := os.WriteFile(s.path(key), b, 0o644); err != nil {
			t.Fatal(err)
		}
		check(name)
		if _, _, ok := s.GetInto(key, nil); ok {
			t.Errorf("%s: GetInto trusts it", name)
		}
		if _, ok := s.Get(key); ok {
			t.Errorf("%s: Get trusts it", name)
		}
	}
	if err := os.WriteFile(s.path(key), entry, 0o644); err != nil {
		t.Fatal(err)
	}
	if err := os.MkdirAll(filepath.Dir(s.path(other)), 0o755); err != nil {
		t.Fatal(err)
	}
	if err := os.WriteFile(s.path(other), entry, 0o644); err != nil {
		t.Fatal(err)
	}
	if _, _, ok := s.GetInto(other, nil); ok {
		t.Error("an entry copied under another key's name is trusted")
	}
	if _, _, ok := s.GetInto(sha256.Sum256([]byte("missing")), nil); ok {
		t.Error("a missing entry is found")
	}
}

func flipByte(b []byte, i int) []byte {
	c := bytes.Clone(b)
	c[i] ^= 1
	return c
}
