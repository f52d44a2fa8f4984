package symbols

// specs is the per-language table the generic machinery reads.
var specs = map[Language]*langSpec{
	Go:         goSpec,
	TypeScript: tsSpec,
	TSX:        tsxSpec,
	JavaScript: jsSpec,
	Python:     pySpec,
}
