package workspace

import (
	"bytes"
	"context"
	"path"
	"runtime"
	"sort"
	"sync"

	"github.com/clew-lsp/clew-lsp/internal/anchors"
	"github.com/clew-lsp/clew-lsp/internal/anchors/symbols"
)

// historyDepth is how many versions of a hinted file are searched for the
// declaration an anchor was pinned on.
const historyDepth = 20

// need is what one unsettled anchor asks of a candidate file before it is
// worth parsing.
type need struct {
	family string
	base   []byte   // stage 2: the identifier must occur as a word
	goFunc bool     // a Go function or method: it must occur as one is declared
	rare   [][]byte // stages 3/4: rare tokens of the pinned body, when known
	shape  *anchors.BodyPattern
	body   bool // the anchor can be recovered by body (stages 3/4)
}

func (n need) wants(content []byte, lang symbols.Language) bool {
	if len(n.base) > 0 && declaresName(content, n.base, n.goFunc && lang == symbols.Go) {
		return true
	}
	if !n.body {
		return false
	}
	if n.shape == nil {
		return true // the pinned body is unknown: nothing to filter by
	}
	for _, t := range n.rare {
		if !bytes.Contains(content, t) {
			return false
		}
	}
	return n.shape == nil || n.shape.MayOccur(content)
}

// repoWide reads the workspace's other code files within the budget, and
// parses, in parallel, only those that could hold an answer for one of the
// open anchors: the identifier's bytes for a move (stage 2), a rare token of
// the pinned body for a rename (stages 3/4).
func (r *checkRun) repoWide(ctx context.Context, open []anchors.Anchor) error {
	needs := make([]need, 0, len(open))
	families := map[string]bool{}
	var hintDirs []string
	for _, a := range open {
		if a.Form != anchors.FormSymbol {
			continue
		}
		lang, ok := symbols.LanguageForPath(a.Path)
		if !ok {
			continue
		}
		n := need{family: LanguageFamily(lang), base: []byte(anchors.BaseName(a.QualifiedName)), body: a.BodySHA != "",
			goFunc: lang == symbols.Go && (a.Kind == "function" || a.Kind == "method")}
		if n.body {
			// A key's value tokens are in canonical (sorted) order, not the
			// file's, so the shape test would reject a file that holds it.
			if body := r.origin(a); len(body) > 0 && !symbols.IsKeyLanguage(lang) {
				for _, t := range rareTokens(body) {
					n.rare = append(n.rare, []byte(t))
				}
				p := anchors.NewBodyPattern(body, anchors.SyntaxFor(lang))
				n.shape = &p
			}
		}
		needs = append(needs, n)
		families[n.family] = true
		hintDirs = append(hintDirs, a.Path)
	}
	if len(needs) == 0 {
		return nil
	}

	// Candidates: code files of the open anchors' language families, the
	// hints' directories first (a move is most often next door), then path
	// order.
	var near, far []string
	for _, p := range r.s.Files() {
		if _, done := r.status[p]; done {
			continue
		}
		lang, ok := r.s.Language(p)
		if !ok || !families[LanguageFamily(lang)] {
			continue
		}
		isNear := false
		for _, h := range hintDirs {
			if sameDir(h, p) {
				isNear = true
				break
			}
		}
		if isNear {
			near = append(near, p)
		} else {
			far = append(far, p)
		}
	}
	cands := append(near, far...)

	type parsed struct {
		path  string
		decls []symbols.Decl
		st    anchors.FileStatus
		read  bool
	}
	results := make([]parsed, len(cands))
	jobs := make(chan int)
	var wg sync.WaitGroup
	workers := runtime.GOMAXPROCS(0)
	for w := 0; w < workers; w++ {
		wg.Add(1)
		go func() {
			defer wg.Done()
			for i := range jobs {
				p := cands[i]
				results[i].path = p
				// Scanning a file for the prefilter costs time only; the
				// files and bytes limits count the files parsed.
				if ctx.Err() != nil || !r.sp.allowScan() {
					results[i].st = anchors.FileUnread
					continue
				}
				b, st := r.s.readUncached(p)
				results[i].st, results[i].read = st, true
				if st != anchors.FileOK {
					continue
				}
				lang, _ := r.s.Language(p)
				for _, n := range needs {
					if n.family == LanguageFamily(lang) && n.wants(b, lang) {
						if !r.sp.allow() {
							results[i].st = anchors.FileUnread
							break
						}
						r.sp.spend(len(b))
						results[i].decls = r.s.tables.parse(lang, b).Decls
						break
					}
				}
			}
		}()
	}
	for i := range cands {
		jobs <- i
	}
	close(jobs)
	wg.Wait()
	if err := ctx.Err(); err != nil {
		return err
	}
	var sqlDirs []string
	for _, res := range results {
		if res.st == anchors.FileUnread {
			continue // not attempted: the budget stopped first
		}
		r.status[res.path] = res.st
		if res.decls != nil {
			if r.s.isSQL(res.path) {
				sqlDirs = append(sqlDirs, path.Dir(res.path))
				continue
			}
			r.ix.Add(res.path, res.decls)
		}
	}
	for _, d := range sqlDirs {
		r.indexSQLFolder(d)
	}
	return nil
}

// origin returns the body tokens of the declaration an anchor was pinned
// on, found in the hinted file's history by its pinned hashes. It is nil
// when history has no such version (or there is no git).
func (r *checkRun) origin(a anchors.Anchor) []string {
	if toks, ok := r.origins[a.ID()]; ok {
		return toks
	}
	var toks []string
	lang, ok := symbols.LanguageForPath(a.Path)
	if ok && r.s.git != nil && a.Pinned() {
	search:
		for _, blob := range r.s.git.History(a.Path, historyDepth) {
			for _, d := range r.s.tables.parse(lang, blob).Decls {
				if (a.BodySHA != "" && d.BodyHash == a.BodySHA) || d.DeclHash == a.DeclSHA {
					toks = d.Body
					break search
				}
			}
		}
	}
	r.origins[a.ID()] = toks
	return toks
}

// rareTokens picks up to two identifier-like tokens of a body, longest
// first: long identifiers are rare across a code base, so requiring them
// skips almost every file without parsing it.
func rareTokens(body []string) []string {
	seen := map[string]bool{}
	var ids []string
	for _, t := range body {
		if len(t) < 4 || seen[t] || commonWords[t] || !isIdent(t) {
			continue
		}
		seen[t] = true
		ids = append(ids, t)
	}
	sort.SliceStable(ids, func(i, j int) bool {
		if len(ids[i]) != len(ids[j]) {
			return len(ids[i]) > len(ids[j])
		}
		return ids[i] < ids[j]
	})
	if len(ids) > 2 {
		ids = ids[:2]
	}
	return ids
}

func isIdent(s string) bool {
	for i, c := range s {
		if c == '_' || c >= 'a' && c <= 'z' || c >= 'A' && c <= 'Z' || (i > 0 && c >= '0' && c <= '9') {
			continue
		}
		return false
	}
	return true
}

// commonWords are keywords and names too frequent to filter by.
var commonWords = map[string]bool{
	"return": true, "func": true, "function": true, "const": true, "self": true, "this": true,
	"null": true, "true": true, "false": true, "else": true, "break": true, "continue": true,
	"string": true, "String": true, "error": true, "void": true, "static": true, "public": true,
	"private": true, "final": true, "while": true, "range": true, "len": true, "nil": true,
	"None": true, "True": true, "False": true, "await": true, "async": true, "throw": true,
	"catch": true, "case": true, "switch": true, "default": true, "import": true, "from": true,
	"struct": true, "class": true, "new": true, "let": true, "var": true, "int": true,
	"bool": true, "byte": true, "char": true, "double": true, "float": true, "size": true,
}

// readUncached reads a file for the repository-wide pass without keeping it
// in the snapshot: those files are many and needed once.
func (s *Snapshot) readUncached(p string) ([]byte, anchors.FileStatus) {
	if b, ok := s.overlays[p]; ok {
		return b, classify(b, s.config.Budget.MaxFileBytes)
	}
	return s.readDisk(p)
}

// declaresName reports whether name occurs in content as a whole word: a
// declaration's name is always one token, so a word test never loses one
// that a substring test finds. goFunc narrows it to how Go declares a
// function or method: `func Name(`, `func (r T) Name[`.
func declaresName(content, name []byte, goFunc bool) bool {
	for off := 0; ; {
		i := bytes.Index(content[off:], name)
		if i < 0 {
			return false
		}
		i += off
		end := i + len(name)
		off = i + 1
		if i > 0 && isWordByte(content[i-1]) || end < len(content) && isWordByte(content[end]) {
			continue
		}
		if !goFunc || goFuncShape(content, i, end) {
			return true
		}
	}
}

func isWordByte(c byte) bool {
	return c == '_' || c >= 'a' && c <= 'z' || c >= 'A' && c <= 'Z' || c >= '0' && c <= '9' || c >= 0x80
}

// goFuncShape: the word at [i, end) is preceded by `func` or a receiver's
// `)` and followed by `(` or `[`, blanks between.
func goFuncShape(content []byte, i, end int) bool {
	for end < len(content) && (content[end] == ' ' || content[end] == '\t') {
		end++
	}
	if end == len(content) || content[end] != '(' && content[end] != '[' {
		return false
	}
	for i > 0 && (content[i-1] == ' ' || content[i-1] == '\t') {
		i--
	}
	return i > 0 && content[i-1] == ')' ||
		i >= 4 && string(content[i-4:i]) == "func" && (i == 4 || !isWordByte(content[i-5]))
}
