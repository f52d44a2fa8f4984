package claims

import "bytes"

// Unit is what a regex is tested against: a line, or a normalised statement
// in a `.sql` file. A unit that matches several times counts once.
type Unit struct {
	Text string
	Line int
}

// FileUnits is one file cut into units, or Skipped when the file is binary
// (it stays a member of the file set, never matches). The engine streams
// units (eachLine, eachStatement) and never builds this list; it is the
// reference the tests compare the one-pass scanner against.
type FileUnits struct {
	Units   []Unit
	Skipped bool
}

// binaryProbe is how far a NUL byte is looked for (docs/claims.md).
const binaryProbe = 8192

// IsBinary reports a NUL byte in the first 8 KB.
func IsBinary(content []byte) bool {
	return bytes.IndexByte(content[:min(len(content), binaryProbe)], 0) >= 0
}

// SplitUnits cuts a file into matching units (docs/claims.md), exactly as
// the scanner walks them.
func SplitUnits(path string, content []byte) FileUnits {
	if IsBinary(content) {
		return FileUnits{Skipped: true}
	}
	var units []Unit
	if isSQLPath(path) {
		eachStatement(string(content), func(s Statement) { units = append(units, Unit(s)) })
	} else {
		eachLine(content, func(line []byte, n int) { units = append(units, Unit{Text: string(line), Line: n}) })
	}
	return FileUnits{Units: units}
}

// isSQLPath: the exact lowercase suffix; `.SQL` is matched per line.
func isSQLPath(p string) bool { return len(p) >= 4 && p[len(p)-4:] == ".sql" }
