package devcontext

import "math/rand"

// shuffled returns the world with every list permuted: the answer must not
// depend on the order the workspace layer happened to fill it in.
func shuffled(w World, rng *rand.Rand) World {
	w.Nodes = append([]Node(nil), w.Nodes...)
	w.Edges = append([]Edge(nil), w.Edges...)
	w.Files = append([]FileHash(nil), w.Files...)
	rng.Shuffle(len(w.Nodes), func(i, j int) { w.Nodes[i], w.Nodes[j] = w.Nodes[j], w.Nodes[i] })
	rng.Shuffle(len(w.Edges), func(i, j int) { w.Edges[i], w.Edges[j] = w.Edges[j], w.Edges[i] })
	rng.Shuffle(len(w.Files), func(i, j int) { w.Files[i], w.Files[j] = w.Files[j], w.Files[i] })
	return w
}
