package claims

import (
	"fmt"
	"path"
	"regexp"
	"strings"
	"sync"

	"go.yaml.in/yaml/v3"
)

// ConfigFile is where multivac's configuration lives (docs/claims.md).
const ConfigFile = ".multivac/config.yml"

// DefaultChannel is read for a sibling repo when no channel is configured.
const DefaultChannel = "origin/main"

// DefaultBlocking is multivac's [absent, count, each] plus our symbol legs (docs/claims.md).
var DefaultBlocking = []Mode{ModeAbsent, ModeCount, ModeEach, ModeCode}

// Config is `.multivac/config.yml` with multivac's keys. Every key is
// parsed and type-checked; verify acts on blocking, channel and repos.
type Config struct {
	Doors         []string
	SDD           string
	SDDAuto       bool
	Grapher       string
	GrapherAuto   bool
	Graphers      map[string]Grapher
	Tracker       string
	Authorities   []string
	Blocking      []Mode
	Staleness     string // report | block
	StrictPrePush bool
	Channel       string // "" = unset (verify reads DefaultChannel)
	Mount         string
	Requires      string
	Repos         []RepoEntry // in file order
}

// Grapher is one entry under `graphers:`.
type Grapher struct{ Artifact, Refresh, Create, Binary, Install string }

// RepoEntry is one entry under `repos:`.
type RepoEntry struct {
	Key     string
	Path    string // relative to the brain directory, as written (defaulted to ../<key> from url)
	URL     string
	Role    string
	Grapher string
	SDD     string
	Channel string
	Line    int
}

// DefaultConfig is what applies with no config file, or for each invalid key.
func DefaultConfig() Config {
	return Config{SDDAuto: true, GrapherAuto: true, Blocking: append([]Mode(nil), DefaultBlocking...),
		Staleness: "report", Mount: ".brain"}
}

// Repo returns the declared entry for key.
func (c Config) Repo(key string) (RepoEntry, bool) {
	for _, r := range c.Repos {
		if r.Key == key {
			return r, true
		}
	}
	return RepoEntry{}, false
}

// ChannelFor is the ref a sibling is read at: repos.<k>.channel, else the
// top-level channel, else origin/main.
func (c Config) ChannelFor(key string) string {
	if r, ok := c.Repo(key); ok && r.Channel != "" {
		return r.Channel
	}
	if c.Channel != "" {
		return c.Channel
	}
	return DefaultChannel
}

// Blocks reports whether a mode is in blocking: (each covers each!).
func (c Config) Blocks(m Mode) bool {
	for _, b := range c.Blocking {
		if b == m {
			return true
		}
	}
	return false
}

var (
	topKeys = []string{"doors", "sdd", "sdd_auto", "grapher", "grapher_auto", "graphers", "tracker", "authorities",
		"blocking", "staleness", "strict_pre_push", "channel", "mount", "requires", "repos"}
	repoKeys    = []string{"path", "url", "role", "grapher", "sdd", "channel"}
	grapherKeys = []string{"artifact", "refresh", "create", "binary", "install"}
	knownDoors  = []string{"agents", "claude", "cursor", "opencode", "codex", "windsurf", "gemini", "copilot"}
	requiresRe  = sync.OnceValue(func() *regexp.Regexp { return regexp.MustCompile(`^>=[0-9]+\.[0-9]+\.[0-9]+$`) })
)

// ParseConfig reads the config. Messages name the fix; the diagnostic's Doc
// is the config file, so they carry no "<file>: " prefix of their own.
// Each invalid key yields one config/invalid
// diagnostic and keeps its default; the rest of the file still applies.
func ParseConfig(content []byte) (cfg Config, diags []Diagnostic) {
	cfg = DefaultConfig()
	defer func() { // a YAML decoder panic is a diagnostic, not a dead run
		if r := recover(); r != nil {
			cfg = DefaultConfig()
			diags = append(diags, configError(1, fmt.Sprintf("cannot be read: %v", r)))
		}
	}()
	p := &configParser{cfg: &cfg}
	var doc yaml.Node
	if err := yaml.Unmarshal(content, &doc); err != nil {
		return cfg, []Diagnostic{configError(yamlErrorLine(err), "not valid YAML: "+strings.TrimPrefix(err.Error(), "yaml: ")+" — fix the syntax")}
	}
	if len(doc.Content) == 0 { // empty file = {}
		return cfg, nil
	}
	root := doc.Content[0]
	if root.Kind != yaml.MappingNode {
		return cfg, []Diagnostic{configError(root.Line, "the top level must be a mapping of keys — write key: value lines")}
	}
	for i := 0; i+1 < len(root.Content); i += 2 {
		p.top(root.Content[i], root.Content[i+1])
	}
	if p.grapherNode != nil {
		p.checkGrapher(p.grapherNode)
	}
	return cfg, p.diags
}

var yamlLineRe = sync.OnceValue(func() *regexp.Regexp { return regexp.MustCompile(`line ([0-9]+)`) })

func yamlErrorLine(err error) int {
	if m := yamlLineRe().FindStringSubmatch(err.Error()); m != nil {
		n := 0
		fmt.Sscan(m[1], &n)
		return n
	}
	return 1
}

func configError(line int, msg string) Diagnostic {
	return Diagnostic{Doc: ConfigFile, Line: line, Severity: SeverityError, Code: CodeConfig, Message: msg}
}

type configParser struct {
	cfg         *Config
	diags       []Diagnostic
	grapherNode *yaml.Node
}

func (p *configParser) fail(n *yaml.Node, format string, args ...any) {
	p.diags = append(p.diags, configError(n.Line, fmt.Sprintf(format, args...)))
}

// unknownKey refuses a key, suggesting the known one it nearly spells.
func (p *configParser) unknownKey(n *yaml.Node, where string, known []string) {
	norm := func(s string) string { return strings.NewReplacer("-", "", "_", "").Replace(strings.ToLower(s)) }
	for _, k := range known {
		if norm(k) == norm(n.Value) {
			p.fail(n, "unknown key %q%s — did you mean %s?", n.Value, where, k)
			return
		}
	}
	p.fail(n, "unknown key %q%s — known keys: %s", n.Value, where, strings.Join(known, ", "))
}

func (p *configParser) str(k, v *yaml.Node) (string, bool) {
	if v.Kind != yaml.ScalarNode || v.Tag == "!!null" || v.Tag == "!!map" || v.Tag == "!!seq" {
		p.fail(v, "%q must be a string", k.Value)
		return "", false
	}
	return v.Value, true
}

func (p *configParser) boolean(k, v *yaml.Node) (bool, bool) {
	var b bool
	if v.Kind != yaml.ScalarNode || v.Tag != "!!bool" || v.Decode(&b) != nil {
		p.fail(v, "%q must be true or false", k.Value)
		return false, false
	}
	return b, true
}

func (p *configParser) list(k, v *yaml.Node) ([]string, bool) {
	if v.Kind != yaml.SequenceNode {
		p.fail(v, "%q must be a list of strings, e.g. %s: [a, b]", k.Value, k.Value)
		return nil, false
	}
	out := []string{}
	for _, item := range v.Content {
		if item.Kind != yaml.ScalarNode || item.Tag == "!!null" {
			p.fail(item, "%q must be a list of strings", k.Value)
			return nil, false
		}
		out = append(out, item.Value)
	}
	return out, true
}

func oneOf(s string, allowed ...string) bool {
	for _, a := range allowed {
		if s == a {
			return true
		}
	}
	return false
}

func (p *configParser) top(k, v *yaml.Node) {
	c := p.cfg
	switch k.Value {
	case "doors":
		if l, ok := p.list(k, v); ok {
			for _, d := range l {
				if !oneOf(d, knownDoors...) {
					p.fail(v, "unknown door %q — use one of %s", d, strings.Join(knownDoors, ", "))
					return
				}
			}
			c.Doors = l
		}
	case "sdd":
		if s, ok := p.str(k, v); ok {
			if !oneOf(s, "opsx", "speckit", "none") {
				p.fail(v, "sdd must be opsx or speckit (or none to opt out), not %q", s)
				return
			}
			c.SDD = s
		}
	case "sdd_auto":
		if b, ok := p.boolean(k, v); ok {
			c.SDDAuto = b
		}
	case "grapher":
		if s, ok := p.str(k, v); ok {
			c.Grapher = s // checked against graphers: once the whole file is read
			p.grapherNode = v
		}
	case "grapher_auto":
		if b, ok := p.boolean(k, v); ok {
			c.GrapherAuto = b
		}
	case "graphers":
		p.graphers(k, v)
	case "tracker":
		if s, ok := p.str(k, v); ok {
			if !oneOf(s, "gitlab", "github") {
				p.fail(v, "tracker must be gitlab or github, not %q", s)
				return
			}
			c.Tracker = s
		}
	case "authorities":
		if l, ok := p.list(k, v); ok {
			c.Authorities = l
		}
	case "blocking":
		p.blocking(k, v)
	case "staleness":
		if s, ok := p.str(k, v); ok {
			if !oneOf(s, "report", "block") {
				p.fail(v, "staleness must be report or block, not %q", s)
				return
			}
			c.Staleness = s
		}
	case "strict_pre_push":
		if b, ok := p.boolean(k, v); ok {
			c.StrictPrePush = b
		}
	case "channel":
		if s, ok := p.str(k, v); ok {
			c.Channel = s
		}
	case "mount":
		if s, ok := p.str(k, v); ok {
			c.Mount = s
		}
	case "requires":
		if s, ok := p.str(k, v); ok {
			if !requiresRe().MatchString(s) {
				p.fail(v, "requires must look like >=X.Y.Z, not %q", s)
				return
			}
			c.Requires = s
		}
	case "repos":
		p.repos(k, v)
	default:
		p.unknownKey(k, "", topKeys)
	}
}

func (p *configParser) checkGrapher(v *yaml.Node) {
	g := p.cfg.Grapher
	if g == "graphify" || g == "codegraph" {
		return
	}
	if _, ok := p.cfg.Graphers[g]; !ok {
		p.fail(v, "grapher %q is neither graphify, codegraph nor declared under graphers:", g)
		p.cfg.Grapher = ""
	}
}

func (p *configParser) blocking(k, v *yaml.Node) {
	l, ok := p.list(k, v)
	if !ok {
		return
	}
	var modes []Mode
	for _, m := range l {
		if !oneOf(m, "present", "absent", "unique", "count", "each", "code") {
			p.fail(v, "unknown mode %q in blocking — use present, absent, unique, count, each or code", m)
			return
		}
		modes = append(modes, Mode(m))
	}
	if !oneOf("absent", l...) {
		p.fail(v, `"blocking" must include "absent" — the tombstone always blocks; add it back`)
		return
	}
	p.cfg.Blocking = modes
}

func (p *configParser) graphers(k, v *yaml.Node) {
	if v.Kind != yaml.MappingNode {
		p.fail(v, "graphers must map a name to {artifact, refresh}")
		return
	}
	out := map[string]Grapher{}
	for i := 0; i+1 < len(v.Content); i += 2 {
		name, body := v.Content[i], v.Content[i+1]
		if body.Kind != yaml.MappingNode {
			p.fail(body, "graphers.%s must be a mapping with artifact and refresh", name.Value)
			continue
		}
		var g Grapher
		for j := 0; j+1 < len(body.Content); j += 2 {
			sk, sv := body.Content[j], body.Content[j+1]
			s := ""
			if oneOf(sk.Value, grapherKeys...) {
				s, _ = p.str(sk, sv)
			}
			switch sk.Value {
			case "artifact":
				g.Artifact = s
			case "refresh":
				g.Refresh = s
			case "create":
				g.Create = s
			case "binary":
				g.Binary = s
			case "install":
				g.Install = s
			default:
				p.unknownKey(sk, " in graphers."+name.Value, grapherKeys)
			}
		}
		if g.Artifact == "" || g.Refresh == "" {
			p.fail(body, "graphers.%s needs both artifact and refresh", name.Value)
			continue
		}
		out[name.Value] = g
	}
	p.cfg.Graphers = out
}

func (p *configParser) repos(k, v *yaml.Node) {
	if v.Kind != yaml.MappingNode {
		p.fail(v, "repos must map a key to a path, e.g. repos: {api: ../api}")
		return
	}
	for i := 0; i+1 < len(v.Content); i += 2 {
		kn, body := v.Content[i], v.Content[i+1]
		e := RepoEntry{Key: kn.Value, Line: kn.Line}
		if e.Key == "*" {
			p.fail(kn, `"*" is a reserved repo key (it means every repo) — pick another name`)
			continue
		}
		switch body.Kind {
		case yaml.ScalarNode:
			if body.Tag == "!!null" || body.Value == "" {
				p.fail(body, "repos.%s needs a path or a url", e.Key)
				continue
			}
			e.Path = body.Value
		case yaml.MappingNode:
			bad := false
			for j := 0; j+1 < len(body.Content); j += 2 {
				sk, sv := body.Content[j], body.Content[j+1]
				if !oneOf(sk.Value, repoKeys...) {
					p.unknownKey(sk, " in repos."+e.Key, repoKeys)
					bad = true
					continue
				}
				s, ok := p.str(sk, sv)
				if !ok {
					bad = true
					continue
				}
				switch sk.Value {
				case "path":
					e.Path = s
				case "url":
					e.URL = s
				case "role":
					e.Role = strings.Join(strings.Fields(s), " ") // one line of prose
				case "grapher":
					e.Grapher = s
				case "sdd":
					e.SDD = s
				case "channel":
					e.Channel = s
				}
			}
			if bad {
				continue
			}
			if e.Path == "" && e.URL == "" {
				p.fail(body, "repos.%s needs a path or a url", e.Key)
				continue
			}
			if e.Path == "" {
				e.Path = "../" + e.Key // declared before cloned: unevaluated until synced
			}
		default:
			p.fail(body, "repos.%s must be a path or {path, url, role, grapher, sdd, channel}", e.Key)
			continue
		}
		if e.Key == "brain" && path.Clean(e.Path) != "." {
			p.fail(body, "repos.brain must be the brain itself (brain: .) — declare %s under another key", e.Path)
			continue
		}
		p.cfg.Repos = append(p.cfg.Repos, e)
	}
}
