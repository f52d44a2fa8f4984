package symbols

// Token rules for the languages whose declaration tables are still to come.
var (
	swiftSpec  = &langSpec{comments: newSet("comment", "multiline_comment"), atoms: newSet("line_string_literal", "multi_line_string_literal", "raw_string_literal"), dropLeaves: newSet(";")}
	cSpec      = &langSpec{comments: newSet("comment"), atoms: newSet("string_literal", "char_literal", "system_lib_string")}
	cppSpec    = &langSpec{comments: newSet("comment"), atoms: newSet("string_literal", "char_literal", "raw_string_literal", "system_lib_string")}
	csharpSpec = &langSpec{comments: newSet("comment"), atoms: newSet("string_literal", "verbatim_string_literal", "raw_string_literal", "interpolated_string_expression", "character_literal")}
)
