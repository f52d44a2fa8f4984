package workspace

import (
	"sync"

	"github.com/clew-lsp/clew-lsp/internal/anchors"
	"github.com/clew-lsp/clew-lsp/internal/claims"
)

// claimsPrep is the part of a claims check that depends on the snapshot
// alone: whether it is a brain, the law's docs and their parse, the
// brain's tracked files, and the read of every file some leg covers. It
// is done once per snapshot; WarmClaims starts it while the anchors are
// checked, so on two cores reading the law and its files overlaps them.
type claimsPrep struct {
	once    sync.Once
	brainOn bool
	legacy  bool
	docs    map[string][]byte
	parsed  map[string]claims.ParsedDoc
	brain   *snapshotRepo // immutable, like the snapshot
}

// WarmClaims starts the claims check's snapshot-only part in the
// background; the check waits for it. A caller that is about to check
// (verify) calls it first; calling it is never needed.
func (s *Snapshot) WarmClaims() {
	go s.prepareClaims()
}

// prepareClaims does (or waits for) the snapshot-only part.
func (s *Snapshot) prepareClaims() *claimsPrep {
	p := s.claims
	p.once.Do(func() {
		if !s.IsBrain() {
			return
		}
		p.brainOn, p.legacy = true, s.legacyLaw()
		p.docs = map[string][]byte{}
		texts := map[string]string{}
		for _, f := range s.Files() {
			if claims.LawDoc(f) {
				if d, st, _ := s.readContent(f); st == anchors.FileOK {
					p.docs[f] = d.b
					texts[f] = d.text() // the one string the anchors' parse of the law slices too
				}
			}
		}
		p.brain = s.brainRepo()
		p.parsed = claims.ParseDocs(texts)
		s.Preload(s.claimsReadSet(p.parsed, p.brain.Files()))
	})
	return p
}
