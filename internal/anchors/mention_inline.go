package anchors

import (
	"regexp"
	"strings"
	"sync"
)

// codeSpan is one inline code span: its byte range (backticks included) and
// its content as CommonMark reads it (line breaks as spaces, one space
// stripped from each end when both ends have one).
type codeSpan struct {
	start, end int
	content    string
}

var (
	autolinkRE  = sync.OnceValue(func() *regexp.Regexp { return regexp.MustCompile(`^<[A-Za-z][A-Za-z0-9.+-]{1,31}:[^<> \t\r\n]*>`) })
	inlineTagRE = sync.OnceValue(func() *regexp.Regexp {
		return regexp.MustCompile(`^</?[A-Za-z][A-Za-z0-9-]*(?:\s+[A-Za-z_:][A-Za-z0-9_.:-]*(?:\s*=\s*(?:"[^"]*"|'[^']*'|[^\s"'=<>` + "`" + `]+))?)*\s*/?>`)
	})
)

// codeSpans finds the code spans of text[start:end] (one paragraph's
// lines). A backslash escapes a backtick outside code; an opening run of
// backticks closes at the next run of the same length, else it is literal
// text. HTML comments, autolinks and inline tags are skipped whole: a
// backtick inside them opens nothing.
func codeSpans(text string, start, end int) []codeSpan {
	s := text[start:end]
	var out []codeSpan
	for i := 0; i < len(s); {
		switch c := s[i]; {
		case c == '\\':
			i += 2
		case c == '<':
			i += skipInlineHTML(s[i:])
		case c == '`':
			n := runOf(s, i, '`')
			j := closingRun(s, i+n, n)
			if j < 0 {
				i += n // no closer: the run is literal text
				continue
			}
			out = append(out, codeSpan{start: start + i, end: start + j + n, content: spanContent(s[i+n : j])})
			i = j + n
		default:
			i++
		}
	}
	return out
}

// skipInlineHTML is how many bytes of s (starting with "<") an HTML
// comment, autolink or tag covers; 1 when it is a plain "<".
func skipInlineHTML(s string) int {
	if strings.HasPrefix(s, "<!--") {
		if j := strings.Index(s[4:], "-->"); j >= 0 {
			return 4 + j + 3
		}
		return len(s) // the comment runs past the paragraph
	}
	if m := autolinkRE().FindStringIndex(s); m != nil {
		return m[1]
	}
	if m := inlineTagRE().FindStringIndex(s); m != nil {
		return m[1]
	}
	return 1
}

func runOf(s string, i int, c byte) int {
	n := 0
	for i+n < len(s) && s[i+n] == c {
		n++
	}
	return n
}

// closingRun is the start of the next backtick run of exactly n at or
// after i, -1 when none.
func closingRun(s string, i, n int) int {
	for i < len(s) {
		j := strings.IndexByte(s[i:], '`')
		if j < 0 {
			return -1
		}
		k := runOf(s, i+j, '`')
		if k == n {
			return i + j
		}
		i += j + k
	}
	return -1
}

func spanContent(c string) string {
	c = strings.ReplaceAll(c, "\r\n", " ")
	c = strings.ReplaceAll(c, "\n", " ")
	if len(c) >= 2 && c[0] == ' ' && c[len(c)-1] == ' ' && strings.Trim(c, " ") != "" {
		c = c[1 : len(c)-1]
	}
	return c
}
