package symbols

import (
	"sync"
	"time"

	sitter "github.com/smacker/go-tree-sitter"
)

// A small free list per language keeps parsers alive between calls without
// relying on finalizers: parsers beyond the cap are closed at once.
const parsersPerLanguage = 4

var freeParsers = func() map[Language]chan *sitter.Parser {
	m := make(map[Language]chan *sitter.Parser, len(grammarOf))
	for l := range grammarOf {
		m[l] = make(chan *sitter.Parser, parsersPerLanguage)
	}
	return m
}()

func getParser(lang Language) *sitter.Parser {
	select {
	case p := <-freeParsers[lang]:
		return p
	default:
	}
	p := sitter.NewParser()
	p.SetLanguage(grammar(lang))
	return p
}

func putParser(lang Language, p *sitter.Parser) {
	p.Reset()
	select {
	case freeParsers[lang] <- p:
	default:
		p.Close()
	}
}

// serialGrammars parse one file at a time: tree-sitter-lua's external
// scanner keeps its state in C globals (ending_char, level_count), so two
// parses at once corrupt each other's tokens (TestConcurrentParse caught
// it as differing hashes).
var serialGrammars = map[Language]*sync.Mutex{Lua: {}}

// parseBudget bounds one parse. Some grammars' error recovery loops
// forever on garbage (found by fuzzing Swift). A healthy parse runs at
// well under 1µs per byte; the bound is the parsing thread's processor
// time where it can be read (parsebound.go), so a loaded machine does not
// cut a healthy parse, and wall-clock time elsewhere, where 10µs per byte
// keeps a 400 KB file (net/http's h2_bundle.go) parsing on a 2-core
// machine at load 30.
func parseBudget(n int) time.Duration {
	return time.Second + time.Duration(n)*10*time.Microsecond
}

// parseTree parses src; the caller must Close the returned tree. nil when the
// language is unknown or tree-sitter gave up. old, when not nil, is the
// tree of an earlier text, already edited (Tree.Edit) to match src: its
// unchanged parts are reused (incremental parsing; Reparser).
func parseTree(lang Language, src []byte, old *sitter.Tree) *sitter.Tree {
	if _, ok := grammarOf[lang]; !ok {
		return nil
	}
	p := getParser(lang)
	if mu := serialGrammars[lang]; mu != nil {
		mu.Lock()
		defer mu.Unlock()
	}
	tree, err := parseBounded(p, old, src, parseBudget(len(src)))
	if err != nil || tree == nil {
		// A failed parser may hold state; do not reuse it.
		p.Close()
		return nil
	}
	putParser(lang, p)
	return tree
}
