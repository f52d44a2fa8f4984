package anchors

import (
	"strconv"
	"strings"
	"unicode"

	"github.com/clew-lsp/clew-lsp/internal/anchors/hash"
)

// Section is one heading's part of a Markdown doc: from the heading line to
// the line before the next heading of the same or a higher level.
type Section struct {
	Slug      string // GitHub's anchor for the heading, numbered when repeated
	Heading   string
	Level     int
	StartLine int // 1-based, the heading line
	EndLine   int // 1-based, inclusive
	BodyHash  string
}

// Sections lists a doc's ATX headings (outside fenced code) as sections.
// The hash covers the section's lines after its heading, so a renamed
// heading over an unchanged body can be found again.
func Sections(text []byte) []Section {
	lines := hash.SplitLines(text)
	type head struct {
		line, level int
		text        string
	}
	var heads []head
	fence := ""
	for i, l := range lines {
		t := strings.TrimLeft(l, " ")
		if len(l)-len(t) > 3 {
			continue
		}
		if f := fenceOf(t); f != "" {
			switch {
			case fence == "":
				fence = f
			case strings.HasPrefix(t, fence) && strings.TrimSpace(strings.TrimLeft(t, fence[:1])) == "":
				fence = ""
			}
			continue
		}
		if fence != "" {
			continue
		}
		if lvl, txt, ok := atxHeading(t); ok {
			heads = append(heads, head{i + 1, lvl, txt})
		}
	}
	seen := map[string]int{}
	out := make([]Section, 0, len(heads))
	for i, h := range heads {
		end := len(lines)
		for _, n := range heads[i+1:] {
			if n.level <= h.level {
				end = n.line - 1
				break
			}
		}
		base := Slug(h.text)
		slug := base
		if n := seen[base]; n > 0 {
			slug = base + "-" + strconv.Itoa(n)
		}
		seen[base]++
		body := strings.Join(lines[h.line:end], "\n")
		out = append(out, Section{Slug: slug, Heading: h.text, Level: h.level,
			StartLine: h.line, EndLine: end, BodyHash: hash.Doc([]byte(body))})
	}
	return out
}

func fenceOf(t string) string {
	for _, f := range []string{"```", "~~~"} {
		if strings.HasPrefix(t, f) {
			n := len(t) - len(strings.TrimLeft(t, f[:1]))
			return strings.Repeat(f[:1], n)
		}
	}
	return ""
}

// atxHeading reads "## Title ##" into its level and text.
func atxHeading(t string) (int, string, bool) {
	n := len(t) - len(strings.TrimLeft(t, "#"))
	if n < 1 || n > 6 || (len(t) > n && t[n] != ' ' && t[n] != '\t') {
		return 0, "", false
	}
	txt := strings.TrimSpace(t[n:])
	// A closing run of #s is not part of the text.
	if s := strings.TrimRight(txt, "#"); s != txt && (s == "" || strings.HasSuffix(s, " ")) {
		txt = strings.TrimSpace(s)
	}
	return n, txt, true
}

// Slug is GitHub's heading anchor: lower case, inline markup and
// punctuation dropped (hyphens and underscores kept), spaces to hyphens.
// Letters and digits of every script stay.
func Slug(heading string) string {
	var b strings.Builder
	for _, r := range stripInline(heading) {
		switch {
		case r == ' ':
			b.WriteByte('-')
		case r == '-' || r == '_':
			b.WriteRune(r)
		case unicode.IsLetter(r) || unicode.IsDigit(r) || unicode.Is(unicode.Mn, r):
			b.WriteRune(unicode.ToLower(r))
		}
	}
	return b.String()
}

// stripInline keeps a link's text and drops HTML tags, as GitHub's
// rendered heading text has them.
func stripInline(s string) string {
	var b strings.Builder
	for i := 0; i < len(s); i++ {
		switch s[i] {
		case '<':
			if j := strings.IndexByte(s[i:], '>'); j > 0 {
				i += j
				continue
			}
		case '[':
			// [text](url) → text
			if j := strings.Index(s[i:], "]("); j > 0 {
				if k := strings.IndexByte(s[i+j:], ')'); k > 0 {
					b.WriteString(s[i+1 : i+j])
					i += j + k
					continue
				}
			}
		}
		b.WriteByte(s[i])
	}
	return b.String()
}

// resolveSection binds a doc anchor to one section: by slug (fresh or
// stale by the section's body), else by an identical body under another
// heading (the heading was renamed: rebind rewrites the slug), else lost
// with the closest slugs as suggestions.
func resolveSection(a Anchor, content []byte) Result {
	secs := Sections(content)
	bind := func(s Section) *Binding {
		return &Binding{Form: FormDoc, Kind: "doc", Path: a.Path, Section: s.Slug,
			StartLine: s.StartLine, EndLine: s.EndLine, DeclHash: s.BodyHash, Signature: s.Heading}
	}
	for _, s := range secs {
		if s.Slug != a.Section {
			continue
		}
		d := Detail{Reason: ReasonIdentityMatched, Path: a.Path, LineStart: s.StartLine, LineEnd: s.EndLine}
		switch {
		case !a.Pinned():
			d.Reason = ReasonUnpinned
			return Result{State: StateUnpinned, Detail: d, Found: bind(s)}
		case s.BodyHash == a.DeclSHA:
			return Result{State: StateFresh, Detail: d, Found: bind(s)}
		}
		d.Reason, d.ExpectedHash, d.ActualHash = ReasonContentChanged, a.DeclSHA, s.BodyHash
		return Result{State: StateStale, Detail: d, Found: bind(s)}
	}
	if a.Pinned() {
		var same []Section
		for _, s := range secs {
			if s.BodyHash == a.DeclSHA && strings.TrimSpace(s.Heading) != "" {
				same = append(same, s)
			}
		}
		if len(same) == 1 {
			s := same[0]
			return Result{State: StateMovedRenamed, Found: bind(s), Detail: Detail{Reason: ReasonRenamed,
				Path: a.Path, LineStart: s.StartLine, LineEnd: s.EndLine, RenamedTo: s.Slug}}
		}
		if len(same) > 1 {
			r := Result{State: StateLost, Detail: Detail{Reason: ReasonAmbiguous, Path: a.Path}}
			for _, s := range same {
				r.Detail.Candidates = append(r.Detail.Candidates, sectionCandidate(a.Path, s))
			}
			return r
		}
	}
	r := Result{State: StateLost, Detail: Detail{Reason: ReasonSectionMissing, Path: a.Path}}
	r.Detail.Suggestions = closestSections(a.Section, a.Path, secs)
	return r
}

func sectionCandidate(path string, s Section) Candidate {
	return Candidate{Path: path, QualifiedName: s.Slug, Kind: "doc", LineStart: s.StartLine}
}

// closestSections suggests up to three slugs within a small edit distance.
func closestSections(slug, path string, secs []Section) []Candidate {
	type scored struct {
		s Section
		d int
	}
	var c []scored
	for _, s := range secs {
		limit := max(2, len(slug)/3)
		if d := levenshtein(slug, s.Slug, limit+1); d <= limit {
			c = append(c, scored{s, d})
		}
	}
	for i := 1; i < len(c); i++ {
		for j := i; j > 0 && c[j].d < c[j-1].d; j-- {
			c[j], c[j-1] = c[j-1], c[j]
		}
	}
	var out []Candidate
	for i := 0; i < len(c) && i < 3; i++ {
		out = append(out, sectionCandidate(path, c[i].s))
	}
	return out
}
