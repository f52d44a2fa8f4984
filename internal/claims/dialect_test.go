package claims

import (
	"strings"
	"testing"
)

func TestFixDialect(t *testing.T) {
	cases := []struct {
		line, want string // want: the line after the fix; "" = no fix
		changes    string
	}{
		{`<!-- @anchor INV-1 brain:src/*.go /func\s+Run/ -->`, `<!-- @anchor INV-1 brain:src/*.go /func[[:space:]]+Run/ -->`, `\s → [[:space:]]`},
		{`| x | <!-- @anchor INV-1 brain:a/**  !a/b/** !api:c  /\d+\s\d+\S/i count=2 -->`, `| x | <!-- @anchor INV-1 brain:a/**  !a/b/** !api:c  /[[:digit:]]+[[:space:]][[:digit:]]+[^[:space:]]/i count=2 -->`,
			`\d → [[:digit:]], \s → [[:space:]], \S → [^[:space:]]`},
		{`<!-- @anchor A-1 *:** /\w+\W[\s\d]\\s\/d/ absent -->`, `<!-- @anchor A-1 *:** /[[:alnum:]_]+[^[:alnum:]_][\s\d]\\s\/d/ absent -->`, `\w → [[:alnum:]_], \W → [^[:alnum:]_]`},
		{`<!-- @anchor A-1 brain:x.md /PIN[:digit:]{4} a/b\D/ -->`, `<!-- @anchor A-1 brain:x.md /PIN[[:digit:]]{4} a/b[^[:digit:]]/ -->`, `[:digit:] → [[:digit:]], \D → [^[:digit:]]`},
		{`<!-- @anchor A-1 brain:x.md /[]\s]\s/ -->`, `<!-- @anchor A-1 brain:x.md /[]\s][[:space:]]/ -->`, `\s → [[:space:]]`},
		{`<!-- @anchor A-1 brain:x.md /\bfoo(?:x)/ -->`, "", ""},
		{`<!-- @anchor A-1 brain:x.md /[:bogus:]/ -->`, "", ""},
		{`<!-- @anchor A-1 brain:x.md /fine/ -->`, "", ""},
		{`<!-- @anchor A-1 brain:x.md -->`, "", ""},
		{`plain prose \s`, "", ""},
	}
	for _, c := range cases {
		fix, ok := FixDialect(c.line)
		if c.want == "" {
			if ok {
				t.Errorf("%s: unexpected fix %+v", c.line, fix)
			}
			continue
		}
		if !ok {
			t.Errorf("%s: no fix", c.line)
			continue
		}
		got := c.line[:fix.Start] + fix.Source + c.line[fix.End:]
		if got != c.want || strings.Join(fix.Changes, ", ") != c.changes {
			t.Errorf("%s:\n got %s (%q)\nwant %s (%q)", c.line, got, fix.Changes, c.want, c.changes)
		}
		// The rewritten line parses (bracket escapes keep their warning).
		legs, diags := ParseDoc("d.md", []byte(got))
		for _, d := range diags {
			if d.Code == CodeParse {
				t.Errorf("%s: still refused: %s", got, d.Message)
			}
		}
		if len(legs) != 1 {
			t.Errorf("%s: after the fix %d legs, %v", got, len(legs), diags)
		}
	}
}
