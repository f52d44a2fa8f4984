package symbols

import (
	"sort"
	"sync"
)

// specs is the per-language table the generic machinery reads.
var specs = map[Language]*langSpec{
	Go:         goSpec,
	TypeScript: tsSpec,
	TSX:        tsxSpec,
	JavaScript: jsSpec,
	Python:     pySpec,
	Rust:       rustSpec,
	Java:       javaSpec,
	Kotlin:     kotlinSpec,
	Swift:      swiftSpec,
	C:          cSpec,
	CPP:        cppSpec,
	CSharp:     csharpSpec,
	Protobuf:   protoSpec,
	SQL:        sqlSpec,
	Terraform:  hclSpec,
	Ruby:       rubySpec,
	PHP:        phpSpec,
	Scala:      scalaSpec,
	Lua:        luaSpec,
	Bash:       bashSpec,
	Elixir:     elixirSpec,
}

var (
	symbolsOnce   sync.Once
	symbolsByLang map[Language]*symbolTable
	symbolTables  []*symbolTable // by id: a flattened node names its table by index
)

// symbolsFor builds every grammar's symbol table on first use.
func symbolsFor(lang Language) *symbolTable {
	symbolsOnce.Do(func() {
		langs := make([]Language, 0, len(specs))
		for l := range specs {
			langs = append(langs, l)
		}
		sort.Slice(langs, func(i, j int) bool { return langs[i] < langs[j] })
		symbolsByLang = make(map[Language]*symbolTable, len(specs))
		for _, l := range langs {
			st := buildSymbols(specs[l], grammar(l))
			st.id = uint8(len(symbolTables))
			symbolTables = append(symbolTables, st)
			symbolsByLang[l] = st
		}
	})
	return symbolsByLang[lang]
}
