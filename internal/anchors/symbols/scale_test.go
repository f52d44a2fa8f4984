package symbols

import (
	"fmt"
	"strings"
	"testing"
	"time"
)

// Wide files must stay linear: no per-node parent or sibling lookups.
func TestWideFilesAreLinear(t *testing.T) {
	if testing.Short() {
		t.Skip("slow")
	}
	var py, list strings.Builder
	for i := 0; i < 20000; i++ {
		fmt.Fprintf(&py, "x%d = 'v%d'\n", i, i)
	}
	list.WriteString("DATA = (\n")
	for i := 0; i < 50000; i++ {
		fmt.Fprintf(&list, "    %d,\n", i)
	}
	list.WriteString(")\n")
	for name, src := range map[string]string{"statements": py.String(), "tuple": list.String()} {
		t0 := time.Now()
		tab := Parse(Python, []byte(src), Options{})
		if d := time.Since(t0); d > 20*time.Second {
			t.Errorf("%s: %v for %d bytes", name, d, len(src))
		} else {
			t.Logf("%s: %d decls, %d bytes in %v", name, len(tab.Decls), len(src), d)
		}
	}
}
