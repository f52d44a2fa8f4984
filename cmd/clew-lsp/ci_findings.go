package main

import (
	"path"
	"sort"

	"github.com/clew-lsp/clew-lsp/internal/workspace"
	"github.com/clew-lsp/clew-lsp/internal/workspace/span"
)

// ciFinding is one diagnostic of a verify, located by line and column the
// way CI systems want it: 1-based lines, 1-based columns in UTF-16 code
// units (SARIF's default column kind), the path relative to the directory
// verify was run from. The CI formats are pure projections of these.
type ciFinding struct {
	Path     string
	Region   ciRegion
	Severity workspace.Severity
	Code     string
	Message  string
	// Fixes are the text edits of the finding's quick fix, when it is one
	// (a rebind, a moved glob); empty otherwise.
	Fixes []ciEdit
}

// ciRegion is a 1-based range; End is exclusive (SARIF's convention).
type ciRegion struct {
	StartLine, StartCol, EndLine, EndCol int
}

// ciEdit replaces Region of the finding's file with New.
type ciEdit struct {
	Region ciRegion
	New    string
}

// gates reports whether the finding makes verify exit 1: exactly the
// findings the report marks as errors.
func (f ciFinding) gates() bool { return f.Severity == workspace.SeverityError }

// ciFindings collects every finding of the report, sorted by path and
// position. prefix is the workspace root relative to the current directory
// ("" or "." when verify ran in the root), so CI annotations point at the
// repository's files. heal holds the self-heal edits of the report.
func ciFindings(snap *workspace.Snapshot, rep *workspace.Report, heal []workspace.DocEdit, prefix string) []ciFinding {
	edits := map[string][]workspace.DocEdit{}
	for _, de := range heal {
		edits[de.Doc] = append(edits[de.Doc], de)
	}
	var out []ciFinding
	for doc, fs := range rep.CommandFindings() {
		text, _ := snap.ReadFile(doc)
		x := span.NewIndex(text)
		for _, f := range fs {
			cf := ciFinding{
				Path:     joinPrefix(prefix, doc),
				Region:   region(x, f.StartByte, f.EndByte),
				Severity: f.Severity,
				Code:     f.Code,
				Message:  f.Message,
			}
			if fixable(f.Code) {
				for _, de := range edits[doc] {
					for _, e := range de.Edits {
						if e.Start >= f.StartByte && e.End <= f.EndByte {
							cf.Fixes = append(cf.Fixes, ciEdit{Region: region(x, e.Start, e.End), New: e.New})
						}
					}
				}
			}
			out = append(out, cf)
		}
	}
	sort.SliceStable(out, func(i, j int) bool {
		a, b := out[i], out[j]
		if a.Path != b.Path {
			return a.Path < b.Path
		}
		if a.Region.StartLine != b.Region.StartLine {
			return a.Region.StartLine < b.Region.StartLine
		}
		return a.Region.StartCol < b.Region.StartCol
	})
	return out
}

// fixable names the codes whose quick fix is a plain text edit.
func fixable(code string) bool { return code == "anchor/moved" || code == "claim/moved" }

// region converts a byte range to a 1-based region; offsets past the text
// (a file that vanished) collapse onto its first line rather than failing.
func region(x *span.Index, start, end int) ciRegion {
	r, err := x.Range(start, end, span.UTF16)
	if err != nil {
		return ciRegion{StartLine: 1, StartCol: 1, EndLine: 1, EndCol: 1}
	}
	return ciRegion{StartLine: r.Start.Line + 1, StartCol: r.Start.Col + 1, EndLine: r.End.Line + 1, EndCol: r.End.Col + 1}
}

func joinPrefix(prefix, doc string) string {
	if prefix == "" || prefix == "." {
		return doc
	}
	return path.Join(prefix, doc)
}
