package contextmap_test

import (
	"testing"

	"github.com/clew-lsp/clew-lsp/internal/devcontext"
	"github.com/clew-lsp/clew-lsp/internal/workspace/contextmap"
)

// With no claims hook set, the claims come from the claims engine's run in
// the snapshot's Check: rows from the law file, legs over this workspace
// ("brain:" and "*:") covering the files their glob matches and pinning
// the declarations their regex hits. A leg gates when its mode is in the
// config's blocking list (absent, count, each, code by default) and its row
// gates: INV-1's count leg does, a present leg would not.
func TestContextClaimsFromTheLaw(t *testing.T) {
	f := newBFixture(t)
	t.Cleanup(contextmap.SetClaims(nil))
	f.r.Write(map[string]string{".multivac/invariants.md": `| INV-1 | Initialize records the root | team | active | 2026-01-10 | docs/lsp.md |
| INV-2 | internal code never logs | team | proposed | 2026-02-01 | |
| INV-4 | no global logger | team | retired | 2025-12-01 | |
| INV-5 | a Start method exists | team | retired | 2025-12-01 | |
| INV-7 | the web app is elsewhere | team | active | 2026-01-01 | |

<!-- @anchor INV-1 brain:internal/lsp/*.go /s\.root = root/ count=1 -->
<!-- @anchor INV-2 brain:internal/** !internal/cmd/** /log\.Print/ absent -->
<!-- @anchor INV-4 brain:internal/lsp/*.go /log\.Default/ absent -->
<!-- @anchor INV-5 brain:internal/lsp/*.go /func \(s \*Server\) Start/ -->
<!-- @anchor INV-7 web:src/*.ts /x/ -->
`})
	f.r.Commit("law")
	snap := f.load(t)
	c := compile(t, snap, f.in(t, ") Initialize("))
	e := entry(c, bClaim("INV-1"))
	if e == nil || !e.Required || e.Status != "active" || e.Facts["authority"] != "team" || e.Facts["worst_leg"] != "ok" {
		t.Fatalf("INV-1 %+v", e)
	}
	pinned := false
	for _, d := range e.DiscoveredBy {
		pinned = pinned || d.Edge == devcontext.EdgePins
	}
	if !pinned {
		t.Fatalf("INV-1's regex matches inside Initialize: %+v", e.DiscoveredBy)
	}
	if e := entry(c, bClaim("INV-4")); e == nil || !e.Required {
		t.Fatalf("INV-4 (retired, absent: a tombstone that gates) %+v", e)
	}
	if e := entry(c, bClaim("INV-2")); e == nil || e.Required {
		t.Fatalf("INV-2 (proposed) %+v", e)
	}
	if x := excluded(c, bClaim("INV-5")); x == nil || x.Reason != devcontext.ReasonStale {
		t.Fatalf("INV-5 (retired, not gating) %+v", x)
	}
	if entry(c, bClaim("INV-7")) != nil {
		t.Fatal("a leg over another repository covers this workspace")
	}
	// The exclusion keeps INV-2 off internal/cmd.
	c = compile(t, snap, at("internal/cmd/main.go", 11))
	if entry(c, bClaim("INV-2")) != nil {
		t.Fatal("INV-2 covers internal/cmd despite its exclusion")
	}
}
