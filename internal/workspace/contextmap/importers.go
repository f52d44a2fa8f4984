package contextmap

import (
	"path"
	"slices"
	"strings"

	"github.com/clew-lsp/clew-lsp/internal/devcontext"
)

// imported_by (JS/TS, Python): from each seed to the workspace files that
// import from the seed's file — the code that uses what the seed's file
// declares, where a change to it is carried on (a new parameter passed, a
// renamed constant read). Strength 1 for a file importing the seed's own
// name (or its module whole; any importer of a file seed), 0.5 for one
// importing other names of its file. Outline-only and a leaf, like
// imports: such a file is given by its declarations' signatures.

// maxImporterParses bounds the files read to find a seed file's
// importers: the files whose text holds its module's name, nearest
// directory first.
const maxImporterParses = 64

// addImporters draws imported_by from each seed.
func (w *worldBuilder) addImporters() {
	files, from := w.seedFiles()
	for i, p := range files {
		pf := w.parse(p, false)
		if pf == nil || (pf.family != familyJS && pf.family != familyPython) {
			continue
		}
		name := w.seedName(from[i])
		strength := map[string]float64{}
		for _, q := range w.importerCandidates(pf) {
			qf := w.parse(q, false)
			if qf == nil || qf.family != pf.family {
				continue
			}
			for _, imp := range w.imports(qf) {
				if imp.path != p {
					continue
				}
				s := 0.5
				if name == "" || imp.name == "" || imp.name == name {
					s = 1
				}
				strength[q] = max(strength[q], s)
			}
		}
		for _, q := range sortedKeys(strength) {
			if to := w.fileNodeURI(q); to != "" {
				w.edges = append(w.edges, devcontext.Edge{Kind: devcontext.EdgeImportedBy, From: from[i], To: to, Strength: strength[q]})
			}
		}
	}
}

// seedName is a seed declaration's own name ("" for a file seed).
func (w *worldBuilder) seedName(uri string) string {
	for _, x := range w.roots {
		if x.uri == uri {
			return x.base
		}
	}
	return ""
}

// importerCandidates are the code files of pf's family whose text holds
// the word an import of pf names (its stem; for an index or __init__ file,
// its directory's name), nearest directory first, at most
// maxImporterParses.
func (w *worldBuilder) importerCandidates(pf *cxParsed) []string {
	base := path.Base(pf.path)
	stem := base[:len(base)-len(path.Ext(base))]
	stem = strings.TrimSuffix(stem, ".d")
	if stem == "index" || stem == "__init__" {
		stem = path.Base(pf.dir)
	}
	if !isIdent(stem) {
		return nil
	}
	var out []string
	for _, j := range w.b.lex.occursIn(stem) {
		f := w.b.files[j]
		if f.path != pf.path && f.code {
			out = append(out, f.path)
		}
	}
	slices.SortStableFunc(out, func(a, b string) int {
		return dirDistance(pf.dir, path.Dir(a)) - dirDistance(pf.dir, path.Dir(b))
	})
	if len(out) > maxImporterParses {
		out = out[:maxImporterParses]
	}
	return out
}

// dirDistance counts the directory steps from a to b.
func dirDistance(a, b string) int {
	as, bs := strings.Split(a, "/"), strings.Split(b, "/")
	n := 0
	for n < len(as) && n < len(bs) && as[n] == bs[n] {
		n++
	}
	return len(as) - n + len(bs) - n
}
