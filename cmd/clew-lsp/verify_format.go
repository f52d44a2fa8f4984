package main

import (
	"encoding/json"
	"fmt"
	"io"
	"os"
	"path/filepath"
	"strings"

	"github.com/clew-lsp/clew-lsp/internal/workspace"
)

// verifyFormats are the values of `verify --format`.
var verifyFormats = []string{"text", "json", "github", "sarif", "gitlab"}

func knownFormat(f string) bool {
	for _, k := range verifyFormats {
		if k == f {
			return true
		}
	}
	return false
}

// verifyOutput is what the formats project: the report, the snapshot it
// was computed from (for line numbers), the self-heal edits and where the
// workspace root is relative to the current directory.
type verifyOutput struct {
	snap    *workspace.Snapshot
	rep     *workspace.Report
	heal    []workspace.DocEdit
	root    string
	rebound bool
}

func (o verifyOutput) write(format string, stdout io.Writer) error {
	switch format {
	case "json":
		enc := json.NewEncoder(stdout)
		enc.SetIndent("", "  ")
		return enc.Encode(o.rep)
	case "github":
		fs := o.findings()
		writeGitHub(stdout, fs)
		if p := os.Getenv("GITHUB_STEP_SUMMARY"); p != "" {
			return appendFile(p, githubSummary(fs, o.rep.Exit, o.headline()))
		}
		return nil
	case "sarif":
		return writeSARIF(stdout, o.findings(), versionString())
	case "gitlab":
		return writeGitLab(stdout, o.findings())
	}
	_, err := fmt.Fprint(stdout, o.rep.Text(workspace.TextOptions{Rebound: o.rebound}))
	return err
}

func (o verifyOutput) findings() []ciFinding {
	return ciFindings(o.snap, o.rep, o.heal, rootPrefix(o.root))
}

// headline is the text report's closing words ("exit 1 — …").
func (o verifyOutput) headline() string {
	text := strings.TrimRight(o.rep.Text(workspace.TextOptions{Rebound: o.rebound}), "\n")
	last := text[strings.LastIndex(text, "\n")+1:]
	if _, words, ok := strings.Cut(last, " — "); ok {
		return words
	}
	return last
}

// rootPrefix is the workspace root relative to the current directory, in
// forward slashes, so annotations name files as the repository does; ""
// when the root is not below the current directory.
func rootPrefix(root string) string {
	wd, err := os.Getwd()
	if err != nil {
		return ""
	}
	if r, err := filepath.EvalSymlinks(root); err == nil {
		root = r
	}
	if w, err := filepath.EvalSymlinks(wd); err == nil {
		wd = w
	}
	rel, err := filepath.Rel(wd, root)
	if err != nil || rel == ".." || strings.HasPrefix(rel, ".."+string(filepath.Separator)) {
		return ""
	}
	return filepath.ToSlash(rel)
}

func appendFile(p, s string) error {
	f, err := os.OpenFile(p, os.O_APPEND|os.O_CREATE|os.O_WRONLY, 0o644)
	if err != nil {
		return err
	}
	if _, err := f.WriteString(s); err != nil {
		f.Close()
		return err
	}
	return f.Close()
}
