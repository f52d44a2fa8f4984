package main

import (
	"math"
	"sort"
	"strings"
	"unicode"

	"github.com/clew-lsp/clew-lsp/internal/devcontext"
	"github.com/clew-lsp/clew-lsp/internal/workspace"
)

// The repository-map baseline, after Aider's repo map: a graph of files
// where a file that references an identifier points at the files that
// define it, weighted like Aider's (×10 for the seed's name and for long
// snake/camel names, ×0.1 for _private names and names defined in more
// than five files, ×50 from F's file, √ of the reference count), ranked by
// PageRank personalised on F's file. Each file's rank flows to the
// definitions along its out-edges; definitions are shown in rank order as
// their signature line under their file's path, F's file whole (it is "in
// the chat"), the longest prefix that fits the budget.

type mapDef struct {
	file, ident string
	rank        float64
}

type repoMap struct {
	whole string // F's file, given whole
	defs  []mapDef
	decls map[string][]decl // file → its declarations
	size  map[string]int
}

func buildRepoMap(snap *workspace.Snapshot, files []string, f, seedName string) *repoMap {
	m := &repoMap{whole: f, decls: map[string][]decl{}, size: map[string]int{}}
	defines := map[string]map[string]bool{} // ident → files
	refs := map[string]map[string]int{}     // file → ident → count
	for _, p := range files {
		if !codeLanguage(p) {
			continue
		}
		ds, src := snap.FileDecls(p)
		m.size[p] = len(src)
		for _, d := range ds {
			n := baseName(d.QualifiedName)
			if defines[n] == nil {
				defines[n] = map[string]bool{}
			}
			defines[n][p] = true
			m.decls[p] = append(m.decls[p], decl{path: p, qname: d.QualifiedName, start: d.StartLine, end: d.EndLine, sig: firstLine(src, d.StartByte)})
		}
		refs[p] = identCounts(src)
	}
	type edge struct {
		to, ident string
		w         float64
	}
	out := map[string][]edge{}
	nodes := map[string]bool{}
	for _, r := range sortedKeys(refs) {
		counts := refs[r]
		for _, id := range sortedKeys(counts) {
			defs := defines[id]
			if len(defs) == 0 {
				continue
			}
			mul := 1.0
			if id == seedName {
				mul *= 10
			}
			if len(id) >= 8 && (strings.Contains(id, "_") || hasInnerUpper(id)) {
				mul *= 10
			}
			if strings.HasPrefix(id, "_") {
				mul *= 0.1
			}
			if len(defs) > 5 {
				mul *= 0.1
			}
			if r == f {
				mul *= 50
			}
			for _, d := range sortedKeys(defs) {
				if d == r {
					continue
				}
				out[r] = append(out[r], edge{d, id, mul * math.Sqrt(float64(counts[id]))})
				nodes[r], nodes[d] = true, true
			}
		}
	}
	nodes[f] = true
	order := sortedKeys(nodes)
	rank := pageRank(order, f, func(n string, visit func(to string, w float64)) {
		for _, e := range out[n] {
			visit(e.to, e.w)
		}
	})
	defRank := map[[2]string]float64{}
	for _, n := range order {
		total := 0.0
		for _, e := range out[n] {
			total += e.w
		}
		for _, e := range out[n] {
			defRank[[2]string{e.to, e.ident}] += rank[n] * e.w / total
		}
	}
	for k, r := range defRank {
		if k[0] != f {
			m.defs = append(m.defs, mapDef{k[0], k[1], r})
		}
	}
	sort.Slice(m.defs, func(i, j int) bool {
		a, b := m.defs[i], m.defs[j]
		if a.rank != b.rank {
			return a.rank > b.rank
		}
		if a.file != b.file {
			return a.file < b.file
		}
		return a.ident < b.ident
	})
	return m
}

// pageRank: damping 0.85, teleport and dangling mass to the personal node.
func pageRank(nodes []string, personal string, out func(string, func(string, float64))) map[string]float64 {
	r := map[string]float64{}
	for _, n := range nodes {
		r[n] = 1 / float64(len(nodes))
	}
	for it := 0; it < 100; it++ {
		next := map[string]float64{}
		dangling := 0.0
		for _, n := range nodes {
			total := 0.0
			out(n, func(_ string, w float64) { total += w })
			if total == 0 {
				dangling += r[n]
				continue
			}
			out(n, func(to string, w float64) { next[to] += 0.85 * r[n] * w / total })
		}
		next[personal] += 0.15 + 0.85*dangling
		diff := 0.0
		for _, n := range nodes {
			diff += math.Abs(next[n] - r[n])
		}
		r = next
		if diff < 1e-9 {
			break
		}
	}
	return r
}

// fill selects F's file whole, then the longest prefix of ranked
// definitions whose map text fits: "path:\n" once per file, then each
// definition's signature line plus a "⋮" separator line.
func (m *repoMap) fill(budget uint64) (shown map[declKey]bool, files map[string]uint64, used uint64) {
	shown, files = map[declKey]bool{}, map[string]uint64{}
	whole := devcontext.TokensFor(m.size[m.whole])
	files[m.whole] = whole
	for _, d := range m.decls[m.whole] {
		shown[d.key()] = true
	}
	bytes := 0
	perFile := map[string]int{}
	for _, def := range m.defs {
		add := 0
		if perFile[def.file] == 0 {
			add += len(def.file) + 2
		}
		var ds []decl
		for _, d := range m.decls[def.file] {
			if baseName(d.qname) == def.ident {
				ds = append(ds, d)
				add += len(strings.TrimSpace(d.sig)) + 5
			}
		}
		if whole+devcontext.TokensFor(bytes+add) > budget {
			break
		}
		bytes += add
		perFile[def.file] += add
		for _, d := range ds {
			shown[d.key()] = true
		}
	}
	used = whole
	if bytes > 0 {
		used += devcontext.TokensFor(bytes)
	}
	for p, b := range perFile {
		files[p] = uint64(b) / devcontext.BytesPerToken
	}
	return shown, files, used
}

func baseName(q string) string {
	if i := strings.LastIndexByte(q, '.'); i >= 0 {
		q = q[i+1:]
	}
	for i, c := range q {
		if !(c == '_' || c == '$' || unicode.IsLetter(c) || unicode.IsDigit(c)) {
			return q[:i]
		}
	}
	return q
}

func hasInnerUpper(s string) bool {
	for i, c := range s {
		if i > 0 && unicode.IsUpper(c) {
			return true
		}
	}
	return false
}

// identCounts counts the identifiers of a source text.
func identCounts(src []byte) map[string]int {
	out := map[string]int{}
	for i := 0; i < len(src); {
		c := src[i]
		if c == '_' || c == '$' || c >= 0x80 || 'a' <= c && c <= 'z' || 'A' <= c && c <= 'Z' {
			j := i + 1
			for j < len(src) && (src[j] == '_' || src[j] == '$' || src[j] >= 0x80 || 'a' <= src[j] && src[j] <= 'z' || 'A' <= src[j] && src[j] <= 'Z' || '0' <= src[j] && src[j] <= '9') {
				j++
			}
			out[string(src[i:j])]++
			i = j
			continue
		}
		i++
	}
	return out
}

func sortedKeys[V any](m map[string]V) []string {
	out := make([]string, 0, len(m))
	for k := range m {
		out = append(out, k)
	}
	sort.Strings(out)
	return out
}
