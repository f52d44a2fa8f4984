package main

import (
	"context"
	"encoding/json"
	"fmt"
	"io"
	"strings"

	"github.com/clew-lsp/clew-lsp/internal/workspace"
	"github.com/clew-lsp/clew-lsp/internal/workspace/disk"
)

// suggestOutput is `suggest --json` (docs/anchors.md#clew-lsp-suggest).
type suggestOutput struct {
	workspace.Suggestions
	Written []suggestWritten `json:"written,omitempty"`
}

type suggestWritten struct {
	Doc     string `json:"doc"`
	Anchors int    `json:"anchors"`
}

// runSuggest lists the docs' unanchored backticked mentions that name code
// and, with --write, inserts the pinned anchors for the unique ones.
func runSuggest(ctx context.Context, args []string, stdout, stderr io.Writer) int {
	fs := newFlags("suggest", "[DOC…] [--json] [--write] [--dir DIR]",
		"Lists the backticked mentions of code (`Cache.Lookup`, `Lookup()`, `pkg.Func`) in the docs (default:\n"+
			"every doc) whose passage has no anchor to what they name: DOC:LINE, the mention, and the\n"+
			"declaration it names (or its candidates when it names several). With --write, inserts the\n"+
			"pinned anchor line for each unique one, after its paragraph or list item (one per passage\n"+
			"and declaration), through a temporary file and a rename; line endings and BOM are kept.\n"+
			"Ambiguous mentions are never written: pick a candidate in the editor. Exit 0; 1 when a DOC is\n"+
			"not a doc of the workspace or a doc could not be written; 2 usage error.", stderr)
	asJSON := fs.Bool("json", false, "print one JSON object: mentions, stats (and written with --write); see docs/anchors.md")
	write := fs.Bool("write", false, "insert the pinned anchors of the unique mentions into the docs")
	dir := fs.String("dir", ".", "the workspace directory")
	pos, code, done := parse(fs, args)
	if done {
		return code
	}
	files, snap, err := disk.LoadFiles(*dir)
	if err != nil {
		fmt.Fprintf(stderr, "clew-lsp suggest: %v\n", err)
		return 2
	}
	snap.UseTableStore(tableStore())
	var docs []string
	exit := 0
	for _, p := range pos {
		t, err := parseTarget(files.Root(), p)
		if err != nil || t.Line != 0 {
			fmt.Fprintf(stderr, "clew-lsp suggest: %s: name a doc, without a line\n", p)
			return 2
		}
		if _, ok := snap.Text(t.Doc); !ok || !snap.IsDoc(t.Doc) {
			fmt.Fprintf(stderr, "clew-lsp suggest: %s is not a doc of the workspace (see docs.include in %s)\n", t.Doc, workspace.ConfigFile)
			exit = 1
			continue
		}
		docs = append(docs, t.Doc)
	}
	if len(pos) > 0 && len(docs) == 0 {
		return exit
	}
	rep, err := snap.Check(ctx, workspace.CheckOptions{})
	if err != nil {
		fmt.Fprintf(stderr, "clew-lsp suggest: %v\n", err)
		return 2
	}
	scan := snap.ScanMentions(docs, rep)
	out := suggestOutput{Suggestions: scan.Suggestions()}
	if *write {
		edits := snap.SuggestEdits(scan)
		if err := writeEdits(snap, files, edits); err != nil {
			fmt.Fprintf(stderr, "clew-lsp suggest: %v\n", err)
			exit = 1
		} else {
			out.Written = []suggestWritten{}
			for _, de := range edits {
				out.Written = append(out.Written, suggestWritten{Doc: de.Doc, Anchors: len(de.Edits)})
			}
		}
	}
	if *asJSON {
		enc := json.NewEncoder(stdout)
		enc.SetEscapeHTML(false) // anchors are HTML comments: keep them readable
		enc.SetIndent("", "  ")
		enc.Encode(out)
		return exit
	}
	printSuggestions(stdout, out, *write)
	return exit
}

func printSuggestions(w io.Writer, out suggestOutput, wrote bool) {
	unique := 0
	for _, dm := range out.Mentions {
		if dm.Resolution == workspace.MentionUnique {
			unique++
			t := dm.Targets[0]
			fmt.Fprintf(w, "%s:%d: `%s` → %s (%s:%d)\n", dm.Doc, dm.Line, dm.Mention, t.Title(), t.Path, t.LineStart)
			continue
		}
		var cands []string
		for _, t := range dm.Targets {
			cands = append(cands, fmt.Sprintf("%s (%s:%d)", t.Title(), t.Path, t.LineStart))
		}
		more := ""
		if dm.Candidates > len(dm.Targets) {
			more = fmt.Sprintf(" and %d more", dm.Candidates-len(dm.Targets))
		}
		fmt.Fprintf(w, "%s:%d: `%s` is ambiguous: %s%s\n", dm.Doc, dm.Line, dm.Mention, strings.Join(cands, ", "), more)
	}
	st := out.Stats
	fmt.Fprintf(w, "mentions: %d found · %d unique · %d ambiguous · %d unresolved · %d already anchored\n",
		st.Found, st.Unique, st.Ambiguous, st.Unresolved, st.Anchored)
	switch {
	case wrote && out.Written != nil:
		n := 0
		for _, wr := range out.Written {
			fmt.Fprintf(w, "wrote %d anchor%s in %s\n", wr.Anchors, plural(wr.Anchors), wr.Doc)
			n += wr.Anchors
		}
		if n == 0 {
			fmt.Fprintln(w, "nothing to write: no unique mention lacks its anchor")
		}
	case unique > 0:
		fmt.Fprintln(w, "run with --write to insert the anchors of the unique mentions (one per passage and declaration)")
	}
}

func plural(n int) string {
	if n == 1 {
		return ""
	}
	return "s"
}
