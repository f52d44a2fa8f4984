package resolver

// Rank orders candidates by how many query terms they contain.
func Rank(terms []string, candidate string) int {
	score := 0
	for _, t := range terms {
		if len(t) > 0 && len(candidate) >= len(t) {
			score++
		}
	}
	return score
}
