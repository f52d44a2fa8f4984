package symbols

import (
	"fmt"
	"strings"
	"testing"
)

// bigGo generates a Go file of n functions, n types and n methods (~100 KB at n=500).
func bigGo(n int) []byte {
	var b strings.Builder
	b.WriteString("package big\n\nimport \"fmt\"\n\n")
	for i := 0; i < n; i++ {
		fmt.Fprintf(&b, "// T%d is a type.\ntype T%d struct {\n\tName string `json:\"name\"`\n\tN    int\n}\n\n", i, i)
		fmt.Fprintf(&b, "func (t *T%d) String() string {\n\treturn fmt.Sprintf(\"%%s=%%d\", t.Name, t.N+%d)\n}\n\n", i, i)
		fmt.Fprintf(&b, "func F%d(xs []int) (sum int) {\n\tfor _, x := range xs {\n\t\tif x > %d {\n\t\t\tsum += x\n\t\t}\n\t}\n\treturn\n}\n\n", i, i)
	}
	return []byte(b.String())
}

func BenchmarkParseGo(b *testing.B) {
	src := bigGo(500)
	b.SetBytes(int64(len(src)))
	b.ReportAllocs()
	for b.Loop() {
		tab := Parse(Go, src, Options{})
		if len(tab.Decls) != 2500 {
			b.Fatalf("%d decls", len(tab.Decls))
		}
	}
}

func BenchmarkTokensGo(b *testing.B) {
	src := bigGo(500)
	b.SetBytes(int64(len(src)))
	for b.Loop() {
		Tokens(Go, src)
	}
}
