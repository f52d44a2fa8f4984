package gitstate

import (
	"bufio"
	"bytes"
	"os"
	"path/filepath"
	"strings"

	"github.com/go-git/go-git/v5/plumbing/format/gitignore"
)

// IgnoreScope is the ignore rules in force in one directory of a walk:
// .git/info/exclude and the .gitignore files from the work tree's top down
// to that directory. A lister walks the tree once, entering each directory
// with its own .gitignore, instead of a first walk that collects every
// .gitignore of the tree and a second that lists it (go-git's
// gitignore.ReadPatterns followed by a listing): on a large tree that
// first walk was most of a load. The patterns and their precedence are the
// ones ReadPatterns gives for every path under the directory.
type IgnoreScope struct {
	dir []string // the directory, as path parts from the work tree's top
	ps  []gitignore.Pattern
}

// RootScope is the scope of the workspace folder: .git/info/exclude, then
// the .gitignore of the top and of every directory down to the folder.
func (g *Repo) RootScope() *IgnoreScope {
	s := &IgnoreScope{}
	s.ps = readPatternFile(filepath.Join(g.top, ".git", "info", "exclude"), nil)
	s.ps = append(s.ps, readPatternFile(filepath.Join(g.top, ".gitignore"), nil)...)
	if g.prefix == "" {
		return s
	}
	ignored := false
	for _, part := range strings.Split(strings.TrimSuffix(g.prefix, "/"), "/") {
		dir := append(append([]string(nil), s.dir...), part)
		// An ignored directory's .gitignore, and those below it, are never
		// read.
		ignored = ignored || s.match(dir, true)
		s.dir = dir
		if !ignored {
			s.ps = append(s.ps, readPatternFile(filepath.Join(append([]string{g.top}, dir...)...), dir)...)
		}
	}
	return s
}

// readPatternFile reads dir's .gitignore (or the exclude file itself when
// dir is nil and the path names it) as go-git does: one pattern a line,
// blank lines and # comments skipped.
func readPatternFile(path string, dir []string) []gitignore.Pattern {
	if dir != nil {
		path = filepath.Join(path, ".gitignore")
	}
	b, err := os.ReadFile(path)
	if err != nil {
		return nil
	}
	return parsePatterns(b, dir)
}

func parsePatterns(b []byte, dir []string) []gitignore.Pattern {
	var ps []gitignore.Pattern
	sc := bufio.NewScanner(bytes.NewReader(b))
	for sc.Scan() {
		s := sc.Text()
		if !strings.HasPrefix(s, "#") && len(strings.TrimSpace(s)) > 0 {
			ps = append(ps, gitignore.ParsePattern(s, dir))
		}
	}
	return ps
}

// Enter returns the scope of the sub-directory name, given the content of
// its .gitignore (nil when it has none).
func (s *IgnoreScope) Enter(name string, gitignoreFile []byte) *IgnoreScope {
	dir := append(append(make([]string, 0, len(s.dir)+1), s.dir...), name)
	if len(gitignoreFile) == 0 {
		return &IgnoreScope{dir: dir, ps: s.ps}
	}
	ps := append(append(make([]gitignore.Pattern, 0, len(s.ps)+8), s.ps...), parsePatterns(gitignoreFile, dir)...)
	return &IgnoreScope{dir: dir, ps: ps}
}

// Ignored reports whether the entry name of the scope's directory is
// ignored.
func (s *IgnoreScope) Ignored(name string, isDir bool) bool {
	if len(s.ps) == 0 {
		return false
	}
	return s.match(append(append(make([]string, 0, len(s.dir)+1), s.dir...), name), isDir)
}

func (s *IgnoreScope) match(path []string, isDir bool) bool {
	return gitignore.NewMatcher(s.ps).Match(path, isDir)
}
