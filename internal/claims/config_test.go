package claims

import (
	"strings"
	"testing"
)

// V53 and the configuration reference: each bad config is refused with a
// message that names the fix, and the rest of the file still applies.
func TestConfigErrors(t *testing.T) {
	cases := []struct{ yaml, gist string }{
		{"blocking: [count]", `"blocking" must include "absent"`},
		{"blocking: [absent, sometimes]", `unknown mode "sometimes"`},
		{"repos: {\"*\": ../x}", `"*" is a reserved repo key`},
		{"repos: {brain: ../acme-api}", "repos.brain must be the brain itself"},
		{"staleness: sometimes", "staleness must be report or block"},
		{"strict_prepush: true", "did you mean strict_pre_push"},
		{"Blocking: [absent]", "did you mean blocking"},
		{"colour: red", `unknown key "colour" — known keys:`},
		{"repos: {api: {path: ../api, brach: main}}", `unknown key "brach" in repos.api`},
		{"repos: {api: {role: x}}", "repos.api needs a path or a url"},
		{"sdd_auto: maybe", `"sdd_auto" must be true or false`},
		{"doors: claude", `"doors" must be a list`},
		{"doors: [telegram]", `unknown door "telegram"`},
		{"requires: 1.0", "requires must look like >=X.Y.Z"},
		{"grapher: mine", `grapher "mine" is neither`},
		{"graphers: {mine: {artifact: a}}", "needs both artifact and refresh"},
		{"- a\n- b", "the top level must be a mapping"},
		{"repos: [", "not valid YAML"},
	}
	for _, c := range cases {
		_, diags := ParseConfig([]byte(c.yaml))
		if len(diags) == 0 || !strings.Contains(diags[0].Message, c.gist) {
			t.Errorf("%q: %v, want %q", c.yaml, diags, c.gist)
			continue
		}
		if diags[0].Code != CodeConfig || diags[0].Severity != SeverityError || diags[0].Doc != ConfigFile {
			t.Errorf("%q: %+v", c.yaml, diags[0])
		}
	}
}

func TestConfigValid(t *testing.T) {
	// multivac's own config, and the eco one.
	cfg, diags := ParseConfig([]byte("doors: [agents, claude]\nsdd: speckit\ngrapher: graphify\nauthorities: [published, specified, open]\nrepos: {brain: .}\n"))
	if len(diags) != 0 || len(cfg.Repos) != 1 || cfg.Repos[0].Key != "brain" || !cfg.Blocks(ModeCode) || !cfg.Blocks(ModeAbsent) || cfg.Blocks(ModePresent) {
		t.Fatalf("%+v %v", cfg, diags)
	}
	cfg, diags = ParseConfig([]byte("channel: origin/release\nrepos:\n  api: ../acme-api\n  web: {path: ../acme-web, channel: upstream/main, role: \"the\n    web front\"}\n  ops: {url: https://example.invalid/ops.git}\nblocking: [absent, present]\ngraphers: {mine: {artifact: g.json, refresh: make g}}\ngrapher: mine\n"))
	if len(diags) != 0 {
		t.Fatal(diags)
	}
	if cfg.ChannelFor("api") != "origin/release" || cfg.ChannelFor("web") != "upstream/main" || cfg.Repos[2].Path != "../ops" ||
		cfg.Repos[1].Role != "the web front" || cfg.Blocks(ModeCode) || !cfg.Blocks(ModePresent) || cfg.Grapher != "mine" {
		t.Fatalf("%+v", cfg)
	}
	if cfg, diags := ParseConfig(nil); len(diags) != 0 || cfg.ChannelFor("x") != DefaultChannel || cfg.Mount != ".brain" {
		t.Fatalf("empty config: %+v %v", cfg, diags)
	}
	// One bad key keeps the others.
	cfg, diags = ParseConfig([]byte("staleness: sometimes\nrepos: {api: ../api}\n"))
	if len(diags) != 1 || len(cfg.Repos) != 1 || cfg.Staleness != "report" {
		t.Fatalf("%+v %v", cfg, diags)
	}
}
