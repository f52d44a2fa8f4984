package claims

import (
	"fmt"
	"strings"
)

// countClaim is the placeholder ID a count spec is wrapped in, so it shares
// the anchor grammar and the dialect gate (docs/claims.md).
const countClaim = "COUNT"

// Count dry-runs one leg spec `<repo>:<glob> [!<glob> …] /<regex>/[i] [each|each!]`
// over the same sources verify reads, and returns the text to print and
// the exit code: 0 whatever the count, 2 for a malformed spec, a dialect
// error, an unknown repo key or a glob that does not compile.
func Count(spec string, cfg Config, repos []Repo) (string, int) {
	pl, msg := parseBody(countClaim + " " + strings.TrimSpace(spec))
	if msg != "" {
		return "count: " + msg + "\n", 2
	}
	l := &pl.Leg
	e := newEvaluator(Input{Config: cfg, Repos: repos})
	if k := e.unknownKey(l); k != "" {
		return fmt.Sprintf("count: unknown repo key %q — declare it under repos: in %s\n", k, ConfigFile), 2
	}
	if msg := e.globError(l); msg != "" {
		return "count: " + msg + "\n", 2
	}
	var b strings.Builder
	var onDisk []Repo
	for _, r := range e.targets(l) {
		fmt.Fprintf(&b, "  %-9s %s\n", "read", ReadLine(r.Key(), r.Facts()))
		if r.OnDisk() {
			onDisk = append(onDisk, r)
		}
	}
	if len(onDisk) == 0 {
		fmt.Fprintf(&b, "%s: not on disk — nothing to count; run `multivac repos sync`\n", l.Repo)
		return b.String(), 2
	}
	job := e.prepare(l, "")
	job.keepAll = true // the dry run lists every file's count
	e.batch([]*legJob{job}, false)
	files, matching, total := 0, 0, 0
	var lacking, offending []string
	next := 0 // job.matches walks with the entries
	for k, m := range job.set.entries {
		files++
		n := 0
		if next < len(job.matches) && int(job.matches[next].k) == k {
			n = len(job.matches[next].lines)
			next++
		}
		total += n
		label := m.path
		if l.Repo == "*" {
			label = m.label()
		}
		if n > 0 {
			matching++
			offending = append(offending, label)
		} else {
			lacking = append(lacking, label)
		}
		if n > 0 || l.Mode == ModeEach {
			fmt.Fprintf(&b, "%s  %d\n", label, n)
		}
	}
	switch {
	case files == 0:
		fmt.Fprintf(&b, "glob matched no tracked files in %s — an anchor on it would be vacuous\n", l.Repo)
	case l.Mode == ModeEach && !l.Negated:
		fmt.Fprintf(&b, "%d of %d tracked files match — each would fail on %d %s%s\n", matching, files, len(lacking), plural(len(lacking), "file", "files"), parenList(lacking))
	case l.Mode == ModeEach:
		fmt.Fprintf(&b, "%d of %d tracked files match — each! would fail on %d %s%s\n", matching, files, matching, plural(matching, "file", "files"), parenList(offending))
	default:
		fmt.Fprintf(&b, "%d %s in %d tracked %s — a ratchet pins count=%d", total, plural(total, "match", "matches"), files, plural(files, "file", "files"), total)
		switch matching {
		case files:
			b.WriteString("; every file matches — `each` would hold that per file")
		case 0:
			b.WriteString("; no file matches — `each!` would hold that per file")
		default:
			fmt.Fprintf(&b, "; %d of %d files match — `each` or `each!` would judge per file", matching, files)
		}
		b.WriteString("\n")
	}
	return b.String(), 0
}

func parenList(items []string) string {
	if len(items) == 0 {
		return ""
	}
	return " (" + capList(items, 3, " +") + ")"
}
