package contextmap

import (
	"context"
	"path"
	"runtime"
	"slices"
	"sort"
	"strings"
	"sync"
	"sync/atomic"
	"weak"

	"github.com/clew-lsp/clew-lsp/internal/anchors"
	"github.com/clew-lsp/clew-lsp/internal/anchors/symbols"
	"github.com/clew-lsp/clew-lsp/internal/devcontext"
	"github.com/clew-lsp/clew-lsp/internal/workspace"
)

// ctxBase is everything the context compiler derives from one snapshot
// independently of the request: every file's bytes and blob id (the
// fingerprint and the working-tree state), the lexical index that
// prefilters the declaration search, the docs, the anchors' verdicts of a
// Check, Go modules, claims and the git context. It is built once per
// snapshot, on the first request, and shared by every request after it.
//
// It must not point back at its Snapshot: the cache below holds bases by
// weak pointer to their snapshot and drops them when the snapshot goes.
type ctxBase struct {
	once sync.Once
	err  error

	files  []cxFile
	byPath map[string]int
	hashes []devcontext.FileHash
	git    devcontext.Git
	gitLog workspace.GitLog  // nil when the Git adapter has no history
	head   map[string]string // HEAD's blob ids; nil without GitLog or HEAD
	lex    *cxLex
	// contents are the Load's parsed files' declarations (parsedfiles.go).
	contents *cxContents
	// indexReads counts the files the index was not carried over for
	// (read, hashed, scanned), indexFrom where it was carried over from.
	indexReads int
	indexFrom  string
	docs       []*cxDoc
	docAt      map[string]*cxDoc
	// anchors are the Check's verdicts, in doc and line order.
	anchors []workspace.AnchorReport
	// anchorFiles are the code files the anchors hint at or resolve to;
	// their declarations are always in the world, so a passage's edge
	// lands on a node.
	anchorFiles []string
	modules     []cxModule
	claims      []Claim
	diags       []devcontext.Diagnostic

	fileNodesOnce   sync.Once
	fileNodesList   []devcontext.Node
	fileAt          map[string]int32 // file node URI → its index in fileNodesList
	docNodesOnce    sync.Once
	docNodesList    []devcontext.Node
	fingerprintOnce sync.Once
	fingerprint     string // devcontext.Fingerprint(hashes), once per base (every world's)
	dirSpansOnce    sync.Once
	dirSpans        map[string][2]int32 // per directory, the first and one past the last of its files' indexes (inDir)

	mu      sync.Mutex
	worlds  map[string]*cxWorld
	order   []string // world keys, oldest first
	commits map[string][]workspace.GitCommit
	changes map[string][]string // commit sha → files it changed (co_changed)
}

// cxFile is one file of the snapshot.
type cxFile struct {
	path    string
	dir     string
	size    int
	st      anchors.FileStatus
	blob    string // git blob id of the content this snapshot sees
	overlay bool
	doc     bool
	lang    symbols.Language
	code    bool // has a grammar (and it is not disabled)
	test    bool // a test file by name convention
}

// cxModule is a go.mod: the directory it governs and its module path.
type cxModule struct {
	dir, path string
}

// ctxBases holds each snapshot's base by weak pointer. The newest
// identifier index of a Load lives in the snapshot's LoadMemo (and in the
// persistent store), so a new snapshot re-reads only the files that changed
// (lexrecord.go).
var ctxBases sync.Map // weak.Pointer[Snapshot] → *ctxBase

// contextBase returns the snapshot's base, building it on first use.
func contextBase(ctx context.Context, s *workspace.Snapshot) (*ctxBase, error) {
	key := weak.Make(s)
	v, loaded := ctxBases.LoadOrStore(key, &ctxBase{})
	if !loaded {
		runtime.AddCleanup(s, func(k weak.Pointer[workspace.Snapshot]) { ctxBases.Delete(k) }, key)
	}
	b := v.(*ctxBase)
	b.once.Do(func() { b.err = b.build(ctx, s) })
	if b.err != nil {
		// A cancelled build is not the snapshot's answer: forget it so the
		// next request builds again.
		ctxBases.CompareAndDelete(key, b)
		return nil, b.err
	}
	return b, nil
}

// PartialChecks makes the context's check of the anchors, on every
// snapshot of s's Load, parse of a hinted Go file only the declarations
// its anchors look for, as verify's does (CheckOptions.PartialHinted: the
// same verdicts; the report's declaration index holds only what was
// parsed, which the context does not read). A one-shot command sets it:
// on a workspace whose docs anchor a thousand files, parsing them whole
// was most of its first run. The language server leaves it off: its
// diagnostics' check holds the whole tables already, and the context's
// check takes them from there.
func PartialChecks(s *workspace.Snapshot) { partialChecksOf(s).Store(true) }

type partialChecksKey struct{}

// partialChecksOf is the Load's PartialChecks setting.
func partialChecksOf(s *workspace.Snapshot) *atomic.Bool {
	return s.LoadMemo(partialChecksKey{}, func() any { return new(atomic.Bool) }).(*atomic.Bool)
}

func contextMemo(s *workspace.Snapshot) *cxMemo {
	return s.LoadMemo(cxMemoKey{}, func() any { return &cxMemo{} }).(*cxMemo)
}

// cxMemoKey names the context's memo among the snapshot's per-load memos.
type cxMemoKey struct{}

func (b *ctxBase) build(ctx context.Context, s *workspace.Snapshot) error {
	b.contents = loadContents(s)
	// The Check (anchor states, claims) parses the anchored files while the
	// workspace is read and scanned: one is CPU, the other system calls.
	type checked struct {
		rep *workspace.Report
		err error
	}
	checkDone := make(chan checked, 1)
	go func() {
		rep, err := s.Check(ctx, workspace.CheckOptions{PartialHinted: partialChecksOf(s).Load()})
		checkDone <- checked{rep, err}
	}()
	if err := b.readFiles(ctx, s); err != nil {
		<-checkDone
		return err
	}

	b.hashes = make([]devcontext.FileHash, len(b.files))
	for i, f := range b.files {
		b.hashes[i] = devcontext.FileHash{Path: f.path, Hash: f.blob, Overlay: f.overlay}
	}
	b.buildGit(s)
	b.modules = findModules(s, b.files)

	for _, f := range b.files {
		if f.doc && f.st == anchors.FileOK {
			text, _ := s.ReadFile(f.path)
			d := parseCxDoc(f.path, text)
			b.docs = append(b.docs, d)
		}
	}
	b.docAt = map[string]*cxDoc{}
	for _, d := range b.docs {
		b.docAt[d.path] = d
	}

	done := <-checkDone
	if done.err != nil {
		return done.err
	}
	rep := done.rep
	b.anchors = rep.Anchors
	seen := map[string]bool{}
	for _, a := range rep.Anchors {
		for _, p := range []string{a.Path, foundPath(a)} {
			if i, ok := b.byPath[p]; ok && b.files[i].code && !seen[p] {
				seen[p] = true
				b.anchorFiles = append(b.anchorFiles, p)
			}
		}
	}
	sort.Strings(b.anchorFiles)

	if contextClaims != nil {
		cs, err := contextClaims(ctx, s, rep)
		if err != nil {
			return err
		}
		b.claims = cs
	} else {
		b.claims = claimsFromReport(s, rep)
	}
	return nil
}

func foundPath(a workspace.AnchorReport) string {
	if a.Found != nil {
		return a.Found.Path
	}
	return ""
}

// buildGit asks git for HEAD and, when the adapter keeps history, HEAD's
// blob ids: the working tree is dirty when any file's content differs from
// HEAD, is not in HEAD, or HEAD holds a file the workspace no longer has.
func (b *ctxBase) buildGit(s *workspace.Snapshot) {
	info := s.Git()
	g := s.GitAdapter()
	if g != nil {
		b.gitLog, _ = g.(workspace.GitLog)
	}
	dirty := ""
	if b.gitLog != nil && info.IsRepo {
		b.head = headFiles(s, b.gitLog, info.Head)
		dirty = "clean"
		for _, f := range b.files {
			if f.st == anchors.FileTooLarge {
				continue // not read, so not compared
			}
			if h, ok := b.head[f.path]; !ok || h != f.blob {
				dirty = "dirty"
				break
			}
		}
		for p := range b.head {
			if _, ok := b.byPath[p]; !ok {
				dirty = "dirty"
				break
			}
		}
	}
	b.git = gitOf(info, g != nil, b.gitLog != nil, dirty)
}

// changed reports whether p's content differs from HEAD (or git cannot
// tell, which is reported as unchanged).
func (b *ctxBase) changed(p string) bool {
	if b.gitLog == nil || b.head == nil && b.git.Head != "" {
		return false
	}
	i, ok := b.byPath[p]
	if !ok {
		return false
	}
	f := b.files[i]
	if f.st == anchors.FileTooLarge || f.st == anchors.FileMissing {
		return false
	}
	h, inHead := b.head[p]
	return !inHead || h != f.blob
}

// history returns the commits that changed p, newest first (memoised).
func (b *ctxBase) history(p string) []workspace.GitCommit {
	if b.gitLog == nil {
		return nil
	}
	b.mu.Lock()
	if vs, ok := b.commits[p]; ok {
		b.mu.Unlock()
		return vs
	}
	b.mu.Unlock()
	vs := b.gitLog.Commits(p, historyVersions)
	b.mu.Lock()
	if b.commits == nil {
		b.commits = map[string][]workspace.GitCommit{}
	}
	b.commits[p] = vs
	b.mu.Unlock()
	return vs
}

// historyVersions is how many versions of a file are read to find the
// newest commits that changed one declaration in it.
const historyVersions = 20

func (b *ctxBase) file(p string) (cxFile, bool) {
	i, ok := b.byPath[p]
	if !ok {
		return cxFile{}, false
	}
	return b.files[i], true
}

// inDir narrows a posting list (file indexes, ascending) to the span of
// file indexes that holds every file of directory dir: what a search for
// dir's files alone must look at, instead of every file of the tree that
// holds the name. The span may hold other directories' files too (the
// files are in path order, a subdirectory's among its parent's).
func (b *ctxBase) inDir(post []int32, dir string) []int32 {
	lo, hi := b.dirSpan(dir)
	i, _ := slices.BinarySearch(post, int32(lo))
	j, _ := slices.BinarySearch(post[i:], int32(hi))
	return post[i : i+j]
}

// dirSpan is the span of file indexes [lo, hi) that holds every file of
// directory dir (empty when it has none).
func (b *ctxBase) dirSpan(dir string) (lo, hi int) {
	b.dirSpansOnce.Do(func() {
		b.dirSpans = map[string][2]int32{}
		for i, f := range b.files {
			sp, ok := b.dirSpans[f.dir]
			if !ok {
				sp[0] = int32(i)
			}
			sp[1] = int32(i) + 1
			b.dirSpans[f.dir] = sp
		}
	})
	sp := b.dirSpans[dir]
	return int(sp[0]), int(sp[1])
}

// findModules reads every go.mod's module line.
func findModules(s *workspace.Snapshot, files []cxFile) []cxModule {
	var out []cxModule
	for _, f := range files {
		if path.Base(f.path) != "go.mod" || f.st != anchors.FileOK {
			continue
		}
		data, _ := s.ReadFile(f.path)
		for _, line := range strings.Split(string(data), "\n") {
			line = strings.TrimSpace(line)
			if rest, ok := strings.CutPrefix(line, "module"); ok && (rest == "" || rest[0] == ' ' || rest[0] == '\t') {
				mod := strings.Trim(strings.TrimSpace(rest), `"`)
				if mod != "" {
					out = append(out, cxModule{dir: f.dir, path: mod})
				}
				break
			}
		}
	}
	// Deepest first, so the nearest go.mod wins.
	sort.Slice(out, func(i, j int) bool {
		if len(out[i].dir) != len(out[j].dir) {
			return len(out[i].dir) > len(out[j].dir)
		}
		return out[i].dir < out[j].dir
	})
	return out
}

// importPath is a symbol's namespace in its URI: for Go the package import
// path (module path plus the directory below go.mod, else the directory),
// for other languages the file path without its extension (their module).
func (b *ctxBase) importPath(p string, lang symbols.Language) string {
	if lang != symbols.Go {
		return strings.TrimSuffix(p, path.Ext(p))
	}
	dir := path.Dir(p)
	for _, m := range b.modules {
		if m.dir == "." {
			if dir == "." {
				return m.path
			}
			return m.path + "/" + dir
		}
		if dir == m.dir {
			return m.path
		}
		if rest, ok := strings.CutPrefix(dir, m.dir+"/"); ok {
			return m.path + "/" + rest
		}
	}
	if dir == "." {
		return ""
	}
	return dir
}
