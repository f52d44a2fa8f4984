package main

import (
	"os"
	"os/exec"
	"path/filepath"
	"strings"
	"testing"
)

// goDarwin links a tiny program for darwin/arch with Go's own linker
// (CGO_ENABLED=0), an independent producer of the format: it writes
// LC_MAIN, LC_BUILD_VERSION for macOS 12 and, on arm64, an ad-hoc signature.
func goDarwin(t *testing.T, arch string) string {
	t.Helper()
	dir := t.TempDir()
	must(t, os.WriteFile(filepath.Join(dir, "go.mod"), []byte("module hello\n\ngo 1.22\n"), 0o644))
	must(t, os.WriteFile(filepath.Join(dir, "main.go"), []byte("package main\n\nfunc main() { println(\"hello\") }\n"), 0o644))
	out := filepath.Join(dir, "hello")
	cmd := exec.Command("go", "build", "-o", out, ".")
	cmd.Dir = dir
	cmd.Env = append(os.Environ(), "GOOS=darwin", "GOARCH="+arch, "CGO_ENABLED=0", "GOFLAGS=-buildvcs=false")
	if b, err := cmd.CombinedOutput(); err != nil {
		t.Fatalf("go build darwin/%s: %v\n%s", arch, err, b)
	}
	return out
}

func must(t *testing.T, err error) {
	t.Helper()
	if err != nil {
		t.Fatal(err)
	}
}

func TestCheckRealBinaries(t *testing.T) {
	arm, amd := goDarwin(t, "arm64"), goDarwin(t, "amd64")

	line, err := check(arm, "arm64", "12.0", true)
	if err != nil {
		t.Fatalf("Go's darwin/arm64 binary: %v", err)
	}
	for _, want := range []string{"arm64 executable", "macOS >= 12.0", "/usr/lib/libSystem.B.dylib", "ad-hoc signed", "SHA-256 hashes verified"} {
		if !strings.Contains(line, want) {
			t.Errorf("arm64 line lacks %q: %s", want, line)
		}
	}
	if _, err := check(amd, "amd64", "12.0", false); err != nil {
		t.Errorf("Go's darwin/amd64 binary: %v", err)
	}

	for _, c := range []struct {
		name, path, arch, minos string
		signed                  bool
		want                    string
	}{
		{"wrong CPU", arm, "amd64", "12.0", false, "CPU CpuArm64, want CpuAmd64"},
		{"deployment target too new", arm, "arm64", "11.0", false, "deployment target macOS 12.0, above 11.0"},
		{"signature required", amd, "amd64", "12.0", true, "no LC_CODE_SIGNATURE"},
		{"not Mach-O", os.Args[0], "amd64", "12.0", false, "not a Mach-O file"},
	} {
		_, err := check(c.path, c.arch, c.minos, c.signed)
		if err == nil || !strings.Contains(err.Error(), c.want) {
			t.Errorf("%s: error %v, want %q", c.name, err, c.want)
		}
	}

	// One changed byte in the signed code: its page no longer matches.
	data, err := os.ReadFile(arm)
	must(t, err)
	data[5000] ^= 0xff
	bad := filepath.Join(t.TempDir(), "tampered")
	must(t, os.WriteFile(bad, data, 0o755))
	if _, err := check(bad, "arm64", "12.0", true); err == nil || !strings.Contains(err.Error(), "page 1 (bytes 4096-8192) does not match its hash") {
		t.Errorf("tampered binary: %v", err)
	}
}

func TestCheckLibraries(t *testing.T) {
	const sys = "/usr/lib/libSystem.B.dylib"
	const cf = "/System/Library/Frameworks/CoreFoundation.framework/Versions/A/CoreFoundation"
	for _, c := range []struct {
		libs []string
		want string // "" = accepted
	}{
		{[]string{cf, sys, "/usr/lib/libresolv.9.dylib"}, ""},
		{[]string{sys}, ""},
		{[]string{cf, cf, sys}, "loads " + cf + " twice"},
		{[]string{cf}, "does not load /usr/lib/libSystem.B.dylib"},
		{[]string{sys, "@rpath/libfoo.dylib"}, "not a macOS system library path"},
		{[]string{sys, "/opt/homebrew/lib/libfoo.dylib"}, "not a macOS system library path"},
	} {
		err := checkLibraries(c.libs)
		if c.want == "" && err != nil || c.want != "" && (err == nil || !strings.Contains(err.Error(), c.want)) {
			t.Errorf("%v: error %v, want %q", c.libs, err, c.want)
		}
	}
}
