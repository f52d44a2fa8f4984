package claims

import (
	"bytes"
	"strings"
)

// Unit is what a regex is tested against: a line, or a normalised statement
// in a `.sql` file. A unit that matches several times counts once.
type Unit struct {
	Text string
	Line int
}

// FileUnits is one file read for a run: its units, or Skipped when the file
// is binary or unreadable (it stays a member of the file set, never matches).
type FileUnits struct {
	Units   []Unit
	Skipped bool
	hay     string             // every unit, joined by newlines: one substring test per file
	lower   string             // hay lower-cased, when it is ASCII
	offs    []int              // where each unit starts in hay
	occ     map[string][]int32 // literal → units containing it (prefilter.go)
	every   []int32
}

func withHay(f FileUnits) FileUnits {
	var b strings.Builder
	f.offs = make([]int, len(f.Units))
	for i, u := range f.Units {
		f.offs[i] = b.Len()
		b.WriteString(u.Text)
		b.WriteByte('\n')
	}
	f.hay = b.String()
	return f
}

// binaryProbe is how far a NUL byte is looked for (digest §4.1).
const binaryProbe = 8192

// IsBinary reports a NUL byte in the first 8 KB.
func IsBinary(content []byte) bool {
	return bytes.IndexByte(content[:min(len(content), binaryProbe)], 0) >= 0
}

// SplitUnits cuts a file into matching units (digest §5, §6.1).
func SplitUnits(path string, content []byte) FileUnits {
	if IsBinary(content) {
		return FileUnits{Skipped: true}
	}
	text := string(content)
	if strings.HasSuffix(path, ".sql") { // exact lowercase suffix: .SQL is matched per line
		stmts := SplitSQL(text)
		units := make([]Unit, len(stmts))
		for i, s := range stmts {
			units[i] = Unit(s)
		}
		return withHay(FileUnits{Units: units})
	}
	var units []Unit
	n := 0
	for start := 0; start <= len(text); {
		n++
		end := strings.IndexByte(text[start:], '\n')
		if end < 0 {
			end = len(text)
		} else {
			end += start
		}
		line := strings.TrimSuffix(text[start:end], "\r")
		// A complete anchor comment quoted anywhere never satisfies or breaks
		// another leg (MV-82); a bare "@anchor" word hides nothing.
		if !(strings.Contains(line, "-->") && openerRe.MatchString(line)) {
			units = append(units, Unit{Text: line, Line: n})
		}
		start = end + 1
	}
	// A trailing newline does not open one more (empty) line.
	if len(units) > 0 && strings.HasSuffix(text, "\n") && units[len(units)-1].Line == n && units[len(units)-1].Text == "" {
		units = units[:len(units)-1]
	}
	return withHay(FileUnits{Units: units})
}
