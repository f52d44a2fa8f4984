package query

import (
	"fmt"
	"regexp"
	"strings"
	"sync"

	"github.com/clew-lsp/clew-lsp/internal/claims"
	"github.com/clew-lsp/clew-lsp/internal/workspace"
)

// Completion inside `<!-- @anchor ` (docs/server.md): the claim IDs of the law's
// rows for the first word, then the repo keys of `.multivac/config.yml`
// (`brain`, `*`, each `repos:` key) followed by `:` for the second. Globs,
// regexes and modes are left to the author.

const (
	CompleteClaim CompletionKind = "claim" // a claim ID of the law
	CompleteRepo  CompletionKind = "repo"  // a repo key and its colon
)

var qClaimOpenerRE = sync.OnceValue(func() *regexp.Regexp { return regexp.MustCompile(`<!--\s*@anchor\b`) })

// completeClaimLeg answers completion at off when the cursor is inside an
// `@anchor` comment; ok is false when it is not (the `@code` completion
// then has its turn).
func completeClaimLeg(s *workspace.Snapshot, doc string, text []byte, off int) (Completions, bool) {
	ls := off
	for ls > 0 && text[ls-1] != '\n' {
		ls--
	}
	prefix := string(text[ls:off])
	locs := qClaimOpenerRE().FindAllStringIndex(prefix, -1)
	if len(locs) == 0 {
		return Completions{}, false
	}
	body := prefix[locs[len(locs)-1][1]:]
	if code := qCodeOpenerRE().FindAllStringIndex(prefix, -1); len(code) > 0 && code[len(code)-1][0] > locs[len(locs)-1][0] {
		return Completions{}, false // a `@code` comment opened after it
	}
	if strings.Contains(body, "-->") {
		return Completions{}, false
	}
	if body == "" || !qIsBlank(body[0]) {
		return Completions{}, true // `@anchorX`, or no space yet
	}
	words := qAnchorWords(body)
	partial := ""
	if !qIsBlank(body[len(body)-1]) && len(words) > 0 {
		partial, words = words[len(words)-1], words[:len(words)-1]
	}
	replace := Location{Path: doc, StartByte: off - len(partial), EndByte: off}
	switch {
	case len(words) == 0:
		return completeClaimIDs(s, partial, replace), true
	case len(words) == 1 && !strings.Contains(partial, ":"):
		return completeRepoKeys(s, partial, replace), true
	}
	return Completions{}, true
}

func completeClaimIDs(s *workspace.Snapshot, partial string, replace Location) Completions {
	var out Completions
	text, ok := s.Text(claims.LawFile)
	if !ok {
		return out
	}
	rows, _ := claims.ParseRows(text)
	seen := map[string]bool{}
	for _, row := range rows {
		if seen[row.ID] || !strings.HasPrefix(strings.ToLower(row.ID), strings.ToLower(partial)) {
			continue
		}
		seen[row.ID] = true
		if len(out.Items) == qMaxCompletions {
			out.Incomplete = true
			break
		}
		detail := row.Statement
		if r := []rune(detail); len(r) > 80 {
			detail = string(r[:79]) + "…"
		}
		if row.State != "" {
			detail = row.State + " · " + detail
		}
		out.Items = append(out.Items, Completion{Label: row.ID, Detail: detail, Kind: CompleteClaim, Replace: replace,
			SortText: fmt.Sprintf("%05d", len(out.Items))})
	}
	return out
}

func completeRepoKeys(s *workspace.Snapshot, partial string, replace Location) Completions {
	type key struct{ name, detail string }
	keys := []key{{"brain", "this brain's own repository"}, {"*", "every declared repository"}}
	cfg, _, _ := s.ClaimsConfig()
	for _, e := range cfg.Repos {
		detail := "repository"
		if e.Path != "" {
			detail = "repository at " + e.Path
		}
		keys = append(keys, key{e.Key, detail})
	}
	var out Completions
	seen := map[string]bool{}
	for _, k := range keys {
		label := k.name + ":"
		if seen[label] || !strings.HasPrefix(label, partial) {
			continue
		}
		seen[label] = true
		out.Items = append(out.Items, Completion{Label: label, Detail: k.detail, Kind: CompleteRepo, Replace: replace,
			SortText: fmt.Sprintf("%05d", len(out.Items))})
	}
	return out
}
