package symbols

import (
	"context"
	"sync"

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

// parseBudgetMicros bounds one parse. Some grammars' error recovery loops
// forever on garbage (found by fuzzing Swift). The bound is wall-clock time:
// a healthy parse runs at well under 1µs per byte on an idle core, but a
// machine with many times more runnable threads than cores stretches that
// by the same factor, and a parse that times out turns a fresh anchor into
// a repository-wide search. 10µs per byte keeps a 400 KB file (net/http's
// h2_bundle.go) parsing on a 2-core machine at load 30.
func parseBudgetMicros(n int) int {
	return 1_000_000 + 10*n
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
	p.SetOperationLimit(parseBudgetMicros(len(src)))
	if mu := serialGrammars[lang]; mu != nil {
		mu.Lock()
		defer mu.Unlock()
	}
	tree, err := p.ParseCtx(context.Background(), old, src)
	if err != nil || tree == nil {
		// A failed parser may hold state; do not reuse it.
		p.Close()
		return nil
	}
	putParser(lang, p)
	return tree
}
