package disk

import (
	"bytes"
	"crypto/sha256"
	"encoding/binary"
	"encoding/hex"
	"errors"
	"fmt"
	"hash/crc32"
	"io"
	"os"
	"path/filepath"
	"runtime/debug"
	"strings"
	"time"

	"github.com/clew-lsp/clew-lsp/internal/anchors/symbols"
)

// CacheDirEnv overrides where the persistent caches live; "off" turns them
// off (docs/performance.md).
const CacheDirEnv = "CLEW_LSP_CACHE_DIR"

// CacheDir is the directory of clew-lsp's persistent caches: $CLEW_LSP_CACHE_DIR,
// else os.UserCacheDir()/clew-lsp. ok is false when caching is off or no
// cache directory is known.
func CacheDir() (dir string, ok bool) {
	if d := os.Getenv(CacheDirEnv); d != "" {
		if d == "off" {
			return "", false
		}
		return d, true
	}
	base, err := os.UserCacheDir()
	if err != nil {
		return "", false
	}
	return filepath.Join(base, "clew-lsp"), true
}

// TableStore is workspace.TableStore in a directory: one file per table,
// named by its content key and this build's version, written atomically.
// An entry is used only when its magic, version, key, length and checksum
// all check; anything else (a truncated write, a flipped bit, an entry of
// another version or copied under another key's name) is a miss, and the
// table is parsed and written again.
type TableStore struct {
	dir     string // tables of this version
	version [sha256.Size]byte
	behind  *writeBehind // nil: Put writes before it returns
}

const (
	tableMagic = "clew-lsp table\n\x01"
	// header: magic, version, key, payload length; trailer: the CRC-32C
	// (Castagnoli) of all that came before. The checksum finds a torn
	// write or a flipped bit, not a forgery — whoever can write the cache
	// directory could write a valid SHA-256 as well — and a later run
	// checks the ~100 MB it reads of a large tree's entries: SHA-256 took
	// 50 ms of it, the CRC (hardware instructions) a few.
	tableHeaderLen  = len(tableMagic) + 2*sha256.Size + 8
	tableTrailerLen = 4
	// staleVersions are other versions' directories removed at open when
	// unused for this long.
	staleVersionAge = 14 * 24 * time.Hour
)

var castagnoli = crc32.MakeTable(crc32.Castagnoli)

// OpenTableStore opens (creating it) the table store under CacheDir for
// this build. It fails when caching is off or the directory cannot be made;
// callers then run without one.
func OpenTableStore() (*TableStore, error) {
	dir, ok := CacheDir()
	if !ok {
		return nil, errors.New("persistent cache off")
	}
	return OpenTableStoreAt(dir, TableVersion())
}

// OpenTableStoreAt opens the store for version under dir (tests choose
// both).
func OpenTableStoreAt(dir, version string) (*TableStore, error) {
	v := sha256.Sum256([]byte(version))
	name := "tables-" + hex.EncodeToString(v[:8])
	root := filepath.Join(dir, "tables")
	s := &TableStore{dir: filepath.Join(root, name), version: v}
	if err := os.MkdirAll(s.dir, 0o755); err != nil {
		return nil, err
	}
	now := time.Now()
	os.Chtimes(s.dir, now, now) // marks this version as in use
	if others, err := os.ReadDir(root); err == nil {
		for _, o := range others {
			if o.Name() == name || !strings.HasPrefix(o.Name(), "tables-") {
				continue
			}
			if info, err := o.Info(); err == nil && now.Sub(info.ModTime()) > staleVersionAge {
				os.RemoveAll(filepath.Join(root, o.Name()))
			}
		}
	}
	return s, nil
}

// TableVersion is everything a persisted table depends on besides the
// file: the symbols package's rules, hash scheme and encoding, the
// tree-sitter grammars' module version, and this build. A release build
// is named by its version and commit; a development build (modified
// sources or no version control information) also by its executable's
// size and modification time, so a rebuilt binary never reads tables an
// earlier build made.
func TableVersion() string {
	parts := []string{symbols.CacheVersion()}
	info, ok := debug.ReadBuildInfo()
	if !ok {
		return strings.Join(append(parts, "build="+executableStamp()), "|")
	}
	parts = append(parts, "go="+info.GoVersion, "main="+info.Main.Version)
	for _, d := range info.Deps {
		if strings.Contains(d.Path, "tree-sitter") {
			parts = append(parts, d.Path+"="+d.Version)
		}
	}
	rev, modified := "", true
	for _, s := range info.Settings {
		switch s.Key {
		case "vcs.revision":
			rev = s.Value
		case "vcs.modified":
			modified = s.Value != "false"
		}
	}
	parts = append(parts, "rev="+rev)
	if modified || rev == "" && (info.Main.Version == "" || info.Main.Version == "(devel)") {
		parts = append(parts, "build="+executableStamp())
	}
	return strings.Join(parts, "|")
}

func executableStamp() string {
	exe, err := os.Executable()
	if err != nil {
		return fmt.Sprintf("unknown-%d", time.Now().UnixNano()) // never matches: no cache across runs
	}
	st, err := os.Stat(exe)
	if err != nil {
		return fmt.Sprintf("unknown-%d", time.Now().UnixNano())
	}
	return fmt.Sprintf("%s:%d:%d", exe, st.Size(), st.ModTime().UnixNano())
}

// Dir is the directory holding this version's tables.
func (s *TableStore) Dir() string { return s.dir }

func (s *TableStore) path(key [sha256.Size]byte) string {
	name := hex.EncodeToString(key[:])
	return filepath.Join(s.dir, name[:2], name)
}

// Empty reports whether the store holds no entry at all (its directory
// has none of the folders entries go in): a cold run's fresh cache.
func (s *TableStore) Empty() bool {
	if s.behind != nil && s.behind.pending() {
		return false
	}
	f, err := os.Open(s.dir)
	if err != nil {
		return false
	}
	defer f.Close()
	names, _ := f.Readdirnames(1)
	return len(names) == 0
}

// Get returns the payload stored for key when the entry checks.
func (s *TableStore) Get(key [sha256.Size]byte) ([]byte, bool) {
	payload, _, ok := s.GetInto(key, nil)
	return payload, ok
}

// GetInto is Get reading the entry into buf's storage, grown when it is
// short; grown is the buffer to pass next time. A caller that keeps
// nothing of the payload once it has decoded it (contextmap's content
// packs, a few hundred per new seed) reads every entry into one buffer
// instead of allocating one per read. The entry is checked as Get checks
// it.
func (s *TableStore) GetInto(key [sha256.Size]byte, buf []byte) (payload, grown []byte, ok bool) {
	if s.behind != nil {
		if b, queued := s.behind.entry(key); queued {
			buf = append(buf[:0], b...)
			payload, ok = s.open(key, buf)
			return payload, buf, ok
		}
	}
	f, err := os.Open(s.path(key))
	if err != nil {
		return nil, buf, false
	}
	defer f.Close()
	st, err := f.Stat()
	if err != nil || st.Size() > 1<<30 {
		return nil, buf, false
	}
	n := int(st.Size())
	if cap(buf) < n {
		buf = make([]byte, n)
	}
	b := buf[:n]
	if _, err := io.ReadFull(f, b); err != nil {
		return nil, buf, false
	}
	payload, ok = s.open(key, b)
	return payload, buf, ok
}

// open checks one entry's envelope and returns its payload.
func (s *TableStore) open(key [sha256.Size]byte, b []byte) ([]byte, bool) {
	if len(b) < tableHeaderLen+tableTrailerLen || string(b[:len(tableMagic)]) != tableMagic {
		return nil, false
	}
	h := b[len(tableMagic):]
	if !bytes.Equal(h[:sha256.Size], s.version[:]) || !bytes.Equal(h[sha256.Size:2*sha256.Size], key[:]) {
		return nil, false // another version's entry, or one stored under another key's name
	}
	n := binary.LittleEndian.Uint64(h[2*sha256.Size:])
	if n != uint64(len(b)-tableHeaderLen-tableTrailerLen) {
		return nil, false // truncated or extended
	}
	body := b[:len(b)-tableTrailerLen]
	if crc32.Checksum(body, castagnoli) != binary.LittleEndian.Uint32(b[len(b)-tableTrailerLen:]) {
		return nil, false // corrupt
	}
	return body[tableHeaderLen:], true
}

// Put writes an entry through a temporary file and a rename, so a reader
// sees a whole entry or none. Errors are dropped: the cache is an
// optimisation, and a full disk must not fail a check.
func (s *TableStore) Put(key [sha256.Size]byte, payload []byte) {
	b := make([]byte, 0, tableHeaderLen+len(payload)+tableTrailerLen)
	b = append(b, tableMagic...)
	b = append(b, s.version[:]...)
	b = append(b, key[:]...)
	b = binary.LittleEndian.AppendUint64(b, uint64(len(payload)))
	b = append(b, payload...)
	b = binary.LittleEndian.AppendUint32(b, crc32.Checksum(b, castagnoli))
	if s.behind != nil && s.behind.queue(s, key, b) {
		return
	}
	s.write(key, b)
}

// write puts one whole entry on disk.
func (s *TableStore) write(key [sha256.Size]byte, b []byte) {
	p := s.path(key)
	if err := os.MkdirAll(filepath.Dir(p), 0o755); err != nil {
		return
	}
	tmp, err := os.CreateTemp(filepath.Dir(p), ".put-*")
	if err != nil {
		return
	}
	_, werr := tmp.Write(b)
	cerr := tmp.Close()
	if werr != nil || cerr != nil || os.Rename(tmp.Name(), p) != nil {
		os.Remove(tmp.Name())
	}
}
