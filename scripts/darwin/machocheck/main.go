// Command machocheck checks, on any OS, that a file is a macOS executable a
// Mac would load, since the darwin release binaries cannot run where they
// are built:
//
//	go run ./scripts/darwin/machocheck -arch arm64 clew-lsp
//
// It requires a 64-bit Mach-O executable (PIE, an entry point) for the CPU of
// -arch, built for macOS with a deployment target of at most -minos, that
// loads libSystem and otherwise only system libraries by their absolute
// install paths, each once (macOS 26 refuses a binary naming one twice).
// When the file has a code signature it verifies it: every page hash of the
// CodeDirectory against the bytes it covers. -signed makes a signature
// required (Apple silicon kills unsigned arm64 code). It prints one line
// describing what it checked; any failure exits 1 with the reason.
package main

import (
	"bytes"
	"crypto/sha1"
	"crypto/sha256"
	"debug/macho"
	"encoding/binary"
	"errors"
	"flag"
	"fmt"
	"hash"
	"os"
	"strings"
)

// Load commands and constants debug/macho does not name.
const (
	lcMain          = 0x80000028
	lcUnixThread    = 0x5
	lcBuildVersion  = 0x32
	lcCodeSignature = 0x1d
	platformMacOS   = 1
	flagPIE         = 0x200000

	csSuperBlob     = 0xfade0cc0
	csCodeDirectory = 0xfade0c02
	csAdhoc         = 0x2
	csLinkerSigned  = 0x20000
)

func main() {
	arch := flag.String("arch", "", "amd64 or arm64")
	minos := flag.String("minos", "12.0", "highest deployment target accepted (major.minor)")
	signed := flag.Bool("signed", false, "require a valid code signature")
	flag.Parse()
	if flag.NArg() != 1 || (*arch != "amd64" && *arch != "arm64") {
		fmt.Fprintln(os.Stderr, "usage: machocheck -arch amd64|arm64 [-minos 12.0] [-signed] FILE")
		os.Exit(2)
	}
	line, err := check(flag.Arg(0), *arch, *minos, *signed)
	if err != nil {
		fmt.Fprintf(os.Stderr, "machocheck: %s: %v\n", flag.Arg(0), err)
		os.Exit(1)
	}
	fmt.Println(line)
}

func check(path, arch, maxMinos string, needSig bool) (string, error) {
	data, err := os.ReadFile(path)
	if err != nil {
		return "", err
	}
	f, err := macho.NewFile(bytes.NewReader(data))
	if err != nil {
		return "", fmt.Errorf("not a Mach-O file: %v", err)
	}
	if f.Magic != macho.Magic64 {
		return "", fmt.Errorf("not a 64-bit Mach-O (magic %#x)", f.Magic)
	}
	want := map[string]macho.Cpu{"amd64": macho.CpuAmd64, "arm64": macho.CpuArm64}[arch]
	if f.Cpu != want {
		return "", fmt.Errorf("CPU %v, want %v", f.Cpu, want)
	}
	if f.Type != macho.TypeExec {
		return "", fmt.Errorf("file type %v, want an executable", f.Type)
	}
	if f.Flags&flagPIE == 0 {
		return "", errors.New("not position-independent (no MH_PIE)")
	}
	var hasMain bool
	var minos string
	var sigOff, sigSize uint32
	for _, l := range f.Loads {
		raw := l.Raw()
		switch f.ByteOrder.Uint32(raw) {
		case lcMain, lcUnixThread: // Go's own linker writes LC_UNIXTHREAD on amd64
			hasMain = true
		case lcBuildVersion:
			if p := f.ByteOrder.Uint32(raw[8:]); p != platformMacOS {
				return "", fmt.Errorf("built for platform %d, not macOS", p)
			}
			minos = dotted(f.ByteOrder.Uint32(raw[12:]))
		case lcCodeSignature:
			sigOff, sigSize = f.ByteOrder.Uint32(raw[8:]), f.ByteOrder.Uint32(raw[12:])
		}
	}
	if !hasMain {
		return "", errors.New("no LC_MAIN (or LC_UNIXTHREAD): not a program dyld can start")
	}
	if minos == "" {
		return "", errors.New("no LC_BUILD_VERSION: the deployment target is unknown")
	}
	if versionAbove(minos, maxMinos) {
		return "", fmt.Errorf("deployment target macOS %s, above %s", minos, maxMinos)
	}
	libs, err := f.ImportedLibraries()
	if err != nil {
		return "", err
	}
	if err := checkLibraries(libs); err != nil {
		return "", err
	}
	sig := "unsigned"
	if sigSize > 0 {
		if sig, err = verifySignature(data, sigOff, sigSize); err != nil {
			return "", fmt.Errorf("code signature: %v", err)
		}
	} else if needSig {
		return "", errors.New("no LC_CODE_SIGNATURE: macOS on Apple silicon would kill it")
	}
	return fmt.Sprintf("Mach-O 64-bit %s executable, macOS >= %s, loads %s; %s",
		arch, minos, strings.Join(libs, " "), sig), nil
}

// checkLibraries: libSystem present, every library a system one named by
// its absolute install path, none twice.
func checkLibraries(libs []string) error {
	seen := map[string]bool{}
	for _, l := range libs {
		if seen[l] {
			return fmt.Errorf("loads %s twice (macOS refuses a duplicate linked dylib)", l)
		}
		seen[l] = true
		if !strings.HasPrefix(l, "/usr/lib/") && !strings.HasPrefix(l, "/System/Library/Frameworks/") {
			return fmt.Errorf("loads %s, not a macOS system library path", l)
		}
	}
	if !seen["/usr/lib/libSystem.B.dylib"] {
		return fmt.Errorf("does not load /usr/lib/libSystem.B.dylib (loads %v)", libs)
	}
	return nil
}

// verifySignature checks the CodeDirectory of the signature at off: it must
// cover every byte before the signature, and each page hash must match.
func verifySignature(data []byte, off, size uint32) (string, error) {
	if uint64(off)+uint64(size) > uint64(len(data)) {
		return "", errors.New("signature past the end of the file")
	}
	blob := data[off : off+size]
	be := binary.BigEndian
	if len(blob) < 12 || be.Uint32(blob) != csSuperBlob {
		return "", errors.New("no embedded signature super blob")
	}
	count := be.Uint32(blob[8:])
	for i := uint32(0); i < count; i++ {
		at := 12 + 8*i
		if int(at)+8 > len(blob) {
			return "", errors.New("truncated blob index")
		}
		bo := be.Uint32(blob[at+4:])
		if int(bo)+8 > len(blob) || be.Uint32(blob[bo:]) != csCodeDirectory {
			continue
		}
		return verifyCodeDirectory(data, blob[bo:], off)
	}
	return "", errors.New("no CodeDirectory")
}

func verifyCodeDirectory(data, cd []byte, sigOff uint32) (string, error) {
	be := binary.BigEndian
	if len(cd) < 44 {
		return "", errors.New("truncated CodeDirectory")
	}
	flags := be.Uint32(cd[12:])
	hashOff, identOff := be.Uint32(cd[16:]), be.Uint32(cd[20:])
	nCode, codeLimit := be.Uint32(cd[28:]), be.Uint32(cd[32:])
	hashSize, hashType, pageShift := int(cd[36]), cd[37], cd[39]
	if codeLimit != sigOff {
		return "", fmt.Errorf("covers %d bytes, but the signature starts at %d", codeLimit, sigOff)
	}
	var h hash.Hash
	switch hashType {
	case 1:
		h = sha1.New()
	case 2:
		h = sha256.New()
	default:
		return "", fmt.Errorf("hash type %d", hashType)
	}
	page := uint32(1) << pageShift
	if pageShift == 0 || (codeLimit+page-1)/page != nCode {
		return "", fmt.Errorf("%d page hashes for %d bytes in pages of %d", nCode, codeLimit, page)
	}
	if int(hashOff)+int(nCode)*hashSize > len(cd) {
		return "", errors.New("page hashes past the CodeDirectory")
	}
	for i := uint32(0); i < nCode; i++ {
		end := min((i+1)*page, codeLimit)
		h.Reset()
		h.Write(data[i*page : end])
		wantHash := cd[int(hashOff)+int(i)*hashSize:][:hashSize]
		if !bytes.Equal(h.Sum(nil)[:hashSize], wantHash) {
			return "", fmt.Errorf("page %d (bytes %d-%d) does not match its hash", i, i*page, end)
		}
	}
	ident := ""
	if int(identOff) < len(cd) {
		ident, _, _ = strings.Cut(string(cd[identOff:]), "\x00")
	}
	kind := "signed"
	if flags&csAdhoc != 0 {
		kind = "ad-hoc signed"
	}
	if flags&csLinkerSigned != 0 {
		kind += " by the linker"
	}
	return fmt.Sprintf("%s (identifier %q, %d pages of %d bytes, %s hashes verified)",
		kind, ident, nCode, page, map[uint8]string{1: "SHA-1", 2: "SHA-256"}[hashType]), nil
}

func dotted(v uint32) string {
	s := fmt.Sprintf("%d.%d", v>>16, v>>8&0xff)
	if v&0xff != 0 {
		s += fmt.Sprintf(".%d", v&0xff)
	}
	return s
}

// versionAbove reports whether dotted version a is above b.
func versionAbove(a, b string) bool {
	var a1, a2, b1, b2 int
	fmt.Sscanf(a, "%d.%d", &a1, &a2)
	fmt.Sscanf(b, "%d.%d", &b1, &b2)
	return a1 > b1 || (a1 == b1 && a2 > b2)
}
