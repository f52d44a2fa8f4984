package symbols

import (
	"os"
	"os/exec"
	"path/filepath"
	"testing"
)

func TestRustExtraction(t *testing.T) {
	tab := assertList(t, Rust, fixture(t, "geometry.rs"), []string{
		"const MAX_SIDE",
		"var CREATED",
		"type Scalar",
		"struct Point", // from its #[derive]
		"enum Shape",
		"trait Area",
		"const Area.SIDES",
		"method Area.area",
		"method Area.describe",
		"method Point.new",
		"method Point.dist",
		"method Point.fmt",                    // impl fmt::Display for Point
		"method Point.from((Scalar, Scalar))", // impl From<…> for Point, twice:
		"method Point.from([Scalar; 2])",      // overloads get their parameter types
		"const Shape.SIDES",                   // impl Area for Shape
		"method Shape.area",
		"module io",
		"module io.text",
		"function io.text.parse",
		"macro square",
		"module tests",
		"function tests.origin",
	})
	p := find(t, tab, "Point")
	if p.StartLine != 11 || p.Signature != "#[derive(Debug, Clone, Copy, PartialEq)] pub struct Point" {
		t.Errorf("Point: line %d, %q", p.StartLine, p.Signature)
	}
	if d := find(t, tab, "io.text.parse"); d.Container != "io.text" || d.BodyHash == "" {
		t.Errorf("parse: %+v", d)
	}
}

func TestRustFormattingAndChanges(t *testing.T) {
	src := fixture(t, "geometry.rs")
	cases := map[string]string{
		"comments": edit(t, src, "/// A point in the plane.", "/// A point in the plane.\n/// Units are metres.",
			"        unsafe { CREATED += 1 };", "        // count\n        unsafe { CREATED += 1 }; /* ok */"),
		"wrapping": edit(t, src, "pub fn dist(&self, other: &Point) -> Scalar {", "pub fn dist(\n        &self,\n        other: &Point,\n    ) -> Scalar {"),
		"crlf":     edit(t, src, "\n", "\r\n"),
	}
	for name, v := range cases {
		assertAllSame(t, Rust, name, src, v)
	}
	assertChanged(t, Rust, "attribute", src, edit(t, src, "#[derive(Debug, Clone, Copy, PartialEq)]", "#[derive(Debug, Clone)]"), false,
		[]string{"struct Point"}, []string{"method Point.new"})
	assertChanged(t, Rust, "body", src, edit(t, src, "side * side", "side + side"), true,
		[]string{"method Shape.area"}, []string{"method Area.area", "method Point.new"})
	assertChanged(t, Rust, "char", src, edit(t, src, "s.split(',')", "s.split(';')"), true,
		[]string{"function io.text.parse", "module io.text", "module io"}, []string{"macro square"})
	assertChanged(t, Rust, "tail expression", src, edit(t, src, "        Point { x, y }\n", "        Point { x, y };\n"), true,
		[]string{"method Point.new"}, nil)
	assertRenamed(t, Rust, src, edit(t, src, "pub fn dist(", "pub fn distance("), "method Point.dist", "method Point.distance")
	assertRenamed(t, Rust, src, edit(t, src, "macro_rules! square", "macro_rules! sq"), "macro square", "macro sq")
}

// rustfmt, when installed, must not change any hash.
func TestRustfmtKeepsHashes(t *testing.T) {
	bin, err := exec.LookPath("rustfmt")
	if err != nil {
		t.Skip("rustfmt not installed")
	}
	messy := fixture(t, "messy.rs")
	tmp := filepath.Join(t.TempDir(), "messy.rs")
	if err := os.WriteFile(tmp, []byte(messy), 0o644); err != nil {
		t.Fatal(err)
	}
	if out, err := exec.Command(bin, "--edition", "2021", tmp).CombinedOutput(); err != nil {
		t.Skipf("rustfmt failed: %v %s", err, out)
	}
	tidy, err := os.ReadFile(tmp)
	if err != nil {
		t.Fatal(err)
	}
	if string(tidy) == messy {
		t.Fatal("rustfmt changed nothing")
	}
	assertAllSame(t, Rust, "rustfmt", messy, string(tidy))
}

func TestRustOneTuple(t *testing.T) {
	assertChanged(t, Rust, "one-tuple", "const T: (i32,) = (1,);\n", "const T: (i32) = (1);\n", false, []string{"const T"}, nil)
	assertAllSame(t, Rust, "trailing comma", "const T: [i32; 2] = [1, 2,];\n", "const T: [i32; 2] = [1, 2];\n")
}
