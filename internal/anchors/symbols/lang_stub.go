package symbols

// Token rules for the languages whose declaration tables are still to come.
var (
	cSpec      = &langSpec{comments: newSet("comment"), atoms: newSet("string_literal", "char_literal", "system_lib_string")}
	cppSpec    = &langSpec{comments: newSet("comment"), atoms: newSet("string_literal", "char_literal", "raw_string_literal", "system_lib_string")}
	csharpSpec = &langSpec{comments: newSet("comment"), atoms: newSet("string_literal", "verbatim_string_literal", "raw_string_literal", "interpolated_string_expression", "character_literal")}
)
