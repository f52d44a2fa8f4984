package symbols

// Token rules for the languages whose declaration tables are still to come.
var (
	csharpSpec = &langSpec{comments: newSet("comment"), atoms: newSet("string_literal", "verbatim_string_literal", "raw_string_literal", "interpolated_string_expression", "character_literal")}
)
