package symbols

import (
	"os"
	"os/exec"
	"path/filepath"
	"testing"
)

// black, when installed, must not change any hash. Set CLEW_BLACK to the
// binary, or put black on PATH.
func TestBlackKeepsHashes(t *testing.T) {
	bin := os.Getenv("CLEW_BLACK")
	if bin == "" {
		var err error
		if bin, err = exec.LookPath("black"); err != nil {
			t.Skip("black not installed")
		}
	}
	for _, name := range []string{"messy.py", "shop.py"} {
		src := fixture(t, name)
		tmp := filepath.Join(t.TempDir(), name)
		if err := os.WriteFile(tmp, []byte(src), 0o644); err != nil {
			t.Fatal(err)
		}
		if out, err := exec.Command(bin, "-q", tmp).CombinedOutput(); err != nil {
			t.Fatalf("black %s: %v %s", name, err, out)
		}
		tidy, err := os.ReadFile(tmp)
		if err != nil {
			t.Fatal(err)
		}
		assertAllSame(t, Python, "black "+name, src, string(tidy))
	}
}
