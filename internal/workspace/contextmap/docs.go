package contextmap

import (
	"bytes"
	"fmt"
	"path"
	"regexp"
	"strings"
	"sync"
	"time"

	"go.yaml.in/yaml/v3"

	"github.com/clew-lsp/clew-lsp/internal/devcontext"
)

// cxDoc is one Markdown file as the context compiler sees it: an AGENTS.md,
// a README, an ADR-like decision record, or a plain doc.
type cxDoc struct {
	path, dir  string
	kind       string
	uri        string
	title      string
	text       string
	status     string
	version    string
	aliases    []string
	supersedes []string // ADR ids (or file stems) it stands in for
	decides    []string // workspace paths its front matter says it governs
	cites      []devcontext.Cite
	links      []string // workspace paths of the documents it links to
}

// adrDirs are directory names whose Markdown files with a status are
// decision records even without a declared id.
var adrDirs = map[string]bool{"adr": true, "adrs": true, "decisions": true, "decision-records": true, "decision": true, "rfcs": true}

// parseCxDoc classifies one doc (docs/context.md: ADR-like docs are Markdown files
// with front matter id, status and supersedes) and reads what the world
// needs from it: title, status, version, supersedes, decides, cited
// commits, and links to other docs.
func parseCxDoc(p string, text []byte) *cxDoc {
	d := &cxDoc{path: p, dir: path.Dir(p), text: string(text)}
	fm, body := frontMatter(text)
	base := path.Base(p)
	stem := strings.TrimSuffix(base, path.Ext(base))
	id := fmString(fm["id"])
	d.status = strings.ToLower(fmString(fm["status"]))
	d.version = firstNonEmpty(fmString(fm["updated_at"]), fmString(fm["version"]), fmString(fm["date"]), fmString(fm["created_at"]))
	supersedes := fmList(fm["supersedes"])
	switch {
	case base == "AGENTS.md":
		d.kind, d.uri = devcontext.KindAgents, devcontext.AgentsURI(d.dir)
	case strings.EqualFold(stem, "README"):
		d.kind, d.uri = devcontext.KindReadme, devcontext.ReadmeURI(p)
	case d.status != "" && (id != "" || len(supersedes) > 0 || adrDirs[path.Base(d.dir)]):
		d.kind = devcontext.KindADR
		if id == "" {
			id = stem
		}
		d.uri = devcontext.ADRURI(id)
		if id != stem {
			d.aliases = []string{devcontext.ADRURI(stem)}
		}
		d.supersedes = supersedes
		d.decides = fmList(fm["decides"])
		for _, c := range append(fmList(fm["commits"]), fmList(fm["commit"])...) {
			d.cites = append(d.cites, devcontext.Cite{Commit: c})
		}
	default:
		d.kind, d.uri = devcontext.KindDoc, devcontext.DocURI(p)
	}
	d.title = firstNonEmpty(firstHeading(body), fmString(fm["title"]), id, base)
	d.links = docLinks(d.dir, body)
	return d
}

// frontMatter splits a leading `---` YAML block off; broken YAML is no
// front matter.
func frontMatter(text []byte) (map[string]any, []byte) {
	t := bytes.TrimPrefix(text, []byte("\xef\xbb\xbf"))
	if !bytes.HasPrefix(t, []byte("---\n")) && !bytes.HasPrefix(t, []byte("---\r\n")) {
		return nil, text
	}
	rest := t[bytes.IndexByte(t, '\n')+1:]
	for off := 0; off < len(rest); {
		end := bytes.IndexByte(rest[off:], '\n')
		line := rest[off:]
		next := len(rest)
		if end >= 0 {
			line, next = rest[off:off+end], off+end+1
		}
		if l := bytes.TrimRight(line, "\r"); bytes.Equal(l, []byte("---")) || bytes.Equal(l, []byte("...")) {
			var m map[string]any
			if yaml.Unmarshal(rest[:off], &m) != nil {
				return nil, text
			}
			return m, rest[next:]
		}
		off = next
	}
	return nil, text
}

func fmString(v any) string {
	switch x := v.(type) {
	case nil:
		return ""
	case string:
		return strings.TrimSpace(x)
	case time.Time:
		if x.Hour() == 0 && x.Minute() == 0 && x.Second() == 0 {
			return x.Format("2006-01-02")
		}
		return x.UTC().Format(time.RFC3339)
	}
	return strings.TrimSpace(fmt.Sprint(v))
}

// fmList reads a scalar or a list; a scalar may hold several values
// separated by commas.
func fmList(v any) []string {
	var out []string
	add := func(s string) {
		for _, part := range strings.Split(s, ",") {
			if part = strings.TrimSpace(part); part != "" {
				out = append(out, part)
			}
		}
	}
	switch x := v.(type) {
	case []any:
		for _, e := range x {
			add(fmString(e))
		}
	case nil:
	default:
		add(fmString(x))
	}
	return out
}

func firstNonEmpty(xs ...string) string {
	for _, x := range xs {
		if x != "" {
			return x
		}
	}
	return ""
}

func firstHeading(body []byte) string {
	for _, line := range strings.Split(string(body), "\n") {
		t := strings.TrimSpace(line)
		if strings.HasPrefix(t, "#") {
			h := strings.TrimSpace(strings.TrimLeft(t, "#"))
			if h != "" && len(t) > len(strings.TrimLeft(t, "#")) && strings.HasPrefix(strings.TrimLeft(t, "#"), " ") {
				return h
			}
		}
	}
	return ""
}

var mdLinkRE = sync.OnceValue(func() *regexp.Regexp { return regexp.MustCompile(`\]\(\s*<?([^)\s>]+)>?(?:\s+"[^"]*")?\s*\)`) })

// docLinks resolves the relative Markdown links of a doc to workspace
// paths; external links and pure fragments are skipped.
func docLinks(dir string, body []byte) []string {
	var out []string
	seen := map[string]bool{}
	for _, m := range mdLinkRE().FindAllSubmatch(body, -1) {
		t := string(m[1])
		if strings.Contains(t, "://") || strings.HasPrefix(t, "mailto:") || strings.HasPrefix(t, "#") {
			continue
		}
		if i := strings.IndexAny(t, "#?"); i >= 0 {
			t = t[:i]
		}
		if t == "" {
			continue
		}
		var p string
		if strings.HasPrefix(t, "/") {
			p = path.Clean(strings.TrimLeft(t, "/"))
		} else {
			p = path.Join(dir, t)
		}
		if p == "." || strings.HasPrefix(p, "../") || p == ".." || seen[p] {
			continue
		}
		seen[p] = true
		out = append(out, p)
	}
	return out
}
