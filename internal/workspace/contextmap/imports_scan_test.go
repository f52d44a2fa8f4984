package contextmap

import (
	"fmt"
	"strings"
	"testing"
)

func TestScanImports(t *testing.T) {
	for _, c := range []struct {
		family, src, want string
	}{
		{familyJS, "import {A, B as C, type D} from './x.js';", "./x.js:A>A,B>C,D>D"},
		{familyJS, "import type {Hooks} from '../types/hooks.js'", "../types/hooks.js:Hooks>Hooks"},
		{familyJS, "import ky, {HTTPError} from \"../source/index.js\";", "../source/index.js:ky>ky,HTTPError>HTTPError"},
		{familyJS, "import * as utils from './utils';", "./utils:>utils"},
		{familyJS, "import {\n\tA,\n\tB,\n} from './multi';", "./multi:A>A,B>B"},
		{familyJS, "import './side-effect.js';", "./side-effect.js:"},
		{familyJS, "const x = important('y')", ""},
		{familyPython, "from .utils import echo, style as s  # comment", ".utils:echo>echo,style>s"},
		{familyPython, "from click.core import (\n    Command,\n    Group,\n)", "click.core:Command>Command,Group>Group"},
		{familyPython, "from . import types", ".:types>types"},
		{familyPython, "import os.path as p\nimport click", "os.path:>p;click:>click"},
		{familyPython, "x = 'from a import b'", ""},
		{"go", "import \"fmt\"", ""},
	} {
		var got []string
		for _, st := range scanImports(c.family, []byte(c.src)) {
			var ns []string
			for _, n := range st.names {
				ns = append(ns, n[0]+">"+n[1])
			}
			got = append(got, st.module+":"+strings.Join(ns, ","))
		}
		if g := strings.Join(got, ";"); g != c.want {
			t.Errorf("%s %q: got %q, want %q", c.family, c.src, g, c.want)
		}
	}
}

// FuzzScanImports: any bytes give statements whose bound names are
// identifiers-or-empty, never a panic.
func FuzzScanImports(f *testing.F) {
	for _, s := range []string{"import {A as B} from './x'", "from .a import (b, c as d)", "import a.b as c", "import {", "from . import"} {
		f.Add(s)
	}
	f.Fuzz(func(t *testing.T, src string) {
		for _, fam := range []string{familyJS, familyPython} {
			for _, st := range scanImports(fam, []byte(src)) {
				for _, n := range st.names {
					if n[1] == "" || strings.ContainsAny(n[0]+n[1], " \t\n,{}()") {
						t.Fatal(fmt.Sprintf("%s: bad binding %q in %q", fam, n, src))
					}
				}
			}
		}
	})
}
