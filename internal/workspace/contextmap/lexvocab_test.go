package contextmap

import (
	"fmt"
	"math/rand/v2"
	"reflect"
	"testing"
)

// Building a vocabulary from scratch out of the scan workers' sorted words
// gives what merging their sinks and adding the result to an empty
// vocabulary gives: the same words, the same collided hashes (two words of
// one hash in one sink, or in two), on both sides of maxVocabExtra.
func TestVocabOfSinksIsMergedSinks(t *testing.T) {
	for _, words := range []int{0, 10, 3000, 20000} {
		for _, workers := range []int{1, 2, 5} {
			fill := func() []*vocabSink {
				rng := rand.New(rand.NewPCG(uint64(words), uint64(workers)))
				sinks := make([]*vocabSink, workers)
				for k := range sinks {
					sinks[k] = newVocabSink()
					for range words / workers {
						// Few hash bits and a word from a small set: hashes
						// repeat across sinks, sometimes with another word.
						h := 1 + rng.Uint64N(uint64(words+1))
						w := fmt.Sprintf("w%d", h)
						if rng.IntN(500) == 0 {
							w += "x"
						}
						sinks[k].add(h, []byte(w))
					}
				}
				return sinks
			}
			merged := fill()
			for _, o := range merged[1:] {
				merged[0].merge(o)
			}
			want := (*cxVocab)(nil).withWords(merged[0])
			sinks := fill()
			sorted := make([][]vocabWord, len(sinks))
			for k, s := range sinks {
				sorted[k] = s.sorted()
			}
			got := vocabOfSinks(sinks, sorted)
			if !reflect.DeepEqual(got, want) {
				t.Errorf("%d words over %d sinks: %d hashes, %d extra, %d collided; merged: %d, %d, %d",
					words, workers, len(got.hashes), len(got.extra), len(got.collided), len(want.hashes), len(want.extra), len(want.collided))
			}
			if words >= 3000 && len(want.collided) == 0 {
				t.Errorf("%d words over %d sinks: no collided hash to compare", words, workers)
			}
		}
	}
}
