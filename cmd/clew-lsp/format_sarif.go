package main

import (
	"encoding/json"
	"io"

	"github.com/clew-lsp/clew-lsp/internal/workspace"
)

// SARIF 2.1.0, the subset code scanning reads: one rule per diagnostic code
// (the table of docs/diagnostics.md, see sarif_rules.go), one result per
// finding on its doc line, and a fix where the quick fix is a text edit.

type sarifLog struct {
	Schema  string     `json:"$schema"`
	Version string     `json:"version"`
	Runs    []sarifRun `json:"runs"`
}

type sarifRun struct {
	Tool       sarifTool     `json:"tool"`
	Results    []sarifResult `json:"results"`
	ColumnKind string        `json:"columnKind"`
}

type sarifTool struct {
	Driver sarifDriver `json:"driver"`
}

type sarifDriver struct {
	Name           string      `json:"name"`
	Version        string      `json:"version,omitempty"`
	InformationURI string      `json:"informationUri"`
	Rules          []sarifRule `json:"rules"`
}

type sarifRule struct {
	ID               string       `json:"id"`
	Name             string       `json:"name"`
	ShortDescription sarifMessage `json:"shortDescription"`
	FullDescription  sarifMessage `json:"fullDescription"`
	HelpURI          string       `json:"helpUri"`
	Help             sarifMessage `json:"help"`
	DefaultConfig    sarifConfig  `json:"defaultConfiguration"`
}

type sarifConfig struct {
	Level string `json:"level"`
}

type sarifMessage struct {
	Text     string `json:"text"`
	Markdown string `json:"markdown,omitempty"`
}

type sarifResult struct {
	RuleID    string          `json:"ruleId"`
	RuleIndex int             `json:"ruleIndex"`
	Level     string          `json:"level"`
	Message   sarifMessage    `json:"message"`
	Locations []sarifLocation `json:"locations"`
	Fixes     []sarifFix      `json:"fixes,omitempty"`
}

type sarifLocation struct {
	PhysicalLocation sarifPhysical `json:"physicalLocation"`
}

type sarifPhysical struct {
	ArtifactLocation sarifArtifact `json:"artifactLocation"`
	Region           sarifRegion   `json:"region"`
}

type sarifArtifact struct {
	URI string `json:"uri"`
}

type sarifRegion struct {
	StartLine   int `json:"startLine"`
	StartColumn int `json:"startColumn"`
	EndLine     int `json:"endLine"`
	EndColumn   int `json:"endColumn"`
}

type sarifFix struct {
	Description     sarifMessage          `json:"description"`
	ArtifactChanges []sarifArtifactChange `json:"artifactChanges"`
}

type sarifArtifactChange struct {
	ArtifactLocation sarifArtifact      `json:"artifactLocation"`
	Replacements     []sarifReplacement `json:"replacements"`
}

type sarifReplacement struct {
	DeletedRegion   sarifRegion   `json:"deletedRegion"`
	InsertedContent *sarifMessage `json:"insertedContent,omitempty"`
}

// sarifLevel maps verify's severities: what gates is an error.
func sarifLevel(s workspace.Severity) string {
	switch s {
	case workspace.SeverityError:
		return "error"
	case workspace.SeverityWarning:
		return "warning"
	}
	return "note"
}

// buildSARIF is the log for one verify. A finding whose code the docs do
// not list still gets a rule, so every result points at one.
func buildSARIF(fs []ciFinding, toolVersion string) sarifLog {
	rules := make([]sarifRule, 0, len(diagnosticRules))
	index := map[string]int{}
	for _, r := range diagnosticRules {
		index[r.Code] = len(rules)
		rules = append(rules, r.sarif())
	}
	results := make([]sarifResult, 0, len(fs))
	for _, f := range fs {
		i, ok := index[f.Code]
		if !ok {
			i = len(rules)
			index[f.Code] = i
			rules = append(rules, diagnosticRule{Code: f.Code, Meaning: f.Code, Severity: string(f.Severity)}.sarif())
		}
		loc := sarifArtifact{URI: f.Path}
		res := sarifResult{
			RuleID: f.Code, RuleIndex: i, Level: sarifLevel(f.Severity),
			Message:   sarifMessage{Text: f.Message},
			Locations: []sarifLocation{{PhysicalLocation: sarifPhysical{ArtifactLocation: loc, Region: sarifRegionOf(f.Region)}}},
		}
		if len(f.Fixes) > 0 {
			var reps []sarifReplacement
			for _, e := range f.Fixes {
				reps = append(reps, sarifReplacement{DeletedRegion: sarifRegionOf(e.Region), InsertedContent: &sarifMessage{Text: e.New}})
			}
			desc := "Rebind the anchor to where the code is now"
			if f.Code == "claim/moved" {
				desc = "Rewrite the leg's glob to where the files moved"
			}
			res.Fixes = []sarifFix{{Description: sarifMessage{Text: desc},
				ArtifactChanges: []sarifArtifactChange{{ArtifactLocation: loc, Replacements: reps}}}}
		}
		results = append(results, res)
	}
	return sarifLog{
		Schema:  "https://json.schemastore.org/sarif-2.1.0.json",
		Version: "2.1.0",
		Runs: []sarifRun{{
			Tool: sarifTool{Driver: sarifDriver{Name: "clew-lsp", Version: toolVersion,
				InformationURI: "https://github.com/clew-lsp/clew-lsp", Rules: rules}},
			Results:    results,
			ColumnKind: "utf16CodeUnits",
		}},
	}
}

func sarifRegionOf(r ciRegion) sarifRegion {
	return sarifRegion{StartLine: r.StartLine, StartColumn: r.StartCol, EndLine: r.EndLine, EndColumn: r.EndCol}
}

func writeSARIF(w io.Writer, fs []ciFinding, toolVersion string) error {
	enc := json.NewEncoder(w)
	enc.SetIndent("", "  ")
	return enc.Encode(buildSARIF(fs, toolVersion))
}
