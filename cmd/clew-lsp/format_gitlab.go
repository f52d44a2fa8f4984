package main

import (
	"crypto/sha256"
	"encoding/hex"
	"encoding/json"
	"fmt"
	"io"
)

// gitlabIssue is one entry of GitLab's code-quality report (a JSON array).
type gitlabIssue struct {
	Description string         `json:"description"`
	CheckName   string         `json:"check_name"`
	Fingerprint string         `json:"fingerprint"`
	Severity    string         `json:"severity"`
	Location    gitlabLocation `json:"location"`
}

type gitlabLocation struct {
	Path  string      `json:"path"`
	Lines gitlabLines `json:"lines"`
}

type gitlabLines struct {
	Begin int `json:"begin"`
}

// writeGitLab prints the code-quality report. What gates is "major",
// warnings "minor", information "info". The fingerprint is stable across
// runs for the same finding at the same place, so GitLab can tell new
// findings from old ones.
func writeGitLab(w io.Writer, fs []ciFinding) error {
	issues := make([]gitlabIssue, 0, len(fs))
	for _, f := range fs {
		sev := "info"
		switch {
		case f.gates():
			sev = "major"
		case f.Severity == "warning":
			sev = "minor"
		}
		sum := sha256.Sum256([]byte(fmt.Sprintf("%s\x00%d\x00%s\x00%s", f.Path, f.Region.StartLine, f.Code, f.Message)))
		issues = append(issues, gitlabIssue{Description: f.Message, CheckName: f.Code, Fingerprint: hex.EncodeToString(sum[:16]),
			Severity: sev, Location: gitlabLocation{Path: f.Path, Lines: gitlabLines{Begin: f.Region.StartLine}}})
	}
	enc := json.NewEncoder(w)
	enc.SetIndent("", "  ")
	return enc.Encode(issues)
}
