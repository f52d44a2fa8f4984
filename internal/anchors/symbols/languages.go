package symbols

import (
	"sort"
	"strings"
	"sync"

	sitter "github.com/smacker/go-tree-sitter"
	"github.com/smacker/go-tree-sitter/bash"
	"github.com/smacker/go-tree-sitter/c"
	"github.com/smacker/go-tree-sitter/cpp"
	"github.com/smacker/go-tree-sitter/csharp"
	"github.com/smacker/go-tree-sitter/elixir"
	"github.com/smacker/go-tree-sitter/golang"
	"github.com/smacker/go-tree-sitter/hcl"
	"github.com/smacker/go-tree-sitter/java"
	"github.com/smacker/go-tree-sitter/javascript"
	"github.com/smacker/go-tree-sitter/kotlin"
	"github.com/smacker/go-tree-sitter/lua"
	"github.com/smacker/go-tree-sitter/php"
	"github.com/smacker/go-tree-sitter/protobuf"
	"github.com/smacker/go-tree-sitter/python"
	"github.com/smacker/go-tree-sitter/ruby"
	"github.com/smacker/go-tree-sitter/rust"
	"github.com/smacker/go-tree-sitter/scala"
	"github.com/smacker/go-tree-sitter/sql"
	"github.com/smacker/go-tree-sitter/swift"
	"github.com/smacker/go-tree-sitter/toml"
	"github.com/smacker/go-tree-sitter/typescript/tsx"
	"github.com/smacker/go-tree-sitter/typescript/typescript"
)

// Language names a grammar. The string is what other packages print and store.
type Language string

// The supported languages.
const (
	Go         Language = "go"
	TypeScript Language = "typescript"
	TSX        Language = "tsx"
	JavaScript Language = "javascript"
	Python     Language = "python"
	Rust       Language = "rust"
	Java       Language = "java"
	Kotlin     Language = "kotlin"
	Swift      Language = "swift"
	C          Language = "c"
	CPP        Language = "cpp"
	CSharp     Language = "csharp"
)

var extensions = map[string]Language{
	".go": Go,
	".ts": TypeScript, ".mts": TypeScript, ".cts": TypeScript,
	".tsx": TSX,
	".js":  JavaScript, ".mjs": JavaScript, ".cjs": JavaScript, ".jsx": JavaScript,
	".py": Python, ".pyi": Python,
	".rs":   Rust,
	".java": Java,
	".kt":   Kotlin, ".kts": Kotlin,
	".swift": Swift,
	".c":     C, ".h": C,
	".cc": CPP, ".cpp": CPP, ".cxx": CPP, ".hpp": CPP, ".hh": CPP, ".hxx": CPP,
	".cs":   CSharp,
	".yaml": YAML, ".yml": YAML,
	".json": JSON, ".jsonc": JSON,
	".toml":  TOML,
	".proto": Protobuf,
	".sql":   SQL,
	".tf":    Terraform, ".hcl": Terraform,
	".rb": Ruby, ".rake": Ruby, ".gemspec": Ruby,
	".php":   PHP,
	".scala": Scala, ".sc": Scala,
	".lua": Lua,
	".sh":  Bash, ".bash": Bash,
	".ex": Elixir, ".exs": Elixir,
}

// LanguageForPath picks the language by the file extension, case-insensitively.
// A path is "/"- or OS-separated; only the last element matters.
func LanguageForPath(path string) (Language, bool) {
	base := path
	if i := strings.LastIndexAny(base, `/\`); i >= 0 {
		base = base[i+1:]
	}
	dot := strings.LastIndexByte(base, '.')
	if dot <= 0 && !(dot == 0 && len(base) > 1) {
		return "", false
	}
	l, ok := extensions[strings.ToLower(base[dot:])]
	return l, ok
}

// Languages lists every supported language, sorted.
func Languages() []Language {
	out := make([]Language, 0, len(grammarOf)+len(keyParsers))
	for l := range grammarOf {
		if !IsKeyLanguage(l) {
			out = append(out, l)
		}
	}
	for l := range keyParsers {
		out = append(out, l)
	}
	sort.Slice(out, func(i, j int) bool { return out[i] < out[j] })
	return out
}

// grammarOf maps a language to the constructor of its tree-sitter grammar;
// the grammar values are static C tables, so one instance is shared by
// every parser. They are made on the first parse (grammar), not at every
// start of the CLI: a verify with no code anchor parses nothing.
var grammarOf = map[Language]func() *sitter.Language{
	Go:         golang.GetLanguage,
	TypeScript: typescript.GetLanguage,
	TSX:        tsx.GetLanguage,
	JavaScript: javascript.GetLanguage,
	Python:     python.GetLanguage,
	Rust:       rust.GetLanguage,
	Java:       java.GetLanguage,
	Kotlin:     kotlin.GetLanguage,
	Swift:      swift.GetLanguage,
	C:          c.GetLanguage,
	CPP:        cpp.GetLanguage,
	CSharp:     csharp.GetLanguage,
	Protobuf:   protobuf.GetLanguage,
	SQL:        sql.GetLanguage,
	Terraform:  hcl.GetLanguage,
	Ruby:       ruby.GetLanguage,
	PHP:        php.GetLanguage,
	Scala:      scala.GetLanguage,
	Lua:        lua.GetLanguage,
	Bash:       bash.GetLanguage,
	Elixir:     elixir.GetLanguage,
	TOML:       toml.GetLanguage, // key tables (keys_toml.go), no declaration spec
}

// grammars are the grammar instances, made once on first use.
var grammars = sync.OnceValue(func() map[Language]*sitter.Language {
	m := make(map[Language]*sitter.Language, len(grammarOf))
	for l, mk := range grammarOf {
		m[l] = mk()
	}
	return m
})

// grammar is lang's grammar (nil for a language without one).
func grammar(lang Language) *sitter.Language { return grammars()[lang] }
