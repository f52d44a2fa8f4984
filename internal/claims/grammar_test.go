package claims

import (
	"math"
	"reflect"
	"strings"
	"testing"
)

func parseOne(t *testing.T, doc, text string) ([]Leg, []Diagnostic) {
	t.Helper()
	return ParseDoc(doc, []byte(text))
}

// Public anchor-line cases.
func TestParseCases(t *testing.T) {
	row := "| INV-01 | revoke | published | active | 2026-01-01 | x |\n"

	t.Run("P01", func(t *testing.T) {
		legs, diags := parseOne(t, LawFile, row+"<!-- @anchor INV-01 api:db/migrations/*.sql /revoke[[:space:]]+update/i -->\n")
		if len(diags) != 0 || len(legs) != 1 {
			t.Fatalf("legs %v diags %v", legs, diags)
		}
		l := legs[0]
		if l.Claim != "INV-01" || l.Repo != "api" || l.Include != "db/migrations/*.sql" || len(l.Exclusions) != 0 ||
			l.Regex.Source != "revoke[[:space:]]+update" || l.Regex.Flags != "i" || l.Mode != ModePresent || l.Line != 2 {
			t.Fatalf("got %+v", l)
		}
	})
	t.Run("P03", func(t *testing.T) {
		legs, _ := parseOne(t, LawFile, "<!-- @anchor INV-01 api:db/migrations/*.sql /update[[:space:]]+accounts/i count=2 -->")
		if len(legs) != 1 || legs[0].Mode != ModeCount || legs[0].N != 2 {
			t.Fatalf("got %+v", legs)
		}
	})
	t.Run("P05", func(t *testing.T) {
		legs, _ := parseOne(t, LawFile, `<!-- @anchor INV-03 web:src/** /x\/y z/ unique -->`)
		if len(legs) != 1 || legs[0].Regex.Source != `x\/y z` || legs[0].Mode != ModeUnique {
			t.Fatalf("got %+v", legs)
		}
		if !legs[0].Regex.MatchString("x/y z") {
			t.Fatal("escaped slash should be a literal slash")
		}
	})
	t.Run("P07", func(t *testing.T) {
		for _, mode := range []string{"each=2", "every", "!each", "each!!"} {
			legs, diags := parseOne(t, LawFile, "<!-- @anchor INV-1 api:x/** /re/ "+mode+" -->")
			if len(legs) != 0 || len(diags) != 1 || !strings.Contains(diags[0].Message, `unknown mode "`+mode+`"`) ||
				!strings.Contains(diags[0].Message, "each or each!") {
				t.Errorf("%s: legs %v diags %v", mode, legs, diags)
			}
		}
	})
	wantDiag := func(id, line, gist string) {
		t.Run(id, func(t *testing.T) {
			legs, diags := parseOne(t, LawFile, line)
			if len(legs) != 0 || len(diags) != 1 || !strings.Contains(diags[0].Message, gist) {
				t.Fatalf("legs %v diags %v, want %q", legs, diags, gist)
			}
			if diags[0].Code != CodeParse || diags[0].Severity != SeverityError || diags[0].Line != 1 {
				t.Fatalf("diag %+v", diags[0])
			}
		})
	}
	wantDiag("P09", "<!-- @anchor INV-1 apiglob /re/ -->", `"apiglob" is not <repo>:<glob>`)
	t.Run("P09-picomatch", func(t *testing.T) {
		_, diags := parseOne(t, LawFile, "<!-- @anchor INV-1 apiglob /re/ -->")
		if !strings.Contains(diags[0].Message, "picomatch") || !strings.Contains(diags[0].Message, "`**`") {
			t.Fatal(diags[0].Message)
		}
	})
	wantDiag("P11", "<!-- @anchor INV-1 api:x/** /re/ sometimes -->", `unknown mode "sometimes"`)
	wantDiag("P13", "<!-- @anchor INV-1 api:x/** re -->", "missing or malformed /regex/")
	wantDiag("P15a", "<!-- @anchor INV-1 api:x/** !api: /re/ -->", "is not !<repo>:<glob>")
	wantDiag("P15b", "<!-- @anchor INV-1 api:x/** !:x.md /re/ -->", "is not !<repo>:<glob>")
	wantDiag("P17", "<!-- @anchor INV-1 api:x/** /re/", "unterminated anchor comment — write it on one line")
	wantDiag("P25", "<!-- @anchor X api:a /a/iabsent -->", `unsupported regex flags "iabsent"`)
	wantDiag("P27", "<!-- @anchor -->", "missing claim id")
	wantDiag("bare", "@anchor INV-1 api:x /q/", "anchor is not an HTML comment")
	wantDiag("bare-colon", "  @anchor: x", "anchor is not an HTML comment")
	wantDiag("no-space", "<!-- @anchor-->", "unterminated anchor comment")
	wantDiag("empty-excl", "<!-- @anchor X api:x ! /q/ -->", `empty !exclusion — remove the bare "!"`)
	wantDiag("empty-spec", "<!-- @anchor X -->", `"(nothing)" is not <repo>:<glob>`)
	wantDiag("id-slash", "<!-- @anchor /re/ -->", "missing claim id")
	wantDiag("id-colon", "<!-- @anchor api:x /re/ -->", "missing claim id")
	wantDiag("two-tails", "<!-- @anchor X api:x /re/ absent extra -->", "missing or malformed /regex/")
	wantDiag("flags-g", "<!-- @anchor X api:x /re/g -->", `unsupported regex flags "g"`)

	t.Run("P19", func(t *testing.T) {
		legs, diags := parseOne(t, LawFile, "<!-- @anchor INV-1 *:**.md !brain:07-rules.md !tmp/** !api:README.md /PIN/ absent -->")
		if len(diags) != 0 || len(legs) != 1 {
			t.Fatalf("legs %v diags %v", legs, diags)
		}
		want := []Exclusion{{"brain", "07-rules.md"}, {"", "tmp/**"}, {"api", "README.md"}}
		if !reflect.DeepEqual(legs[0].Exclusions, want) || legs[0].Repo != "*" || legs[0].Include != "**.md" {
			t.Fatalf("got %+v", legs[0])
		}
	})
	t.Run("P21", func(t *testing.T) {
		text := strings.Join([]string{
			"# design",
			"```",
			"<!-- @anchor INV-02 api:*.md /x/ -->",
			"<!-- @anchor BAD this is malformed -->",
			"```",
			"    <!-- @anchor BAD indented and malformed -->",
			"~~~",
			"<!-- @anchor INV-03 api:*.md /y/ -->",
			"~~~",
			"<!-- @anchor INV-04 api:*.md /live/ absent -->",
		}, "\n")
		legs, diags := parseOne(t, "DESIGN.md", text)
		if len(diags) != 0 || len(legs) != 1 || legs[0].Claim != "INV-04" || legs[0].Doc != "DESIGN.md" {
			t.Fatalf("legs %v diags %v", legs, diags)
		}
	})
	t.Run("P23", func(t *testing.T) {
		legs, _ := parseOne(t, LawFile, "<!-- @anchor X api:a /a/b/ absent -->")
		if len(legs) != 1 || legs[0].Regex.Source != "a/b" || legs[0].Mode != ModeAbsent {
			t.Fatalf("got %+v", legs)
		}
	})
	t.Run("P23-space", func(t *testing.T) {
		legs, _ := parseOne(t, LawFile, "<!-- @anchor X api:a /a/ b/ -->")
		if len(legs) != 1 || legs[0].Regex.Source != "a/ b" || legs[0].Mode != ModePresent {
			t.Fatalf("got %+v", legs)
		}
	})
	t.Run("P29", func(t *testing.T) {
		text := "<!--@anchor X api:x /q/-->\n| cell | <!-- @anchor X api:x /q/ --> |\n"
		legs, diags := parseOne(t, LawFile, text)
		if len(legs) != 2 {
			t.Fatalf("legs %v diags %v", legs, diags)
		}
		rows, _ := ParseRows([]byte(text))
		if len(rows) != 1 || rows[0].ID != "cell" || rows[0].State != "" || !rows[0].Short {
			t.Fatalf("rows %+v", rows)
		}
	})
	t.Run("empty-regex", func(t *testing.T) {
		legs, _ := parseOne(t, LawFile, "<!-- @anchor X api:a // -->")
		if len(legs) != 1 || !legs[0].Regex.MatchString("anything") {
			t.Fatalf("got %+v", legs)
		}
	})
	t.Run("each!", func(t *testing.T) {
		legs, _ := parseOne(t, LawFile, "<!-- @anchor X api:a /q/ each! -->")
		if len(legs) != 1 || legs[0].Mode != ModeEach || !legs[0].Negated || legs[0].ModeText() != "each!" {
			t.Fatalf("got %+v", legs)
		}
	})
	t.Run("js-whitespace", func(t *testing.T) {
		legs, diags := parseOne(t, LawFile, "<!--\u00a0@anchor\u00a0X\u00a0api:a /q/\u00a0absent\v-->")
		if len(legs) != 1 || legs[0].Mode != ModeAbsent || legs[0].Claim != "X" {
			t.Fatalf("legs %+v diags %v", legs, diags)
		}
	})
	t.Run("count=0", func(t *testing.T) {
		legs, _ := parseOne(t, LawFile, "<!-- @anchor X api:a /q/ count=007 -->")
		if len(legs) != 1 || legs[0].N != 7 {
			t.Fatalf("got %+v", legs)
		}
	})
	t.Run("count-past-2^64", func(t *testing.T) {
		// Divergence 5: multivac reads N as a JavaScript number; so do we.
		legs, diags := parseOne(t, LawFile, "<!-- @anchor X api:a /q/ count=18446744073709551617 -->")
		if len(legs) != 1 || len(diags) != 0 || legs[0].N != math.MaxInt || legs[0].ModeText() != "count=18446744073709552000" {
			t.Fatalf("legs %+v diags %v", legs, diags)
		}
		legs, _ = parseOne(t, LawFile, "<!-- @anchor X api:a /q/ count=1180591620717411303424 -->")
		if len(legs) != 1 || legs[0].ModeText() != "count=1.1805916207174113e+21" {
			t.Fatalf("legs %+v", legs)
		}
	})
	t.Run("prose", func(t *testing.T) {
		legs, diags := parseOne(t, "README.md", "We use @anchor lines; see `<!--` comments.\n@anchors are fine\n")
		if len(legs) != 0 || len(diags) != 0 {
			t.Fatalf("legs %v diags %v", legs, diags)
		}
	})
	t.Run("offsets", func(t *testing.T) {
		text := "x\r\n<!-- @anchor X api:a /q/ -->\r\nz"
		legs, _ := parseOne(t, LawFile, text)
		if len(legs) != 1 || text[legs[0].LineStart:legs[0].LineEnd] != "<!-- @anchor X api:a /q/ -->\r" {
			t.Fatalf("got %+v", legs)
		}
	})
}

// Public row cases: statements with pipes are read from the end (V51, MV-119).
func TestParseRows(t *testing.T) {
	text := strings.Join([]string{
		"# law",
		"",
		"| ID | statement | authority | state | date | source |",
		"| --- | :--- | --- | --- | --- | --- |",
		"| MV-90 | runs mvac verify 2>&1 || true | published | proposed | 2026-01-01 | x |",
		"| MV-91 | plain | published | amended | 2026-01-01 | x |",
		"|  | no id | a | active | d | s |",
		"| MV-92 | a | b | retired | d | s",
	}, "\n")
	rows, diags := ParseRows([]byte(text))
	if len(rows) != 3 {
		t.Fatalf("rows %+v", rows)
	}
	if r := rows[0]; r.ID != "MV-90" || r.State != "proposed" || r.Statement != "runs mvac verify 2>&1 || true" || r.Line != 5 || r.Authority != "published" {
		t.Fatalf("row %+v", r)
	}
	if rows[1].Effective() != StateActive || len(diags) < 1 || !strings.Contains(diags[0].Message, `"amended" is not a state — treated as active`) {
		t.Fatalf("row %+v diags %v", rows[1], diags)
	}
	// Divergence 2: a byte-order mark before the first row keeps the row
	// (JavaScript's trim drops U+FEFF).
	bom, bomDiags := ParseRows([]byte("\ufeff| MV-1 | s | a | retired | d | x |\n"))
	if len(bom) != 1 || bom[0].ID != "MV-1" || bom[0].State != StateRetired || len(bomDiags) != 0 {
		t.Fatalf("BOM row %+v %v", bom, bomDiags)
	}
	// No trailing pipe: the columns are misread, as in multivac.
	if rows[2].State == "retired" {
		t.Fatalf("row without trailing pipe should misread: %+v", rows[2])
	}
}
