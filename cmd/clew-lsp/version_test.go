package main

import (
	"runtime/debug"
	"strings"
	"testing"
)

// TestBuildVersion: a release build says its module version, a build from
// a checkout its commit time, revision and whether the tree was modified,
// and every answer starts with a number (SARIF's validator warns otherwise).
func TestBuildVersion(t *testing.T) {
	vcs := func(kv ...string) []debug.BuildSetting {
		var out []debug.BuildSetting
		for i := 0; i < len(kv); i += 2 {
			out = append(out, debug.BuildSetting{Key: kv[i], Value: kv[i+1]})
		}
		return out
	}
	for _, c := range []struct {
		name     string
		main     string
		settings []debug.BuildSetting
		want     string
	}{
		{"go install @version", "v0.4.1", nil, "0.4.1"},
		{"pseudo-version", "v0.0.0-20261201182300-3f2a1c0e8b7a", nil, "0.0.0-20261201182300-3f2a1c0e8b7a"},
		{"go build from a modified checkout (Go 1.24+)", "v0.0.0-20261201182300-3f2a1c0e8b7a+dirty", nil, "0.0.0-20261201182300-3f2a1c0e8b7a+dirty"},
		{"checkout", "(devel)", vcs("vcs.revision", "3f2a1c0e8b7a9d0c1b2a", "vcs.time", "2026-12-01T18:23:00Z", "vcs.modified", "false"),
			"0.0.0-20261201182300-3f2a1c0e8b7a"},
		{"modified checkout", "(devel)", vcs("vcs.revision", "3f2a1c0e8b7a9d0c1b2a", "vcs.time", "2026-12-01T18:23:00Z", "vcs.modified", "true"),
			"0.0.0-20261201182300-3f2a1c0e8b7a+dirty"},
		{"time in another zone", "(devel)", vcs("vcs.revision", "3f2a1c0e8b7a9d0c1b2a", "vcs.time", "2026-12-01T19:23:00+01:00"),
			"0.0.0-20261201182300-3f2a1c0e8b7a"},
		{"revision without a time", "", vcs("vcs.revision", "3f2a1c0e8b7a9d0c1b2a", "vcs.modified", "true"), "0.0.0-3f2a1c0e8b7a+dirty"},
		{"short revision", "(devel)", vcs("vcs.revision", "3f2a1c0", "vcs.time", "garbage"), "0.0.0-3f2a1c0"},
		{"no VCS stamp", "(devel)", nil, "0.0.0-devel"},
		{"no main module version at all", "", nil, "0.0.0-devel"},
	} {
		bi := &debug.BuildInfo{Main: debug.Module{Version: c.main}, Settings: c.settings}
		if got := buildVersion(bi); got != c.want {
			t.Errorf("%s: %q, want %q", c.name, got, c.want)
		}
		if got := buildVersion(bi); got == "" || got[0] < '0' || got[0] > '9' {
			t.Errorf("%s: %q does not start with a number", c.name, got)
		}
	}
}

// TestVersionFromLdflags: -ldflags "-X main.version=…" wins.
func TestVersionFromLdflags(t *testing.T) {
	old := version
	version = "9.9.9-test"
	defer func() { version = old }()
	if out, _, code := runCLI(t, "version"); code != 0 || out != "clew-lsp 9.9.9-test\n" {
		t.Errorf("version: exit %d %q", code, out)
	}
}

// TestFlagHelpSpelling: --help lists flags as the usage line spells them.
func TestFlagHelpSpelling(t *testing.T) {
	_, help, code := runCLI(t, "context", "--help")
	if code != 0 || !strings.Contains(help, "\n  --budget ") || !strings.Contains(help, "\n  --markdown\n") {
		t.Fatalf("context --help (exit %d):\n%s", code, help)
	}
	for _, l := range strings.Split(help, "\n") {
		if strings.HasPrefix(l, "  -") && !strings.HasPrefix(l, "  --") {
			t.Errorf("single-dash flag line %q", l)
		}
	}
}
