package main

import (
	"encoding/json"
	"fmt"
	"os"
	"path/filepath"
	"strings"
	"testing"
	"time"

	"github.com/clew-lsp/clew-lsp/internal/workspace/wstest"
)

// The multivac conformance fixture "eco" (from multivac's
// public conformance cases): a brain and two code repositories side by side, each
// a real git repository built with go-git. The V-cases below run through
// the command line, as CI would.

const ecoSQL = "-- initial schema\nCREATE TABLE accounts (\n  id bigint PRIMARY KEY,\n  balance numeric NOT NULL\n);\n\nGRANT\nSELECT,\nUPDATE\nON accounts\nTO app_role;\n"

// lawHeader puts the first appended row on line 5 and an anchor right
// under it on line 6, as in the fixture.
const lawHeader = "# acme law\n\n| ID | statement | authority | state | date | source |\n| --- | --- | --- | --- | --- | --- |\n"

const ecoConfig = "repos:\n  api: ../acme-api\n  web: {path: ../acme-web}\n"

type eco struct {
	t               *testing.T
	root            string
	brain, api, web *wstest.Repo
}

func newEco(t *testing.T) *eco {
	t.Helper()
	root := t.TempDir()
	e := &eco{t: t, root: root}
	e.brain = wstest.NewAt(t, filepath.Join(root, "acme-brain"))
	e.brain.Write(map[string]string{
		".multivac/config.yml":    ecoConfig,
		".multivac/invariants.md": lawHeader,
		"AGENTS.md":               "# acme brain\n\nStart here.\n",
	})
	e.brain.Commit("brain")
	e.api = wstest.NewAt(t, filepath.Join(root, "acme-api"))
	e.api.Write(map[string]string{
		"db/migrations/0001.sql": ecoSQL,
		"src/server.ts":          "export const port = 8080;\n",
		"README.md":              "# acme-api\n",
	})
	e.api.Commit("api")
	e.web = wstest.NewAt(t, filepath.Join(root, "acme-web"))
	e.web.Write(map[string]string{
		"src/index.ts": "export const app = \"acme-web\";\n",
		"README.md":    "# acme-web\n",
	})
	e.web.Commit("web")
	return e
}

func row(id, state string) string {
	return fmt.Sprintf("| %s | the claim %s | published | %s | 2026-01-01 | x |", id, id, state)
}

func leg(id, spec string) string { return "<!-- @anchor " + id + " " + spec + " -->" }

// law replaces the law table's rows and legs (committed, as a brain would).
func (e *eco) law(lines ...string) {
	e.t.Helper()
	e.brain.Write(map[string]string{".multivac/invariants.md": lawHeader + strings.Join(lines, "\n") + "\n"})
	e.brain.Commit("law")
}

func (e *eco) verify(args ...string) (string, string, int) {
	e.t.Helper()
	return runCLI(e.t, append([]string{"verify", e.brain.Dir}, args...)...)
}

// expect runs verify with args and checks the exit code and fragments.
func (e *eco) expect(code int, args []string, want ...string) string {
	e.t.Helper()
	out, errOut, got := e.verify(args...)
	if got != code {
		e.t.Errorf("verify %v: exit %d, want %d\n%s%s", args, got, code, out, errOut)
	}
	for _, w := range want {
		if !strings.Contains(out, w) {
			e.t.Errorf("verify %v: output lacks %q\n%s", args, w, out)
		}
	}
	return out
}

var (
	check  = []string{"--check"}
	strict = []string{"--check", "--strict"}
)

func short(h string) string { return h[:7] }

// V01, V03: the eco siblings have no remote, so they are read from their
// working trees and the read line says it FELL BACK.
func TestClaimsEcoFellBack(t *testing.T) {
	e := newEco(t)
	e.law(row("INV-02", "active"), leg("INV-02", "api:db/migrations/*.sql /grant[^;]*update[[:space:]]+on[[:space:]]+accounts/i absent"))
	out := e.expect(1, check,
		"broken    INV-02 [absent] .multivac/invariants.md:6 · forbidden pattern at api:db/migrations/0001.sql:7",
		" · blocking",
		"api: working tree on master @ "+short(e.api.Head())+" — channel origin/main does not resolve here (no remote, or never fetched) — FELL BACK to the working tree",
		"web: working tree on master @ ",
		"brain: working tree on master @ "+short(e.brain.Head())+" — the brain's own repo",
		"1 claims · 1 anchored (100%)",
		"1 blocking broken · exit 1")
	_ = out
	e.law(row("INV-04", "active"), leg("INV-04", "api:db/oldname/** /anything/ absent"))
	e.expect(1, check, "vacuous   INV-04 [absent]", "a rename greens this tombstone silently", " · blocking")
}

// V41 (brain side): the channel ref is what is read, not the work tree,
// which is parked on a branch holding a secret; --worktree reads it.
func TestClaimsChannelRef(t *testing.T) {
	e := newEco(t)
	pub := e.api.Publish()
	e.api.Branch("wip/refactor")
	e.api.Write(map[string]string{"src/server.ts": "const SECRET_KEY = \"oops\";\n", "src/wip.ts": "export const SECRET_KEY = 1;\n"})
	wip := e.api.Commit("wip")
	e.api.Write(map[string]string{"src/dirty.ts": "SECRET_KEY\n"}) // untracked, not even in the index
	e.law(row("INV-S1", "active"), leg("INV-S1", "api:src/*.ts /SECRET_KEY/ absent"))

	e.expect(0, strict,
		"api: origin/main @ "+short(pub)+" — the channel, as published (never fetched here) (this checkout is parked on wip/refactor @ "+short(wip)+", not read)",
		"0 blocking broken · exit 0")
	e.api.Fetched(time.Now().Add(-2*time.Hour - time.Minute))
	e.expect(0, check, "the channel, as published (last fetch 2h ago)")

	e.expect(1, []string{"--check", "--worktree"},
		"api: working tree on wip/refactor @ "+short(wip)+" — --worktree: local state, not the channel; OFF channel origin/main @ "+short(pub),
		"forbidden pattern at api:src/server.ts:1, api:src/wip.ts:1",
		"1 blocking broken · exit 1")

	// The ref's tree is the file list too: a file only on the channel is a
	// member, one only in the work tree is not.
	e.law(row("INV-S2", "active"), leg("INV-S2", "api:src/*.ts /port = 8080/ unique"),
		row("INV-S3", "active"), leg("INV-S3", "api:src/wip.ts /SECRET_KEY/"))
	e.expect(0, check, "  ok          1", "vacuous   INV-S3 [present]")
	// A configured channel (any ref name that resolves) is honoured: on
	// wip/refactor, wip.ts exists and server.ts no longer holds the port.
	e.brain.Write(map[string]string{".multivac/config.yml": ecoConfig + "channel: wip/refactor\n"})
	e.brain.Commit("channel")
	out := e.expect(0, check, "api: wip/refactor @ "+short(wip)+" — the channel, as published", "broken    INV-S2 [unique]")
	if strings.Contains(out, "INV-S3") {
		t.Errorf("INV-S3 holds on wip/refactor:\n%s", out)
	}
}

// A sibling whose directory is missing is unevaluated (never gates); one
// that is a plain directory is read as a working tree and says so.
func TestClaimsSiblingNotOnDiskOrNotARepo(t *testing.T) {
	e := newEco(t)
	if err := os.MkdirAll(filepath.Join(e.root, "plain", "src"), 0o755); err != nil {
		t.Fatal(err)
	}
	os.WriteFile(filepath.Join(e.root, "plain", "src", "a.ts"), []byte("const TOKEN = 1;\n"), 0o644)
	e.brain.Write(map[string]string{".multivac/config.yml": ecoConfig + "  gone: ../acme-gone\n  bare: {url: https://example.invalid/bare.git}\n  plain: ../plain\n"})
	e.brain.Commit("more repos")
	e.law(row("INV-G", "active"), leg("INV-G", "gone:** /x/ absent"),
		row("INV-B", "active"), leg("INV-B", "bare:** /x/ absent"),
		row("INV-P", "active"), leg("INV-P", "plain:src/*.ts /TOKEN/ absent"))
	e.expect(1, check,
		"gone: not on disk — nothing read",
		"bare: not on disk — nothing read",
		"unevaluated INV-G [absent]",
		"repo not on disk",
		"plain: working tree on (not a git repository) @ - — channel origin/main does not resolve here (no remote, or never fetched) — FELL BACK to the working tree",
		"broken    INV-P [absent] .multivac/invariants.md:10 · forbidden pattern at plain:src/a.ts:1",
		"1 blocking broken · exit 1")
}

// `*` reads each checkout once by real path: a symlinked alias of a
// sibling and a `mv: .` alias of the brain are not counted twice, and a
// qualified exclusion bites every alias of its checkout.
func TestClaimsStarDeduplicatesByRealPath(t *testing.T) {
	e := newEco(t)
	if err := os.Symlink(filepath.Join(e.root, "acme-api"), filepath.Join(e.root, "api-link")); err != nil {
		t.Fatal(err)
	}
	e.brain.Write(map[string]string{".multivac/config.yml": ecoConfig + "  alias: ../api-link\n  mv: .\n",
		"README.md": "# acme brain\n"})
	e.brain.Commit("aliases")
	e.law(row("INV-D1", "active"), leg("INV-D1", "*:README.md /^# acme/ count=3"),
		row("INV-D2", "active"), leg("INV-D2", "*:AGENTS.md /Start here/ unique"),
		row("INV-D3", "active"), leg("INV-D3", "*:README.md !alias:README.md !mv:README.md /^# acme/ unique"),
		row("INV-D4", "active"), leg("INV-D4", "alias:src/server.ts /port/ unique"))
	out := e.expect(0, strict, "4 claims · 4 anchored (100%)", "0 blocking broken · exit 0")
	if strings.Contains(out, "INV-D") {
		t.Errorf("every leg should hold:\n%s", out)
	}
	for _, w := range []string{"alias: working tree on master", "mv: working tree on master @ " + short(e.brain.Head()) + " — the brain's own repo"} {
		if !strings.Contains(out, w) {
			t.Errorf("read lines lack %q\n%s", w, out)
		}
	}
}

// V15: a file that exists but is untracked gives the `git add` hint, and a
// present leg is not healed onto it.
func TestClaimsUntrackedHint(t *testing.T) {
	e := newEco(t)
	e.api.Write(map[string]string{"src/pricing.ts": "export const vatRate = 0.2;\n"})
	e.law(row("INV-15", "active"), leg("INV-15", "api:src/pricing.ts /vatRate/"))
	before := e.brain.Read(".multivac/invariants.md")
	out := e.expect(0, nil, "vacuous   INV-15 [present]", "file exists but is untracked — `git add src/pricing.ts`")
	if strings.Contains(out, "fix the glob") || e.brain.Read(".multivac/invariants.md") != before {
		t.Errorf("no glob hint, no rewrite:\n%s", out)
	}
	// The brain's own working tree gives the hint too.
	e.law(row("INV-16", "active"), leg("INV-16", "brain:notes/*.md /draft/ absent"))
	e.brain.Write(map[string]string{"notes/new.md": "draft\n"})
	e.expect(1, check, "file exists but is untracked — `git add notes/new.md`")
}

// V05: a moved match is reported under --check (law untouched) and
// rewritten in place without it; the rewritten leg then holds.
func TestClaimsMovedGlobRewritten(t *testing.T) {
	e := newEco(t)
	e.law(row("INV-06", "active"), leg("INV-06", "api:src/app/*.ts /port = 8080/"))
	before := e.brain.Read(".multivac/invariants.md")
	e.expect(0, check, "moved     INV-06 [present] .multivac/invariants.md:6 · match moved to src/server.ts — rerun without --check to rewrite the glob")
	if e.brain.Read(".multivac/invariants.md") != before {
		t.Fatal("--check wrote the law")
	}
	e.expect(0, nil, "glob rewritten to src/server.ts — review the diff")
	want := strings.Replace(before, "api:src/app/*.ts", "api:src/server.ts", 1)
	if got := e.brain.Read(".multivac/invariants.md"); got != want {
		t.Fatalf("law after heal:\n%s\nwant:\n%s", got, want)
	}
	out := e.expect(0, strict, "0 blocking broken · exit 0")
	if strings.Contains(out, "INV-06") {
		t.Errorf("healed leg should be ok:\n%s", out)
	}

	// V07 (brain==code): the law row quoting the pattern is never a heal target.
	b := wstest.New(t)
	b.Write(map[string]string{".multivac/config.yml": "repos: {brain: .}\n", "src/pay.ts": "export const pay = () => charge();\n",
		".multivac/invariants.md": lawHeader + "| INV-06C | pay calls charge() | published | active | 2026-01-01 | x |\n" + leg("INV-06C", "brain:src/pay.ts /charge\\(\\)/") + "\n"})
	b.Commit("init")
	if _, _, code := runCLI(t, "verify", b.Dir, "--check", "--strict"); code != 0 {
		t.Fatalf("V07 before: exit %d", code)
	}
	b.Write(map[string]string{"src/pay.ts": "export const pay = () => billCardDirectly();\n"})
	lawBefore := b.Read(".multivac/invariants.md")
	out, _, code := runCLI(t, "verify", b.Dir, "--strict")
	if code != 1 || !strings.Contains(out, "broken    INV-06C [present]") || b.Read(".multivac/invariants.md") != lawBefore {
		t.Errorf("V07 after: exit %d\n%s", code, out)
	}
}

// V23, V25: --strict makes present/unique gate.
func TestClaimsStrict(t *testing.T) {
	e := newEco(t)
	e.law(row("INV-20", "active"), leg("INV-20", "api:pricing/**/*.sql /create[[:space:]]+table/"))
	e.expect(0, check, "vacuous   INV-20 [present]", `reported only — "present" is not in blocking: and this run is not --strict`, "0 blocking broken · exit 0")
	e.expect(1, strict, "vacuous   INV-20 [present]", " · blocking", "1 blocking broken · exit 1")

	e.api.Write(map[string]string{"src/token.ts": "export const TTL = 900;\nexport const TTL2 = 900;\n"})
	e.api.Commit("token")
	e.law(row("INV-22", "active"), leg("INV-22", "api:src/token.ts /TTL[0-9]* = 900/ unique"))
	out := e.expect(1, strict, "expected exactly one match, found 2", "use count=2 if all are sanctioned", "1 blocking broken · exit 1")
	if n := strings.Count(out, " · blocking"); n != 1 {
		t.Errorf("%d blocking lines, want 1", n)
	}
	e.expect(0, check)
}

// The exit matrix (docs/claims.md) through the command line: V09, V11, V13,
// V17, V29, V31, V33, V35, V37, V39, V51, V55, V57.
func TestClaimsExitMatrix(t *testing.T) {
	e := newEco(t)
	e.web.Write(map[string]string{"README.md": "# acme-web\nuses the FLUXCAP flow\n"})
	e.web.Commit("flux")
	e.brain.Write(map[string]string{"README.md": "# acme brain\n"})
	e.api.Write(map[string]string{
		"k8s/a.yaml": "kind: Deployment\nlimits: {cpu: 1}\n", "k8s/b.yaml": "kind: Deployment\nlimits: {cpu: 2}\n",
		"k8s/c.yaml": "kind: Service\nlimits: {}\n",
		"bin/blob":   "MAGIC\x00\x01\x02 anything",
	})
	e.api.Commit("manifests")

	cases := []struct {
		name  string
		lines []string
		code  int
		scode int // --strict
		want  []string
	}{
		{"V09 retired keeps absent", []string{row("INV-08", "retired"), leg("INV-08", "*:README.md /FLUXCAP/ absent"), leg("INV-08", "*:README.md /FLUXCAP/")},
			1, 1, []string{"broken    INV-08 [absent]", "web:README.md:2", " · blocking"}},
		{"V11 proposed never blocks", []string{row("INV-10", "proposed"), leg("INV-10", "api:README.md /acme-api/ absent")},
			0, 0, []string{"proposed row — informational, never blocks"}},
		{"V13 parse error", []string{row("INV-12", "active"), leg("INV-12", `api:db/** /\sfoo/ absent`)},
			1, 1, []string{`.multivac/invariants.md:6 — \s is not POSIX ERE — use [[:space:]]`, "anchor parse errors"}},
		{"V17 pending", []string{row("INV-17", "proposed"), leg("INV-17", "api:src/points.ts /expiresAt/ count=1")},
			0, 0, []string{"declared by open change expiring-points", "0 blocking broken · exit 0", "1 claim held pending by open change expiring-points — not gating"}},
		{"V29 exclusions keep the brain", []string{row("INV-70", "active"), leg("INV-70", "*:README.md !api:README.md !web:README.md /PIN/ absent")},
			0, 0, nil},
		{"V31 unknown key", []string{row("INV-72", "active"), leg("INV-72", "*:README.md !frontend:README.md /PIN/ absent")},
			1, 1, []string{`unknown repo key "frontend"`, "anchor parse errors"}},
		{"V33 drift", []string{row("INV-80", "drift"), leg("INV-80", "api:db/migrations/*.sql /GRANT/ absent")},
			0, 0, []string{"drift row — recorded finding, never blocks", "drift: INV-80", "0 blocking broken · exit 0"}},
		{"V33 active", []string{row("INV-80", "active"), leg("INV-80", "api:db/migrations/*.sql /GRANT/ absent")},
			1, 1, nil},
		{"V35 dialect", []string{row("INV-84", "active"), leg("INV-84", `api:src/** /\d+/`)},
			1, 1, []string{"is not POSIX ERE"}},
		{"V37 each holds", []string{row("INV-91", "active"), leg("INV-91", "api:k8s/*.yaml /limits:/ each")},
			0, 0, nil},
		{"V39 each! and its exclusion", []string{row("INV-92", "active"), leg("INV-92", "api:k8s/*.yaml /kind: Service/ each!")},
			1, 1, []string{"each!: forbidden pattern in 1 of 3 files (api:k8s/c.yaml:1)"}},
		{"V39 excluded", []string{row("INV-92", "active"), leg("INV-92", "api:k8s/*.yaml !api:k8s/c.yaml /kind: Service/ each!")},
			0, 0, nil},
		{"V51 piped row", []string{"| MV-90 | run mvac verify 2>&1 || true | published | proposed | 2026-01-01 | x |",
			leg("MV-90", "api:src/**.ts /a string no file contains anywhere/ absent"), leg("MV-90", "api:src/**.ts /a string no file contains anywhere/")},
			0, 0, []string{"0 blocking broken"}},
		{"V55 fenced heal", []string{row("X", "active"), leg("X", "api:src/app/*.ts /acme-api/")},
			0, 1, []string{"found in api:README.md, refused as a heal target: not .ts — fix the glob or retire the claim"}},
		{"V57 binary stays in the set", []string{row("X", "active"), leg("X", "api:bin/** /anything/ each")},
			1, 1, []string{"each: 1 of 1 files lack the pattern (api:bin/blob)"}},
	}
	e.brain.Write(map[string]string{".multivac/changes/expiring-points.md": "---\nslug: expiring-points\nstatus: open\nrepos: {api: {status: planned}}\nclaims: [{id: INV-17, statement: points expire}]\n---\n# expiring points\n"})
	e.brain.Commit("change")
	for _, c := range cases {
		t.Run(c.name, func(t *testing.T) {
			e.t = t
			e.law(c.lines...)
			e.expect(c.code, check, c.want...)
			e.expect(c.scode, strict)
		})
	}
}

// V53: a bad config is exit 2, names the fix, and the rest of the report
// (the claims, the code anchors) is still printed.
func TestClaimsBadConfig(t *testing.T) {
	e := newEco(t)
	e.brain.Write(map[string]string{"docs/a.md": "<!-- @code function Nope src/nope.ts -->\n"})
	e.law(row("INV-02", "active"), leg("INV-02", "api:db/migrations/*.sql /GRANT/ absent"))
	for cfg, want := range map[string]string{
		ecoConfig + "blocking: [count]\n":             `must include "absent"`,
		ecoConfig + "blocking: [absent, sometimes]\n": `"sometimes"`,
		ecoConfig + "  \"*\": ../x\n":                 "reserved",
		ecoConfig + "  brain: ../acme-api\n":          "repos.brain must be the brain itself",
		ecoConfig + "staleness: sometimes\n":          "report or block",
		ecoConfig + "strict_prepush: true\n":          "did you mean strict_pre_push",
		"repos: [oops\n":                              "not valid YAML",
	} {
		e.brain.Write(map[string]string{".multivac/config.yml": cfg})
		out, _, code := e.verify("--check")
		if code != 2 || !strings.Contains(out, want) || !strings.Contains(out, "config/invalid") ||
			!strings.Contains(out, "invariants.md:6") || !strings.Contains(out, "docs/a.md") || !strings.Contains(out, "exit 2") {
			t.Errorf("config %q: exit %d, want 2 with %q and the rest of the report\n%s", cfg, code, want, out)
		}
	}
}

// verify --json fills claims, coverage and diagnostics with docs/json.md's
// field names.
func TestClaimsJSON(t *testing.T) {
	e := newEco(t)
	e.law(row("INV-01", "active"), leg("INV-01", "api:db/migrations/*.sql /GRANT/ absent"),
		row("INV-02", "active"),
		leg("INV-03", `api:src/** /\d/`))
	out, _, code := e.verify("--check", "--json")
	if code != 1 {
		t.Fatalf("exit %d\n%s", code, out)
	}
	var rep struct {
		Claims []struct {
			ID    string `json:"id"`
			State string `json:"state"`
			Row   *struct {
				Doc  string `json:"doc"`
				Line int    `json:"line"`
			} `json:"row"`
			Legs []map[string]any `json:"legs"`
		} `json:"claims"`
		Coverage    map[string]int   `json:"coverage"`
		Diagnostics []map[string]any `json:"diagnostics"`
		Exit        int              `json:"exit"`
	}
	if err := json.Unmarshal([]byte(out), &rep); err != nil {
		t.Fatal(err)
	}
	if len(rep.Claims) != 1 || rep.Claims[0].ID != "INV-01" || rep.Claims[0].State != "broken" ||
		rep.Claims[0].Row == nil || rep.Claims[0].Row.Doc != ".multivac/invariants.md" || rep.Claims[0].Row.Line != 5 {
		t.Fatalf("claims = %+v", rep.Claims)
	}
	l := rep.Claims[0].Legs[0]
	for k, v := range map[string]any{"doc": ".multivac/invariants.md", "line": 6.0, "mode": "absent", "state": "broken", "gating": true} {
		if l[k] != v {
			t.Errorf("leg[%s] = %v, want %v", k, l[k], v)
		}
	}
	if d, _ := l["detail"].(string); !strings.Contains(d, "forbidden pattern at api:db/migrations/0001.sql:7") {
		t.Errorf("leg detail = %q", d)
	}
	if rep.Coverage["claims"] != 2 || rep.Coverage["anchored"] != 1 {
		t.Errorf("coverage = %v", rep.Coverage)
	}
	found := false
	for _, d := range rep.Diagnostics {
		for _, k := range []string{"doc", "line", "severity", "code", "message"} {
			if _, ok := d[k]; !ok {
				t.Errorf("diagnostic lacks %q: %v", k, d)
			}
		}
		if d["code"] == "claim/parse" && d["line"] == 8.0 && d["severity"] == "error" {
			found = true
		}
	}
	if !found || rep.Exit != 1 {
		t.Errorf("diagnostics = %v, exit %d", rep.Diagnostics, rep.Exit)
	}
}

// Bad input in the files themselves: a 5 MB minified file (one line) and a
// `.sql` with an unterminated dollar quote. Both are read whole by the
// engine's rules (a big file is no reason to skip a leg), and the rest of
// the report is produced.
func TestClaimsBadFiles(t *testing.T) {
	e := newEco(t)
	min := "var a=1;" + strings.Repeat("function f(){return 1};", 5<<20/23) + "SECRET"
	e.api.Write(map[string]string{
		"dist/app.min.js":        min,
		"db/migrations/0002.sql": "CREATE FUNCTION f() RETURNS int AS $body$\nSELECT 1;\nGRANT ALL ON t TO u;\n",
	})
	e.api.Commit("bad files")
	e.api.Publish() // read at the channel ref: blobs
	e.brain.Write(map[string]string{"dist/app.min.js": min})
	e.brain.Commit("brain min")
	e.law(row("INV-M", "active"), leg("INV-M", "api:dist/*.js /SECRET/ each"),
		row("INV-MB", "active"), leg("INV-MB", "brain:dist/*.js /SECRET/ each"),
		row("INV-Q", "active"), leg("INV-Q", "api:db/migrations/0002.sql /GRANT ALL/ absent"),
		row("INV-Q2", "active"), leg("INV-Q2", "api:db/migrations/*.sql /create table accounts/i unique"))
	start := time.Now()
	out := e.expect(1, check,
		"  ok          3", // INV-M and INV-MB: the 5 MB line holds SECRET, in a blob and in the brain's tree
		"broken    INV-Q [absent] .multivac/invariants.md:10 · forbidden pattern at api:db/migrations/0002.sql:1", // the dollar body runs to the end
		"1 blocking broken · exit 1")
	if strings.Contains(out, "INV-M ") || strings.Contains(out, "INV-MB ") {
		t.Errorf("the big files were not read:\n%s", out)
	}
	if d := time.Since(start); d > 20*time.Second {
		t.Errorf("verify took %v", d)
	}
}

// V59: a path conflicted mid-merge counts once and the read line says so.
func TestClaimsMidMerge(t *testing.T) {
	e := newEco(t)
	e.api.Write(map[string]string{"src/points.ts": "<<<<<<< ours\nexpiresAt\n=======\nexpires\n>>>>>>> theirs\n"})
	e.api.Commit("points")
	e.api.Conflict("src/points.ts", "a\n", "expiresAt\n", "expires\n")
	e.law(row("INV-26", "active"), leg("INV-26", "api:src/*.ts /expiresAt/ count=1"))
	e.expect(0, strict, "1 path(s) MID-MERGE (src/points.ts) — resolve the merge before trusting any verdict here", "0 blocking broken · exit 0")
	e.expect(0, []string{"--check", "--worktree"}, "--worktree: local state", "1 path(s) MID-MERGE (src/points.ts)")
	out, _, code := runCLI(t, "count", "api:src/*.ts /expiresAt/", e.brain.Dir)
	if code != 0 || !strings.Contains(out, "src/points.ts  1") || !strings.Contains(out, "1 match in 2 tracked files") {
		t.Errorf("count over a conflicted path: exit %d\n%s", code, out)
	}
}

// Consumer scope (V41 api side, V47, V49): a checkout that mounts the
// brain at `.brain` evaluates its own key's and `*` legs against its
// working tree.
func TestClaimsConsumerScope(t *testing.T) {
	e := newEco(t)
	pub := e.api.Publish()
	e.api.Branch("wip/refactor")
	e.api.Write(map[string]string{"src/server.ts": "const SECRET_KEY = \"oops\";\n", "README.md": "# acme-api\nuses the FLUXCAP flow\n"})
	wip := e.api.Commit("wip")
	_ = pub
	e.law(row("INV-S1", "active"), leg("INV-S1", "api:src/*.ts /SECRET_KEY/ absent"),
		row("INV-C3", "active"), leg("INV-C3", "*:README.md /FLUXCAP/ absent"),
		row("INV-W", "active"), leg("INV-W", "web:src/*.ts /acme-web/ absent"),
		row("INV-B", "active"), leg("INV-B", "brain:AGENTS.md /Start/ absent"))
	// Mount the brain inside the api checkout, as a nested repository.
	mounted := wstest.NewAt(t, filepath.Join(e.api.Dir, ".brain"))
	mounted.Write(map[string]string{".multivac/config.yml": ecoConfig, ".multivac/invariants.md": e.brain.Read(".multivac/invariants.md"),
		"AGENTS.md": "# acme brain\n\nStart here.\n", "docs/code.md": "<!-- @code function Gone src/gone.ts -->\n"})
	mounted.Commit("brain")

	out, errOut, code := runCLI(t, "verify", e.api.Dir, "--check")
	if code != 1 {
		t.Fatalf("consumer: exit %d\n%s%s", code, out, errOut)
	}
	for _, w := range []string{
		`scoped to repo "api" · brain at .brain`,
		`2 of 4 brain claims anchor into "api"`,
		"api: working tree on wip/refactor @ " + short(wip) + " — this checkout, the content about to be committed here",
		"broken    INV-S1 [absent] .brain/.multivac/invariants.md:6 · forbidden pattern at api:src/server.ts:1",
		"broken    INV-C3 [absent] .brain/.multivac/invariants.md:8 · forbidden pattern at api:README.md:2",
		"2 blocking broken · exit 1",
	} {
		if !strings.Contains(out, w) {
			t.Errorf("consumer report lacks %q\n%s", w, out)
		}
	}
	for _, not := range []string{"INV-W", "INV-B", "Gone", "web:"} {
		if strings.Contains(out, not) {
			t.Errorf("consumer report mentions %q (another repo's leg, or the brain's own docs)\n%s", not, out)
		}
	}
	// A moved glob is never written from a consumer.
	e.law(row("INV-06", "active"), leg("INV-06", "api:src/app/*.ts /SECRET_KEY/"))
	mounted.Write(map[string]string{".multivac/invariants.md": e.brain.Read(".multivac/invariants.md")})
	before := mounted.Read(".multivac/invariants.md")
	out, _, code = runCLI(t, "verify", e.api.Dir)
	if code != 0 || !strings.Contains(out, "moved     INV-06") || mounted.Read(".multivac/invariants.md") != before {
		t.Errorf("consumer heal: exit %d\n%s", code, out)
	}

	// V49: a stray checkout matches no key → exit 2 asking for --repo; with it,
	// the `*` tombstone is vacuous and blocks.
	stray := wstest.NewAt(t, filepath.Join(e.root, "stray"))
	stray.Write(map[string]string{"notes.txt": "hello\n"})
	stray.Commit("stray")
	e.law(row("INV-C3", "active"), leg("INV-C3", "*:README.md /FLUXCAP/ absent"), row("INV-A", "active"), leg("INV-A", "api:src/*.ts /port/"))
	sm := wstest.NewAt(t, filepath.Join(stray.Dir, ".brain"))
	sm.Write(map[string]string{".multivac/config.yml": ecoConfig, ".multivac/invariants.md": e.brain.Read(".multivac/invariants.md")})
	sm.Commit("brain")
	out, _, code = runCLI(t, "verify", stray.Dir, "--check")
	if code != 2 || !strings.Contains(out, "pass --repo <key>") || !strings.Contains(out, "declared: api, web") {
		t.Errorf("stray: exit %d\n%s", code, out)
	}
	out, _, code = runCLI(t, "verify", stray.Dir, "--check", "--repo", "api")
	if code != 1 || !strings.Contains(out, "vacuous   INV-C3 [absent]") || !strings.Contains(out, "vacuous   INV-A [present]") ||
		!strings.Contains(out, "1 blocking broken · exit 1") {
		t.Errorf("stray --repo api: exit %d\n%s", code, out)
	}
	if _, _, code := runCLI(t, "verify", stray.Dir, "--check", "--repo", "nope"); code != 2 {
		t.Errorf("--repo nope: exit %d, want 2", code)
	}
	// Resolution by origin URL.
	e.brain.Write(map[string]string{".multivac/config.yml": "repos:\n  api: {path: ../acme-api, url: git@example.com:acme/api.git}\n  web: ../acme-web\n"})
	sm.Write(map[string]string{".multivac/config.yml": e.brain.Read(".multivac/config.yml")})
	stray.AddRemote("origin", "https://EXAMPLE.com/acme/api")
	if out, _, code := runCLI(t, "verify", stray.Dir, "--check"); code != 1 || !strings.Contains(out, `scoped to repo "api"`) {
		t.Errorf("by origin URL: exit %d\n%s", code, out)
	}
	// An empty mount is a stale pin: exit 2.
	empty := wstest.NewAt(t, filepath.Join(e.root, "empty"))
	os.MkdirAll(filepath.Join(empty.Dir, ".brain"), 0o755)
	if out, _, code := runCLI(t, "verify", empty.Dir, "--check"); code != 2 || !strings.Contains(out, "git submodule update --init .brain") {
		t.Errorf("empty mount: exit %d\n%s", code, out)
	}
	// --repo in a brain is ignored with a warning.
	if _, errOut, _ := runCLI(t, "verify", e.brain.Dir, "--check", "--repo", "api"); !strings.Contains(errOut, "--repo is ignored") {
		t.Errorf("--repo in a brain: %q", errOut)
	}
}

// clew-lsp count: the dry run reads what verify reads and exits 0 or 2.
func TestClaimsCount(t *testing.T) {
	e := newEco(t)
	pub := e.api.Publish()
	e.api.Write(map[string]string{"db/migrations/0002.sql": "GRANT SELECT ON x TO y;\n"}) // not on the channel
	out, errOut, code := runCLI(t, "count", "api:db/migrations/*.sql /grant/i", e.brain.Dir)
	if code != 0 {
		t.Fatalf("count: exit %d %s", code, errOut)
	}
	for _, w := range []string{"api: origin/main @ " + short(pub), "db/migrations/0001.sql  1", "1 match in 1 tracked file — a ratchet pins count=1"} {
		if !strings.Contains(out, w) {
			t.Errorf("count lacks %q\n%s", w, out)
		}
	}
	// --worktree reads the index and the work tree: 0002.sql is untracked,
	// so it is still one match; once staged (committed) it is two.
	out, _, _ = runCLI(t, "count", "api:db/migrations/*.sql /grant/i", e.brain.Dir, "--worktree")
	if !strings.Contains(out, "--worktree: local state") || !strings.Contains(out, "1 match in 1 tracked file") {
		t.Errorf("--worktree count:\n%s", out)
	}
	e.api.Commit("0002")
	out, _, _ = runCLI(t, "count", "api:db/migrations/*.sql /grant/i", e.brain.Dir, "--worktree")
	if !strings.Contains(out, "2 matches in 2 tracked files") {
		t.Errorf("--worktree count after commit:\n%s", out)
	}
	if out, _, _ = runCLI(t, "count", "api:db/migrations/*.sql /grant/i", e.brain.Dir); !strings.Contains(out, "1 match in 1 tracked file") {
		t.Errorf("the channel has not moved:\n%s", out)
	}
	out, _, code = runCLI(t, "count", "*:README.md /acme/ each", e.brain.Dir)
	if code != 0 || !strings.Contains(out, "api:README.md  1") || !strings.Contains(out, "2 of 2 tracked files match") {
		t.Errorf("count * each: exit %d\n%s", code, out)
	}
	out, _, code = runCLI(t, "count", "web:nothing/** /x/", e.brain.Dir)
	if code != 0 || !strings.Contains(out, "glob matched no tracked files in web — an anchor on it would be vacuous") {
		t.Errorf("count vacuous: exit %d\n%s", code, out)
	}
	for _, bad := range []string{"apiglob /re/", `api:** /\d/`, "nope:** /x/", "api:** /x/ sometimes"} {
		if _, errOut, code := runCLI(t, "count", bad, e.brain.Dir); code != 2 || errOut == "" {
			t.Errorf("count %q: exit %d, want 2 with a message", bad, code)
		}
	}
	if _, _, code := runCLI(t, "count"); code != 2 {
		t.Errorf("count without a spec: exit %d", code)
	}
	// From the consumer checkout: only this checkout, under its key.
	m := wstest.NewAt(t, filepath.Join(e.api.Dir, ".brain"))
	m.Write(map[string]string{".multivac/config.yml": ecoConfig, ".multivac/invariants.md": lawHeader})
	m.Commit("brain")
	out, errOut, code = runCLI(t, "count", "api:src/*.ts /port/", e.api.Dir)
	if code != 0 || !strings.Contains(out, "this checkout") || !strings.Contains(out, "src/server.ts  1") {
		t.Errorf("consumer count: exit %d\n%s%s", code, out, errOut)
	}
	if _, errOut, code := runCLI(t, "count", "api:** /x/", t.TempDir()); code != 2 || !strings.Contains(errOut, "not a brain") {
		t.Errorf("count outside a brain: %d %q", code, errOut)
	}
}

// V43: the brain is always read as its working tree (an uncommitted edit
// counts); V19: a finished change is reported, and gates under --strict.
func TestClaimsBrainWorkTreeAndFinishedChange(t *testing.T) {
	e := newEco(t)
	e.law(row("INV-S3", "active"), leg("INV-S3", "brain:AGENTS.md /Start here/"))
	e.expect(0, strict, "brain: working tree on master @ "+short(e.brain.Head())+" — the brain's own repo, the commit this run gates")
	e.brain.Write(map[string]string{"AGENTS.md": "# acme brain\n\nStop here.\n"})
	e.expect(1, strict, "broken    INV-S3 [present]", "1 blocking broken · exit 1")

	e.law(row("INV-30", "active"), leg("INV-30", "api:db/migrations/*.sql /create[[:space:]]+table[[:space:]]+accounts/i"))
	e.brain.Write(map[string]string{".multivac/changes/points-done.md": "---\nslug: points-done\nstatus: open\nrepos: {api: {status: landed}}\nclaims: [{id: INV-30, statement: accounts exist}]\n---\n"})
	e.expect(1, strict, "finished  points-done — every declared claim resolves", "1 blocking broken · exit 1 · 1 finished change unclosed")
	e.expect(0, check, "finished  points-done", "reported only — this run is not --strict")
}

// A brain mounted as a symlink to the real brain checkout: the key
// resolves by path (the brain's `../acme-web` is this checkout).
func TestClaimsConsumerSymlinkedMount(t *testing.T) {
	e := newEco(t)
	e.law(row("INV-W", "active"), leg("INV-W", "web:src/*.ts /acme-web/ unique"),
		row("INV-A", "active"), leg("INV-A", "api:src/*.ts /nothing/ absent"))
	if err := os.Symlink(e.brain.Dir, filepath.Join(e.web.Dir, ".brain")); err != nil {
		t.Fatal(err)
	}
	out, errOut, code := runCLI(t, "verify", e.web.Dir, "--check", "--strict")
	if code != 0 || !strings.Contains(out, `scoped to repo "web" · brain at .brain`) || !strings.Contains(out, `1 of 2 brain claims anchor into "web"`) {
		t.Errorf("symlinked mount: exit %d\n%s%s", code, out, errOut)
	}
}
