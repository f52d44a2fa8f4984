package workspace_test

import (
	"strings"
	"testing"

	"github.com/clew-lsp/clew-lsp/internal/claims"
	"github.com/clew-lsp/clew-lsp/internal/workspace"
)

func TestNormalizeGitURL(t *testing.T) {
	want := "example.com/acme/api"
	for _, u := range []string{
		"https://example.com/acme/api.git", "https://EXAMPLE.com/acme/api", "git@example.com:acme/api.git",
		"ssh://git@example.com:22/acme/api.git", "https://user:tok@example.com/acme/api/", "example.com:acme/api",
	} {
		if got := workspace.NormalizeGitURL(u); got != want {
			t.Errorf("NormalizeGitURL(%q) = %q, want %q", u, got, want)
		}
	}
	if workspace.NormalizeGitURL("https://example.com/acme/API") == want {
		t.Error("the path stays case-sensitive")
	}
	if workspace.NormalizeGitURL("") != "" {
		t.Error("no URL, no match")
	}
}

func TestResolveConsumerKey(t *testing.T) {
	cfg, diags := claims.ParseConfig([]byte(`repos:
  brain: .
  api: {path: ../acme-api, url: git@example.com:acme/api.git}
  web: ../acme-web
  web2: {path: ../elsewhere/acme-web}
`))
	if len(diags) != 0 {
		t.Fatal(diags)
	}
	cases := []struct {
		flag  string
		facts workspace.ConsumerFacts
		key   string
		msg   string
	}{
		{"", workspace.ConsumerFacts{OriginURL: "https://example.com/acme/api", Basename: "web"}, "api", ""},
		{"", workspace.ConsumerFacts{PathKeys: []string{"web"}, Basename: "acme-web"}, "web", ""},
		{"", workspace.ConsumerFacts{Basename: "api"}, "api", ""},
		{"", workspace.ConsumerFacts{Basename: "acme-api"}, "api", ""},
		{"", workspace.ConsumerFacts{Basename: "acme-web"}, "", "several repo keys by directory name (web, web2)"},
		{"", workspace.ConsumerFacts{Basename: "stray"}, "", "pass --repo <key> (declared: api, web, web2)"},
		{"", workspace.ConsumerFacts{Basename: "brain"}, "", "pass --repo"},
		{"web2", workspace.ConsumerFacts{Basename: "stray"}, "web2", ""},
		{"nope", workspace.ConsumerFacts{}, "", `--repo "nope" is not declared`},
		{"brain", workspace.ConsumerFacts{}, "", "is not declared"},
	}
	for _, c := range cases {
		key, msg := workspace.ResolveConsumerKey(cfg, c.flag, c.facts)
		if key != c.key || (c.msg == "") != (msg == "") || !strings.Contains(msg, c.msg) {
			t.Errorf("%q %+v: got (%q, %q), want (%q, …%q…)", c.flag, c.facts, key, msg, c.key, c.msg)
		}
	}
}
