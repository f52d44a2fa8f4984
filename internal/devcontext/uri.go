package devcontext

import (
	"path"
	"strconv"
	"strings"
)

// Canonical identifiers, clew://<kind>/<identity> (docs/context.md). The identity
// is stable across retitling; `@<n>` suffixes are reserved for real revisions
// because the version de-duplication keys on them.
const scheme = "clew://"

// SymbolURI names a declaration: import path, ".", qualified name.
func SymbolURI(importPath, qualifiedName string) string {
	return scheme + KindSymbol + "/" + importPath + "." + qualifiedName
}

// TestURI names a test function: import path, ".", test name.
func TestURI(importPath, name string) string {
	return scheme + KindTest + "/" + importPath + "." + name
}

// FileURI names a source file by repository-relative path.
func FileURI(p string) string { return scheme + KindFile + "/" + p }

// DocURI names a Markdown file.
func DocURI(p string) string { return scheme + KindDoc + "/" + p }

// ReadmeURI names a README.
func ReadmeURI(p string) string { return scheme + KindReadme + "/" + p }

// PassageURI names the n-th (from 1) anchor of a symbol in a doc.
func PassageURI(doc, qualifiedName string, n int) string {
	return scheme + KindPassage + "/" + doc + "#" + qualifiedName + "-" + strconv.Itoa(n)
}

// ADRURI names a decision record by its declared id (else its file stem).
func ADRURI(id string) string { return scheme + KindADR + "/" + id }

// AgentsURI names an AGENTS.md by its directory ("." for the root).
func AgentsURI(dir string) string { return scheme + KindAgents + "/" + dir }

// ClaimURI names a claims row by id (optionally id@revision).
func ClaimURI(id string) string { return scheme + KindClaim + "/" + id }

// CommitURI names a commit by full sha.
func CommitURI(sha string) string { return scheme + KindCommit + "/" + sha }

// LocalDiffURI names the uncommitted change of one file.
func LocalDiffURI(p string) string { return "local:diff/" + p }

// KindOfURI reads the kind back from an identifier; "" when it has none.
// It types dangling references, which have no node to ask.
func KindOfURI(uri string) string {
	if strings.HasPrefix(uri, "local:") {
		return KindLocal
	}
	rest, ok := strings.CutPrefix(uri, scheme)
	if !ok {
		return ""
	}
	kind, _, ok := strings.Cut(rest, "/")
	if !ok {
		return ""
	}
	return kind
}

// dirOf is the directory of a repository-relative path: "." for the root,
// never empty.
func dirOf(p string) string {
	if p == "" {
		return "."
	}
	return path.Dir(p)
}

// under reports whether p is scope or below it, by whole path segments:
// "lib" holds "lib" and "lib/x.go", not "library/x.go".
func under(p, scope string) bool {
	if scope == "." || scope == "" {
		return true
	}
	return p == scope || strings.HasPrefix(p, scope+"/")
}

// versionOf splits a trailing "@<integer>" revision off an identifier.
func versionOf(uri string) (base string, n int, ok bool) {
	i := strings.LastIndexByte(uri, '@')
	if i < 0 || i == len(uri)-1 {
		return "", 0, false
	}
	v, err := strconv.Atoi(uri[i+1:])
	if err != nil || v < 0 || strings.ContainsAny(uri[i+1:], "+-") {
		return "", 0, false
	}
	return uri[:i], v, true
}
