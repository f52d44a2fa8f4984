package claims

import (
	"reflect"
	"strings"
	"testing"
)

// The prefilter must never change a verdict: scanning with it equals
// testing every unit with the regex.
func TestPrefilterSound(t *testing.T) {
	texts := []string{
		ecoSQL,
		"alpha beta\nGAMMA delta\nexport function fn1_2(x) {}\nTODO later\r\nFIXME now\n",
		"ſtraße KELVIN \u212a\nstrasse kelvin k\n",
		"abcabc\n\nabc\nab\nbc\nxabcy\n",
		"password=1\nPassword=2\nPASSWORD = 3\n",
	}
	regexes := []struct{ src, flags string }{
		{"abc", ""}, {"abc", "i"}, {"a(b|x)c", ""}, {"(abc|bc)$", ""}, {"TODO|FIXME", ""}, {"todo|fixme", "i"},
		{"fn[[:digit:]]+_2\\(", ""}, {"k", "i"}, {"s", "i"}, {"STRASSE", "i"}, {"", ""}, {"^$", ""}, {"(ab)+c", ""},
		{"a{2,}", ""}, {"(abc){2}", ""}, {"password[[:space:]]*=", "i"}, {"grant[^;]*update", "i"}, {"CREATE TABLE", ""},
		{"x?abc", ""}, {"(a|b|c)+", ""}, {"b(c|$)", ""}, {"[[:upper:]]+", "i"},
	}
	for _, text := range texts {
		for _, path := range []string{"f.txt", "f.sql"} {
			for _, r := range regexes {
				re, _, msg := CompileERE(r.src, r.flags)
				if msg != "" {
					t.Fatal(msg)
				}
				fu := SplitUnits(path, []byte(text))
				var naive, filtered []int
				for _, u := range fu.Units {
					if re.re.MatchString(u.Text) {
						naive = append(naive, u.Line)
					}
				}
				for pass := 0; pass < 2; pass++ { // the second pass reads the memo
					filtered = nil
					for _, i := range fu.candidates(re) {
						if re.re.MatchString(fu.Units[i].Text) {
							filtered = append(filtered, fu.Units[i].Line)
						}
					}
					if !reflect.DeepEqual(naive, filtered) {
						t.Errorf("/%s/%s over %q (%s): naive %v, prefiltered %v (lits %v)", r.src, r.flags, strings.SplitN(text, "\n", 2)[0], path, naive, filtered, re.lits)
					}
				}
			}
		}
	}
}
