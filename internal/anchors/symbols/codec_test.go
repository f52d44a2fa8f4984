package symbols

import (
	"os"
	"path/filepath"
	"reflect"
	"strings"
	"testing"
)

// Every table of testdata/ (all languages, with and without body tokens)
// decodes back to exactly the table that was encoded.
func TestTableCodecRoundTrip(t *testing.T) {
	files, _ := filepath.Glob("testdata/*")
	n := 0
	for _, f := range files {
		lang, ok := LanguageForPath(strings.TrimSuffix(f, ".txt"))
		if !ok {
			continue
		}
		src, err := os.ReadFile(f)
		if err != nil {
			continue
		}
		for _, keep := range []bool{false, true} {
			tab := Parse(lang, src, Options{KeepBodyTokens: keep})
			if len(tab.Decls) == 0 {
				t.Fatalf("%s: no declarations to round-trip", f)
			}
			got, err := DecodeTable(EncodeTable(tab))
			if err != nil {
				t.Fatalf("%s: %v", f, err)
			}
			if !reflect.DeepEqual(got, tab) {
				t.Fatalf("%s (body tokens %v): decoded table differs", f, keep)
			}
			n++
		}
	}
	if n < 20 {
		t.Fatalf("only %d tables round-tripped", n)
	}
	// SQL's ALTER/DROP/RENAME statements come back too: a migrations
	// folder replays them, so a cached table without them would give other
	// verdicts.
	sql := Parse(SQL, []byte("CREATE TABLE users (id int);\nALTER TABLE users ADD COLUMN name text;\nALTER TABLE users RENAME TO people;\nDROP TABLE people;\n"), Options{KeepBodyTokens: true})
	if len(sql.Changes) < 3 {
		t.Fatalf("SQL changes: %+v", sql.Changes)
	}
	if got, err := DecodeTable(EncodeTable(sql)); err != nil || !reflect.DeepEqual(got, sql) {
		t.Fatalf("SQL table with changes: got %+v, %v", got.Changes, err)
	}
	// nil and empty slices stay apart.
	for _, tab := range []Table{{}, {GaveUp: true}, {Decls: []Decl{}}, {Decls: []Decl{{Body: PackTokens([]string{"", "a"})}}}, {Decls: []Decl{{}}}, {Changes: []Change{}}, {Changes: []Change{{Op: ChangeDrop}}}} {
		got, err := DecodeTable(EncodeTable(tab))
		if err != nil || !reflect.DeepEqual(got, tab) {
			t.Fatalf("%#v: got %#v, %v", tab, got, err)
		}
	}
}

// A Decl field the codec does not write would come back zero from a
// persisted table: adding one must fail here until the codec (and
// TableRules) are updated.
func TestTableCodecCoversEveryField(t *testing.T) {
	var names []string
	ty := reflect.TypeOf(Decl{})
	for i := 0; i < ty.NumField(); i++ {
		names = append(names, ty.Field(i).Name)
	}
	want := "Kind Name QualifiedName Container StartLine EndLine StartByte EndByte NameStartByte NameEndByte DeclHash BodyHash BodyTokens SchemeSensitive Signature Body"
	if got := strings.Join(names, " "); got != want {
		t.Fatalf("Decl fields are\n%s\nthe codec writes\n%s", got, want)
	}
	if n := reflect.TypeOf(Table{}).NumField(); n != 5 {
		t.Fatalf("Table has %d fields, the codec writes 5", n)
	}
	var change []string
	for ty, i := reflect.TypeOf(Change{}), 0; i < reflect.TypeOf(Change{}).NumField(); i++ {
		change = append(change, ty.Field(i).Name)
	}
	if got := strings.Join(change, " "); got != "Decl Op NewName" {
		t.Fatalf("Change fields are %s, the codec writes Decl Op NewName", got)
	}
}

// Truncations and single-byte corruptions of a real encoding are errors or
// a table that re-encodes to itself, never a panic.
func TestTableCodecRejectsDamage(t *testing.T) {
	src, err := os.ReadFile("testdata/shop.go")
	if err != nil {
		t.Fatal(err)
	}
	enc := EncodeTable(Parse(Go, src, Options{KeepBodyTokens: true}))
	for n := 0; n < len(enc); n++ {
		if _, err := DecodeTable(enc[:n]); err == nil {
			t.Fatalf("truncated to %d of %d bytes: no error", n, len(enc))
		}
	}
	if _, err := DecodeTable(append(append([]byte{}, enc...), 0)); err == nil {
		t.Fatal("trailing byte: no error")
	}
	for i := 0; i < len(enc); i++ {
		bad := append([]byte{}, enc...)
		bad[i] ^= 0xff
		if tab, err := DecodeTable(bad); err == nil {
			checkReencodes(t, tab)
		}
	}
}

func checkReencodes(t *testing.T, tab Table) {
	t.Helper()
	again, err := DecodeTable(EncodeTable(tab))
	if err != nil || !reflect.DeepEqual(again, tab) {
		t.Fatalf("a decoded table does not re-encode to itself: %v", err)
	}
}

func FuzzDecodeTable(f *testing.F) {
	src, _ := os.ReadFile("testdata/shop.go")
	f.Add(EncodeTable(Parse(Go, src, Options{KeepBodyTokens: true})))
	f.Add(EncodeTable(Table{}))
	f.Add([]byte{})
	f.Add([]byte{0xff, 0xff, 0xff, 0xff, 0xff, 0xff, 0xff, 0xff, 0xff, 0x01})
	f.Fuzz(func(t *testing.T, b []byte) {
		if tab, err := DecodeTable(b); err == nil {
			checkReencodes(t, tab)
		}
	})
}
