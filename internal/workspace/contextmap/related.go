package contextmap

import (
	"cmp"
	"path"
	"slices"
	"strings"

	"github.com/clew-lsp/clew-lsp/internal/devcontext"
	"github.com/clew-lsp/clew-lsp/internal/workspace"
)

// Relations that are not read from declarations: co_changed (git history)
// and sibling (the package). Both start at the seeds, carry a measured
// strength, and are published in devcontext's edge table.

const (
	// maxCoChangeFiles: a commit changing more files than this is a sweep
	// (a rename, a licence header) and says nothing about what belongs
	// together.
	maxCoChangeFiles = 30
	// maxSiblings bounds the sibling edges of one seed file.
	maxSiblings = 200
	// Declarations changed with a seed: the other code files of one commit
	// whose two versions are compared, and the bytes of versions parsed
	// per seed.
	maxCoChangedDeclFiles = 8
	maxCoChangedDeclBytes = 2 << 20
	// Files co_changed and sibling reach that are parsed so the compiler
	// can outline them (their declarations' signatures) when they do not
	// fit whole; strongest first.
	maxOutlineFiles = 32
	maxOutlineBytes = 2 << 20
)

// parseRelated parses the code files the seeds reach by co_changed and
// sibling, strongest first within maxOutlineFiles and maxOutlineBytes:
// their declarations join the world (no edges are drawn from them), so a
// file that does not fit whole can still be given as an outline.
func (w *worldBuilder) parseRelated() {
	weight := map[string]float64{}
	for _, e := range w.edges {
		var rule float64
		switch e.Kind {
		case devcontext.EdgeCoChanged:
			rule = 0.9
		case devcontext.EdgeSibling:
			rule = 0.3
		case devcontext.EdgeImports, devcontext.EdgeImportedBy:
			rule = 0.5
		default:
			continue
		}
		p, ok := strings.CutPrefix(e.To, devcontext.FileURI(""))
		if !ok {
			continue
		}
		weight[p] = max(weight[p], rule*e.Strength)
	}
	paths := sortedKeys(weight)
	slices.SortStableFunc(paths, func(a, b string) int { return cmp.Compare(weight[b], weight[a]) })
	n, bytes := 0, 0
	var todo []string
	for _, p := range paths {
		f, ok := w.b.file(p)
		if !ok || !f.code || w.parsed[p] != nil {
			continue
		}
		if n >= maxOutlineFiles || bytes+f.size > maxOutlineBytes {
			break
		}
		n++
		bytes += f.size
		todo = append(todo, p)
	}
	w.prefetchTables(todo, false) // on all cores; the world is still built in order
	for _, p := range todo {
		w.parse(p, false)
	}
}

// seedFiles are the files of the seeds: each root declaration's file and
// the file seed, with the uri the relation starts from.
func (w *worldBuilder) seedFiles() (files, from []string) {
	for _, x := range w.roots {
		files, from = append(files, x.f.path), append(from, x.uri)
	}
	if w.fileSeed != "" {
		files, from = append(files, w.fileSeed), append(from, devcontext.FileURI(w.fileSeed))
	}
	return files, from
}

// changedFiles is what one commit changed (memoised per base).
func (b *ctxBase) changedFiles(g workspace.GitChanges, sha string) []string {
	b.mu.Lock()
	if fs, ok := b.changes[sha]; ok {
		b.mu.Unlock()
		return fs
	}
	b.mu.Unlock()
	fs := g.ChangedFiles(sha, maxCoChangeFiles)
	b.mu.Lock()
	if b.changes == nil {
		b.changes = map[string][]string{}
	}
	b.changes[sha] = fs
	b.mu.Unlock()
	return fs
}

// addCoChange draws co_changed from each seed to the files changed in the
// same commits as the seed's file: of the (up to 20) newest commits that
// changed it, those changing at most maxCoChangeFiles files; strength =
// commits shared / (commits read + 1), so one shared commit of one is 0.5.
func (w *worldBuilder) addCoChange() {
	g, ok := w.b.gitLog.(workspace.GitChanges)
	if !ok {
		return
	}
	files, from := w.seedFiles()
	for i, p := range files {
		count := map[string]int{}
		n := 0
		for _, c := range w.b.history(p) {
			changed := w.b.changedFiles(g, c.SHA)
			if changed == nil {
				continue
			}
			n++
			for _, q := range changed {
				if q != p {
					count[q]++
				}
			}
		}
		shared := map[string]map[string]bool{} // file → shas shared with p
		for _, c := range w.b.history(p) {
			for _, q := range w.b.changedFiles(g, c.SHA) {
				if shared[q] == nil {
					shared[q] = map[string]bool{}
				}
				shared[q][c.SHA] = true
			}
		}
		for _, q := range sortedKeys(count) {
			to := w.fileNodeURI(q)
			if to == "" {
				continue
			}
			w.edges = append(w.edges, devcontext.Edge{Kind: devcontext.EdgeCoChanged, From: from[i], To: to,
				Strength: float64(count[q]) / float64(n+1)})
		}
	}
	for _, x := range w.roots {
		w.changedWithSeed(g, x)
	}
}

// declStates maps each declaration of a version to its hashes.
func (w *worldBuilder) declStates(f cxFile, src []byte, budget *int) map[string]string {
	if src == nil || *budget < len(src) {
		return nil
	}
	*budget -= len(src)
	out := map[string]string{}
	for _, d := range w.s.Table(f.lang, src).Decls {
		out[d.Kind+"\x00"+d.QualifiedName] = d.DeclHash + "/" + d.BodyHash
	}
	return out
}

// changedIn lists the declarations whose tokens differ between a version
// and the one before it (added ones included).
func changedIn(cur, prev map[string]string) []string {
	var out []string
	for k, h := range cur {
		if prev[k] != h {
			out = append(out, k)
		}
	}
	slices.Sort(out)
	return out
}

// changedWithSeed draws co_changed from a seed declaration to the
// declarations changed in the same commits as it: of the newest 5 commits
// that changed its tokens, the other declarations of its file whose tokens
// changed too, and those of the other code files the commit changed (at
// most maxCoChangedDeclFiles per commit, by path). Strength = commits
// shared / (commits read + 1). Versions are compared by declaration hash,
// within maxCoChangedDeclBytes of parsing per seed.
func (w *worldBuilder) changedWithSeed(g workspace.GitChanges, x *cxDecl) {
	f, ok := w.b.file(x.f.path)
	if !ok {
		return
	}
	vers := w.b.history(x.f.path)
	key := x.d.Kind + "\x00" + x.d.QualifiedName
	budget := maxCoChangedDeclBytes
	count := map[string]map[string]int{} // path → declaration → commits
	add := func(p string, ks []string) {
		if count[p] == nil {
			count[p] = map[string]int{}
		}
		for _, k := range ks {
			count[p][k]++
		}
	}
	n := 0
	for j := 0; j+1 < len(vers) && n < maxCommitsPerDecl; j++ {
		cur := w.declStates(f, vers[j].Content, &budget)
		prev := w.declStates(f, vers[j+1].Content, &budget)
		if cur == nil || prev == nil {
			break
		}
		if _, here := cur[key]; !here {
			break // the seed is newer than this version
		}
		if cur[key] == prev[key] {
			continue
		}
		n++
		add(x.f.path, changedIn(cur, prev))
		others := 0
		for _, q := range w.b.changedFiles(g, vers[j].SHA) {
			qf, ok := w.b.file(q)
			if q == x.f.path || !ok || !qf.code || others >= maxCoChangedDeclFiles {
				continue
			}
			others++
			before, after, ok := g.FileChange(vers[j].SHA, q)
			if !ok || after == nil {
				continue
			}
			a := w.declStates(qf, after, &budget)
			b := map[string]string{}
			if before != nil {
				b = w.declStates(qf, before, &budget)
			}
			if a != nil && b != nil {
				add(q, changedIn(a, b))
			}
		}
	}
	for _, p := range sortedKeys(count) {
		pf := w.parse(p, false)
		if pf == nil {
			continue
		}
		for _, y := range pf.decls {
			c := count[p][y.d.Kind+"\x00"+y.d.QualifiedName]
			if c == 0 || y == x || y.contains(x) || x.contains(y) {
				continue
			}
			w.edges = append(w.edges, devcontext.Edge{Kind: devcontext.EdgeCoChanged, From: x.uri, To: y.uri,
				Strength: float64(c) / float64(n+1)})
		}
	}
}

// fileNodeURI is the whole-file node of a path in the world: a doc's own
// uri, else the file's; "" when the snapshot does not have it.
func (w *worldBuilder) fileNodeURI(p string) string {
	if d, ok := w.b.docAt[p]; ok {
		return d.uri
	}
	if w.has(devcontext.FileURI(p)) {
		return devcontext.FileURI(p)
	}
	return ""
}

// addSiblings draws sibling from each seed to the other code files of its
// package: the same directory and language family. Not for JS/TS and
// Python: a directory is not their scope; a file's import statements say
// which files it belongs with, and imports and imported_by follow them. Strength 0.85–1 by the
// share of the seed file's declared names the sibling mentions, so the
// siblings that use the seed's file fill the budget first.
func (w *worldBuilder) addSiblings() {
	files, from := w.seedFiles()
	for i, p := range files {
		f, ok := w.b.file(p)
		if !ok || !f.code {
			continue
		}
		fam := workspace.LanguageFamily(f.lang)
		if fam == familyJS || fam == familyPython {
			continue // their import statements say which files belong together (imports, imported_by)
		}
		var names []string
		if pf := w.parsed[p]; pf != nil {
			for _, x := range pf.decls {
				if len(x.base) > 2 {
					names = append(names, x.base)
				}
			}
		}
		slices.Sort(names)
		names = slices.Compact(names)
		var holds []func(int) bool // per name, asked of each sibling (made once, not per sibling)
		n := 0
		lo, hi := w.b.dirSpan(f.dir) // every file of the directory is in it
		for j := lo; j < hi; j++ {
			s := w.b.files[j]
			if s.path == p || !s.code || s.dir != f.dir || workspace.LanguageFamily(s.lang) != fam || path.Dir(s.path) != path.Dir(p) {
				continue
			}
			if n++; n > maxSiblings {
				break
			}
			if holds == nil {
				holds = make([]func(int) bool, len(names))
				for k, name := range names {
					holds[k] = w.b.lex.holder(name)
				}
			}
			hits := 0
			for _, h := range holds {
				if h(j) {
					hits++
				}
			}
			strength := 0.85
			if len(names) > 0 {
				strength += 0.15 * float64(hits) / float64(len(names))
			}
			w.edges = append(w.edges, devcontext.Edge{Kind: devcontext.EdgeSibling, From: from[i], To: devcontext.FileURI(s.path),
				Strength: strength})
		}
	}
}

func sortedKeys[V any](m map[string]V) []string {
	out := make([]string, 0, len(m))
	for k := range m {
		out = append(out, k)
	}
	slices.Sort(out)
	return out
}

// addImports draws imports from each seed to the workspace files its file
// imports from (strength 1) and to those that the files co_changed
// reaches import from (strength = that edge's strength): the
// declarations a change is likely to touch next, two hops out, given as
// outlines (imports is outline-only). JS/TS and Python only: a Go import is
// a package, and the package is what sibling covers.
func (w *worldBuilder) addImports() {
	files, from := w.seedFiles()
	for i, p := range files {
		pf := w.parse(p, false)
		if pf == nil || (pf.family != familyJS && pf.family != familyPython) {
			continue
		}
		strength := map[string]float64{}
		add := func(pf *cxParsed, s float64) {
			for _, imp := range w.imports(pf) {
				if imp.path != p {
					strength[imp.path] = max(strength[imp.path], s)
				}
			}
		}
		add(pf, 1)
		for _, e := range w.edges {
			if e.From != from[i] || e.Kind != devcontext.EdgeCoChanged {
				continue
			}
			q, ok := strings.CutPrefix(e.To, devcontext.FileURI(""))
			if !ok {
				continue
			}
			if qf := w.parse(q, false); qf != nil && qf.family == pf.family {
				add(qf, e.Strength)
			}
		}
		for _, q := range sortedKeys(strength) {
			if to := w.fileNodeURI(q); to != "" {
				w.edges = append(w.edges, devcontext.Edge{Kind: devcontext.EdgeImports, From: from[i], To: to, Strength: strength[q]})
			}
		}
		for _, y := range w.importedDecls(pf) {
			w.edges = append(w.edges, devcontext.Edge{Kind: devcontext.EdgeImports, From: from[i], To: y.uri, Strength: 1})
		}
	}
}

// importedDecls are the declarations pf imports by name: the top-level
// declaration of each imported name in the file it comes from, in
// import-scope order (local names sorted).
func (w *worldBuilder) importedDecls(pf *cxParsed) []*cxDecl {
	imps := w.imports(pf)
	var out []*cxDecl
	for _, local := range sortedKeys(imps) {
		imp := imps[local]
		if imp.name == "" || imp.path == pf.path {
			continue
		}
		qf := w.parse(imp.path, false)
		if qf == nil {
			continue
		}
		for _, y := range qf.decls {
			if y.base == imp.name && y.d.Container == "" {
				out = append(out, y)
			}
		}
	}
	return out
}
