package main

import (
	"encoding/json"
	"strconv"
	"strings"
	"testing"

	"github.com/clew-lsp/clew-lsp/internal/workspace/wstest"
)

// Divergences from multivac that a migrating team would trip over, each
// on a real git repository through the command line.

// brainCode is a brain==code repository: `repos: {brain: .}`.
func brainCode(t *testing.T, files map[string]string) *wstest.Repo {
	t.Helper()
	r := wstest.New(t)
	base := map[string]string{".multivac/config.yml": "repos: {brain: .}\n"}
	for k, v := range files {
		base[k] = v
	}
	r.Write(base)
	r.Commit("init")
	return r
}

func expectCLI(t *testing.T, code int, args []string, want ...string) string {
	t.Helper()
	out, errOut, got := runCLI(t, args...)
	if got != code {
		t.Errorf("%v: exit %d, want %d\n%s%s", args, got, code, out, errOut)
	}
	for _, w := range want {
		if !strings.Contains(out+errOut, w) {
			t.Errorf("%v: output lacks %q\n%s%s", args, w, out, errOut)
		}
	}
	return out
}

// Divergence 6: the legacy layout (a root invariants.md, no .multivac/)
// is refused with exit 2 and the way to migrate, not read as orphan legs.
func TestClaimsLegacyLayoutRefused(t *testing.T) {
	law := lawHeader + row("INV-1", "active") + "\n" + leg("INV-1", "brain:src/a.ts /eval/ absent") + "\n"
	r := wstest.New(t)
	r.Write(map[string]string{"invariants.md": law, "src/a.ts": "eval(x)\n"})
	r.Commit("legacy")
	out := expectCLI(t, 2, []string{"verify", r.Dir, "--check"},
		"invariants.md:1 — the law is at the repository root, multivac's legacy layout — move it: mkdir -p .multivac && git mv invariants.md .multivac/invariants.md",
		"exit 2 · config invalid")
	if strings.Contains(out, "orphan") || strings.Contains(out, "forbidden pattern") {
		t.Errorf("legacy law evaluated:\n%s", out)
	}
	// With a config but the law still at the root: the same refusal.
	r.Write(map[string]string{".multivac/config.yml": "repos: {brain: .}\n"})
	r.Commit("config")
	expectCLI(t, 2, []string{"verify", r.Dir, "--check"}, "multivac's legacy layout")
	// A root invariants.md that is only prose is not a law.
	p := wstest.New(t)
	p.Write(map[string]string{"invariants.md": "# Invariants\n\nThe cache never grows.\n"})
	p.Commit("prose")
	out, _, code := runCLI(t, "verify", p.Dir, "--check")
	if code != 0 || strings.Contains(out, "legacy") {
		t.Errorf("prose invariants.md: exit %d\n%s", code, out)
	}
}

// Divergence 8: `brain: .` prints the brain's read line once; a missing
// config says exit 2 on its summary line, as the process exits.
func TestClaimsReportLines(t *testing.T) {
	r := brainCode(t, map[string]string{
		".multivac/invariants.md": lawHeader + row("INV-1", "active") + "\n" + leg("INV-1", "brain:src/a.ts /port/") + "\n",
		"src/a.ts":                "export const port = 1;\n",
	})
	out := expectCLI(t, 0, []string{"verify", r.Dir, "--check"}, "brain: working tree on master @ "+short(r.Head()))
	if n := strings.Count(out, "read      brain:"); n != 1 {
		t.Errorf("brain read line printed %d times\n%s", n, out)
	}

	m := wstest.New(t)
	m.Write(map[string]string{
		".multivac/invariants.md": lawHeader + row("INV-1", "active") + "\n" + leg("INV-1", "brain:src/a.ts /port/") + "\n",
		"src/a.ts":                "export const port = 1;\n",
	})
	m.Commit("no config")
	out = expectCLI(t, 2, []string{"verify", m.Dir, "--check"}, "0 blocking broken · exit 2 · config missing")
	if strings.Contains(out, "exit 0") {
		t.Errorf("summary says exit 0 while the process exits 2:\n%s", out)
	}
}

// Divergence 10: the legs a retired row leaves unevaluated are listed,
// in the report and the JSON, with the state that says why.
func TestClaimsRetiredLegsListed(t *testing.T) {
	r := brainCode(t, map[string]string{
		".multivac/invariants.md": lawHeader + row("INV-8", "retired") + "\n" +
			leg("INV-8", "brain:src/a.ts /FLUXCAP/ absent") + "\n" +
			leg("INV-8", "brain:src/gone.ts /dropped/") + "\n" +
			leg("INV-8", "brain:src/a.ts /x/ each!") + "\n",
		"src/a.ts": "export const ok = 1;\n",
	})
	expectCLI(t, 0, []string{"verify", r.Dir, "--check", "--strict"},
		"retired   INV-8 [present] .multivac/invariants.md:7 · not evaluated — the row is retired",
		"retired   INV-8 [each] .multivac/invariants.md:8 · not evaluated",
		"0 blocking broken · exit 0")
	out, _, _ := runCLI(t, "verify", r.Dir, "--check", "--json")
	var js struct {
		Claims []struct {
			ID, State string
			Legs      []struct {
				Line        int
				State, Mode string
				Gating      bool
			}
		}
	}
	if err := json.Unmarshal([]byte(out), &js); err != nil {
		t.Fatalf("%v\n%s", err, out)
	}
	if len(js.Claims) != 1 || js.Claims[0].State != "ok" || len(js.Claims[0].Legs) != 3 {
		t.Fatalf("claims %+v", js.Claims)
	}
	for i, want := range []string{"ok", "retired", "retired"} {
		if l := js.Claims[0].Legs[i]; l.State != want || l.Gating {
			t.Errorf("leg %d: %+v, want state %s, not gating", i, l, want)
		}
	}
}

// bigText is about size bytes of harmless lines with one forbidden line
// near the end.
func bigText(size int, forbidden string) (string, int) {
	var b strings.Builder
	line := 0
	for b.Len() < size {
		line++
		b.WriteString("export const filler = \"nothing to see here, just bytes to make the file big\";\n")
	}
	b.WriteString(forbidden + "\n")
	return b.String(), line + 1
}

// No silent green (issue item 11): a forbidden pattern in a 5 MB file
// blocks, in the brain (work tree) and in a sibling read at its channel
// (a blob); a byte budget too small to read the file leaves the tombstone
// unevaluated, and an unevaluated blocking leg blocks.
func TestClaimsBigFileTombstone(t *testing.T) {
	js, jsLine := bigText(5<<20, "window.eval(payload);")
	sql, sqlLine := bigText(5<<20, "GRANT\nSELECT, UPDATE\nON accounts TO app_role;")
	r := brainCode(t, map[string]string{
		".multivac/invariants.md": lawHeader + row("INV-T", "active") + "\n" +
			leg("INV-T", "brain:src/*.js /eval\\(/ absent") + "\n" +
			leg("INV-T", "brain:db/*.sql /grant[^;]*update[[:space:]]+on[[:space:]]+accounts/i absent") + "\n",
		"src/huge.js":  js,
		"db/0001.sql":  sql,
		"src/small.js": "export const ok = 1;\n",
	})
	expectCLI(t, 1, []string{"verify", r.Dir, "--check"},
		"forbidden pattern at brain:src/huge.js:"+itoa(jsLine),
		"forbidden pattern at brain:db/0001.sql:"+itoa(sqlLine),
		"2 blocking broken · exit 1")

	// A budget that cannot hold the big file: unevaluated, blocking.
	r.Write(map[string]string{".clew.yml": "budget: {max_bytes: 1000000}\n"})
	r.Commit("budget")
	out := expectCLI(t, 1, []string{"verify", r.Dir, "--check"},
		"unevaluated INV-T [absent] .multivac/invariants.md:6 · not evaluated — the byte budget (budget.max_bytes = 1000000) ran out before brain:",
		"never ok",
		" · blocking")
	if strings.Contains(out, "  ok ") {
		t.Errorf("a budget-stopped tombstone counted ok:\n%s", out)
	}

	// A sibling read at its channel: the blob is read whole.
	e := newEco(t)
	e.api.Write(map[string]string{"src/huge.ts": js})
	e.api.Commit("big")
	e.api.Publish()
	e.law(row("INV-B", "active"), leg("INV-B", "api:src/*.ts /eval\\(/ absent"))
	e.expect(1, check, "the channel, as published", "forbidden pattern at api:src/huge.ts:"+itoa(jsLine), "1 blocking broken · exit 1")
}

func itoa(n int) string { return strconv.Itoa(n) }
