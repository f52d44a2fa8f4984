package workspace_test

import (
	"context"
	"encoding/json"
	"testing"

	"github.com/clew-lsp/clew-lsp/internal/workspace"
	"github.com/clew-lsp/clew-lsp/internal/workspace/disk"
	"github.com/clew-lsp/clew-lsp/internal/workspace/wstest"
)

const prepLaw = "# law\n\n| ID | statement | authority | state | date | source |\n| --- | --- | --- | --- | --- | --- |\n" +
	"| PAY-1 | pay is exported | x | active | 2026-01-01 | x |\n" +
	"<!-- @anchor PAY-1 brain:src/pay.ts /export function pay\\(/ -->\n" +
	"<!-- @anchor PAY-1 brain:src/**/*.ts /console\\.log\\(/ absent -->\n"

func claimsJSON(t *testing.T, rep *workspace.Report) string {
	t.Helper()
	b, err := json.Marshal(rep.Claims)
	if err != nil {
		t.Fatal(err)
	}
	return string(b)
}

// Warming the claims check ahead of it, while the anchors are checked,
// gives the check's very answer, and a snapshot with other buffers
// prepares its own: the law and the covered files are read once per
// snapshot, never carried over to one whose bytes differ.
func TestWarmClaimsSameAnswerPerSnapshot(t *testing.T) {
	r := wstest.New(t)
	r.Write(map[string]string{
		".multivac/config.yml":    "repos: {brain: .}\n",
		".multivac/invariants.md": prepLaw,
		"src/pay.ts":              "export function pay(x: number) { return x; }\n",
		"src/log.ts":              "export const quiet = true;\n",
	})
	r.Commit("init")
	ctx := context.Background()

	cold, err := disk.Load(r.Dir)
	if err != nil {
		t.Fatal(err)
	}
	want, err := cold.Check(ctx, workspace.CheckOptions{})
	if err != nil {
		t.Fatal(err)
	}
	if want.Exit != 0 || len(want.Claims) != 1 || want.Claims[0].State != "ok" {
		t.Fatalf("the law must hold: exit %d, %s", want.Exit, claimsJSON(t, want))
	}

	warm, err := disk.Load(r.Dir)
	if err != nil {
		t.Fatal(err)
	}
	warm.WarmClaims()
	warm.WarmClaims() // twice is once
	got, err := warm.Check(ctx, workspace.CheckOptions{})
	if err != nil {
		t.Fatal(err)
	}
	if claimsJSON(t, got) != claimsJSON(t, want) || got.Exit != want.Exit {
		t.Fatalf("warmed check differs:\n got %s\nwant %s", claimsJSON(t, got), claimsJSON(t, want))
	}

	// An unsaved buffer that breaks both legs: the new snapshot reads
	// the buffer, not what the warmed one prepared.
	edited := warm.WithOverlays(map[string][]byte{"src/pay.ts": []byte("function pay() { console.log(1) }\n")})
	edited.WarmClaims()
	bad, err := edited.Check(ctx, workspace.CheckOptions{})
	if err != nil {
		t.Fatal(err)
	}
	if bad.Exit != 1 || bad.Claims[0].State != "broken" {
		t.Fatalf("the edited buffer breaks PAY-1: exit %d, %s", bad.Exit, claimsJSON(t, bad))
	}
	// And the warmed snapshot still answers as it did.
	again, err := warm.Check(ctx, workspace.CheckOptions{})
	if err != nil {
		t.Fatal(err)
	}
	if claimsJSON(t, again) != claimsJSON(t, want) {
		t.Fatalf("a second check of the warmed snapshot differs:\n got %s\nwant %s", claimsJSON(t, again), claimsJSON(t, want))
	}
}
