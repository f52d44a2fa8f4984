package workspace

import (
	"bytes"
	"errors"
	"fmt"
	"io"
	"strings"

	"github.com/bmatcuk/doublestar/v4"
	"go.yaml.in/yaml/v3"
)

// ConfigFile is the optional workspace configuration (docs/config.md).
const ConfigFile = ".clew.yml"

// Config holds the `.clew.yml` settings. Editors send the same keys through
// initializationOptions / workspace/configuration.
type Config struct {
	Docs        DocsConfig    `yaml:"docs" json:"docs"`
	Budget      Budget        `yaml:"budget" json:"budget"`
	Languages   LanguagesConf `yaml:"languages" json:"languages"`
	Anchors     AnchorsConfig `yaml:"anchors" json:"anchors"`
	HintsInCode bool          `yaml:"hints_in_code" json:"hints_in_code"`
}

type DocsConfig struct {
	Include []string `yaml:"include" json:"include"`
	Exclude []string `yaml:"exclude" json:"exclude"`
}

// Budget bounds one check (docs/anchors.md).
type Budget struct {
	MaxFiles     int   `yaml:"max_files" json:"max_files"`
	MaxBytes     int64 `yaml:"max_bytes" json:"max_bytes"`
	MaxMS        int64 `yaml:"max_ms" json:"max_ms"`
	MaxFileBytes int64 `yaml:"max_file_bytes" json:"max_file_bytes"`
}

type LanguagesConf struct {
	Disable []string `yaml:"disable" json:"disable"`
}

type AnchorsConfig struct {
	// Blocking lists the anchor states that make verify exit 1.
	Blocking []string `yaml:"blocking" json:"blocking"`
}

// DefaultConfig is what applies without a file, and whenever the file is
// invalid.
func DefaultConfig() Config {
	return Config{
		Docs: DocsConfig{
			Include: []string{"**/*.md", "**/*.mdx", "**/*.markdown"},
			Exclude: []string{"node_modules/**", "vendor/**", "third_party/**"},
		},
		Budget:      DefaultBudget(),
		Anchors:     AnchorsConfig{Blocking: []string{"stale", "lost"}},
		HintsInCode: true,
	}
}

// DefaultBudget guards against hostile trees, not against large ones: 20,000
// files and 256 MiB parsed, 120 s, 1 MB per file. Files the repository-wide
// prefilter only scans count towards the time alone (docs/performance.md).
func DefaultBudget() Budget {
	return Budget{MaxFiles: 20000, MaxBytes: 256 << 20, MaxMS: 120000, MaxFileBytes: 1000000}
}

var blockingStates = map[string]bool{
	"stale": true, "lost": true, "moved-renamed": true, "unpinned": true, "unchecked": true, "ambiguous": true,
}

// ParseConfig reads `.clew.yml`. It never fails: an invalid file yields
// config/invalid diagnostics and the defaults, so a typo cannot switch the
// checker off or crash the server.
func ParseConfig(data []byte) (Config, []Diagnostic) {
	cfg := DefaultConfig()
	if len(bytes.TrimSpace(data)) == 0 {
		return cfg, nil
	}
	parsed := DefaultConfig()
	dec := yaml.NewDecoder(bytes.NewReader(data))
	dec.KnownFields(true)
	if err := dec.Decode(&parsed); err != nil && !errors.Is(err, io.EOF) {
		return cfg, []Diagnostic{configDiag(lineOf(err), "invalid "+ConfigFile+": "+cleanYAMLError(err)+" — the defaults apply until it is fixed")}
	}
	var diags []Diagnostic
	for _, g := range append(append([]string{}, parsed.Docs.Include...), parsed.Docs.Exclude...) {
		if !doublestar.ValidatePattern(g) {
			diags = append(diags, configDiag(0, fmt.Sprintf("docs glob %q does not compile — the defaults apply until it is fixed", g)))
		}
	}
	for _, s := range parsed.Anchors.Blocking {
		if !blockingStates[s] {
			diags = append(diags, configDiag(0, fmt.Sprintf("anchors.blocking: %q is not an anchor state — use stale, lost, moved-renamed, unpinned, unchecked or ambiguous", s)))
		}
	}
	b := parsed.Budget
	if b.MaxFiles < 0 || b.MaxBytes < 0 || b.MaxMS < 0 || b.MaxFileBytes < 0 {
		diags = append(diags, configDiag(0, "budget limits must be zero or positive (0 means the default)"))
	}
	if len(diags) > 0 {
		return cfg, diags
	}
	parsed.Budget = parsed.Budget.withDefaults()
	return parsed, nil
}

func (b Budget) withDefaults() Budget {
	d := DefaultBudget()
	if b.MaxFiles == 0 {
		b.MaxFiles = d.MaxFiles
	}
	if b.MaxBytes == 0 {
		b.MaxBytes = d.MaxBytes
	}
	if b.MaxMS == 0 {
		b.MaxMS = d.MaxMS
	}
	if b.MaxFileBytes == 0 {
		b.MaxFileBytes = d.MaxFileBytes
	}
	return b
}

func configDiag(line int, msg string) Diagnostic {
	if line < 1 {
		line = 1
	}
	return Diagnostic{Doc: ConfigFile, Line: line, Severity: SeverityError, Code: CodeConfigInvalid, Message: msg}
}

func cleanYAMLError(err error) string {
	return strings.TrimPrefix(strings.ReplaceAll(err.Error(), "\n", "; "), "yaml: ")
}

// lineOf digs the line number out of a yaml error ("line 3: …").
func lineOf(err error) int {
	var n int
	s := err.Error()
	if i := strings.Index(s, "line "); i >= 0 {
		fmt.Sscanf(s[i+5:], "%d", &n)
	}
	return n
}

// IsDoc reports whether path is a doc under this config.
func (c Config) IsDoc(path string) bool {
	inc := false
	for _, g := range c.Docs.Include {
		if docGlob(g, path) {
			inc = true
			break
		}
	}
	if !inc {
		return false
	}
	for _, g := range c.Docs.Exclude {
		if docGlob(g, path) {
			return false
		}
	}
	return true
}

// docGlob is doublestar.Match(g, path) (false on a bad pattern) for the
// doc includes and excludes, with the
// shape of the default includes, `**/*<suffix>` with a plain suffix, read
// as "path ends with suffix": `**/` takes any directories and `*` the rest
// of the last segment, which the suffix, holding no "/", ends; an ASCII
// byte of a path is always that character, whatever precedes it. A listing
// of thousands of files asked doublestar for each (FuzzDocGlob compares
// the two).
func docGlob(g, path string) bool {
	if suf, ok := strings.CutPrefix(g, "**/*"); ok && plainASCII(suf) {
		return strings.HasSuffix(path, suf)
	}
	ok, _ := doublestar.Match(g, path)
	return ok
}

// plainASCII: a non-empty glob suffix of printable ASCII and no glob
// syntax or "/". (doublestar compares characters, and an invalid byte of a
// path reads as U+FFFD: a suffix beyond ASCII is left to it.)
func plainASCII(s string) bool {
	for i := 0; i < len(s); i++ {
		if c := s[i]; c < 0x20 || c >= 0x7f || strings.IndexByte("*?[]{}\\/", c) >= 0 {
			return false
		}
	}
	return s != ""
}

// IsBlocking reports whether an anchor state gates verify.
func (c Config) IsBlocking(state string, strict bool) bool {
	if strict && state == "unpinned" {
		return true
	}
	for _, s := range c.Anchors.Blocking {
		if s == state {
			return true
		}
	}
	return false
}
