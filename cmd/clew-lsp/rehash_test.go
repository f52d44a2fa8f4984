package main

import (
	"encoding/json"
	"strings"
	"testing"

	"golang.org/x/tools/txtar"

	"github.com/clew-lsp/clew-lsp/internal/workspace/wstest"
)

// TestRehashAfterSchemeChange simulates an upgrade of the hash scheme: the
// doc was pinned by a scheme-1 clew-lsp (its sha= values were written by
// that release on this very code, testdata/scheme/v1-pinned.txtar). Under
// scheme 2, whose Python rules hash block structure, route and retry cannot
// be compared and are unchecked (hash_scheme), never stale; plain and Sum
// hash alike under both and stay fresh. Then retry's code changes in a
// later commit: `confirm --rehash` re-pins route (unchanged since the
// commit that wrote its pin), plain and Sum, and lists retry.
func TestRehashAfterSchemeChange(t *testing.T) {
	ar, err := txtar.ParseFile("../../internal/workspace/testdata/scheme/v1-pinned.txtar")
	if err != nil {
		t.Fatal(err)
	}
	files := map[string]string{}
	for _, f := range ar.Files {
		files[f.Name] = string(f.Data)
	}
	r := wstest.New(t)
	r.Write(files)
	r.Commit("docs pinned by a scheme-1 release")
	r.Write(map[string]string{"pkg/flow.py": strings.Replace(files["pkg/flow.py"], "    return None", "    return False", 1)})
	r.Commit("retry gives False")

	states := func() map[string]string {
		out, _, _ := runCLI(t, "verify", r.Dir, "--check", "--json")
		var rep struct {
			Anchors []struct {
				QualifiedName string `json:"qualified_name"`
				State         string `json:"state"`
				Detail        struct {
					Reason string `json:"reason"`
				} `json:"detail"`
			} `json:"anchors"`
		}
		if err := json.Unmarshal([]byte(out), &rep); err != nil {
			t.Fatalf("%v\n%s", err, out)
		}
		m := map[string]string{}
		for _, a := range rep.Anchors {
			m[a.QualifiedName] = a.State + "/" + a.Detail.Reason
		}
		return m
	}
	want := map[string]string{"route": "unchecked/hash_scheme", "retry": "unchecked/hash_scheme",
		"plain": "fresh/identity_matched", "Sum": "fresh/identity_matched"}
	for k, v := range states() {
		if want[k] != v {
			t.Errorf("before rehash: %s is %s, want %s", k, v, want[k])
		}
	}
	if _, _, code := runCLI(t, "verify", r.Dir, "--check"); code != 0 {
		t.Errorf("unchecked must not gate: exit %d", code)
	}

	out, errOut, code := runCLI(t, "confirm", "--rehash", "--dir", r.Dir)
	if code != 1 {
		t.Fatalf("rehash: exit %d, want 1 (retry is left)\n%s\n%s", code, out, errOut)
	}
	for _, l := range []string{"rehashed docs/flow.md:3 (code unchanged since ", "rehashed docs/flow.md:10 (its hash is the same under both schemes)", "rehashed docs/flow.md:13"} {
		if !strings.Contains(out, l) {
			t.Errorf("stdout lacks %q:\n%s", l, out)
		}
	}
	if !strings.Contains(errOut, "not rehashed docs/flow.md:7: its code changed since ") || strings.Contains(out, "docs/flow.md:7") {
		t.Errorf("retry must be listed, not re-pinned:\nstdout %s\nstderr %s", out, errOut)
	}
	doc := r.Read("docs/flow.md")
	if strings.Count(doc, "sha=v2:") != 3 || !strings.Contains(doc, "function retry pkg/flow.py sha=0d775d1c04ec,5182f6dd0f10") {
		t.Errorf("doc after rehash:\n%s", doc)
	}
	want["route"], want["plain"], want["Sum"] = "fresh/identity_matched", "fresh/identity_matched", "fresh/identity_matched"
	for k, v := range states() {
		if want[k] != v {
			t.Errorf("after rehash: %s is %s, want %s", k, v, want[k])
		}
	}
	// A second run has nothing left but retry.
	if out, errOut, _ := runCLI(t, "confirm", "--rehash", "--dir", r.Dir); strings.Contains(out, "rehashed") || !strings.Contains(errOut, "docs/flow.md:7") {
		t.Errorf("second rehash: %q %q", out, errOut)
	}
}
