package symbols

import (
	"os"
	"os/exec"
	"path/filepath"
	"testing"
)

// prettier, when installed, must not change any hash (docs/anchors.md). Set
// CLEW_PRETTIER to the binary, or put prettier on PATH.
func TestPrettierKeepsHashes(t *testing.T) {
	bin := os.Getenv("CLEW_PRETTIER")
	if bin == "" {
		var err error
		if bin, err = exec.LookPath("prettier"); err != nil {
			t.Skip("prettier not installed")
		}
	}
	for _, c := range []struct {
		file string
		lang Language
	}{{"messy.ts", TypeScript}, {"messy.jsx", JavaScript}, {"rates.ts", TypeScript}, {"widgets.js", JavaScript}, {"deep.ts", TypeScript}, {"badge.tsx", TSX}, {"messy.jsx", TSX}} {
		src := fixture(t, c.file)
		tmp := filepath.Join(t.TempDir(), c.file)
		if err := os.WriteFile(tmp, []byte(src), 0o644); err != nil {
			t.Fatal(err)
		}
		out, err := exec.Command(bin, tmp).Output()
		if err != nil {
			t.Fatalf("prettier %s: %v", c.file, err)
		}
		assertAllSame(t, c.lang, "prettier "+c.file, src, string(out))
	}
}
