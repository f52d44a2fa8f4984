package symbols

import "sync"

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
)

// symbolsFor builds every grammar's symbol table on first use.
func symbolsFor(lang Language) *symbolTable {
	symbolsOnce.Do(func() {
		symbolsByLang = make(map[Language]*symbolTable, len(specs))
		for l, spec := range specs {
			symbolsByLang[l] = buildSymbols(spec, grammar(l))
		}
	})
	return symbolsByLang[lang]
}
