package workspace

import (
	"sync"

	"github.com/clew-lsp/clew-lsp/internal/anchors"
)

// One reading of the code files for mention coverage and the
// repository-wide pass. In verify's Check the coverage reads every code
// file, and the repository-wide pass reads the open anchors' candidates
// (most of the same files) once the hinted pass has said which anchors are
// open. The coverage's reading waits for that moment (its stats and
// records do not): the check hands it the pass's needs (wideShare), and
// each file in hand is tested for them as the pass's scan would test it,
// the answer memoised (the check's comboSet, wantSets and disk facts).
// The scan then reads only the candidates nobody tested — none on a cold
// run — and answers the others from the memo, as after an earlier pass.

// wideShare is what the coverage's reading needs to test a file for the
// repository-wide pass: the pass's needs and memo, and its disk
// candidates (an open buffer is scanned by the pass itself, each time).
type wideShare struct {
	r     *checkRun
	needs []need
	sets  []*wantSet
	combo *comboSet
	cands map[string]bool
}

func newWideShare(r *checkRun, cands []string, needs []need, sets []*wantSet, combo *comboSet) *wideShare {
	w := &wideShare{r: r, needs: needs, sets: sets, combo: combo, cands: make(map[string]bool, len(cands))}
	for _, p := range cands {
		if _, open := r.s.overlays[p]; !open {
			w.cands[p] = true
		}
	}
	return w
}

// test is scanOne's prefilter for candidate p on its text in hand (text
// and st as readUncached gives them): its answer is memoised as scanOne
// memoises it, and scanOne reads it from there. A file that is no
// candidate, or was answered already, is left alone.
func (w *wideShare) test(p string, text []byte, st anchors.FileStatus) {
	if w == nil || !w.cands[p] {
		return
	}
	if _, ok := w.combo.get(p); ok {
		return
	}
	lang, _ := w.r.s.Language(p)
	fact, _, wanted := w.r.scan(p, lang, w.needs, w.sets, &preRead{b: text, st: st})
	w.combo.put(p, comboEntry{fact, wanted})
}

// scanGate is the handoff between Check and the coverage's reading: the
// check offers the repository-wide pass's share once (nil when there is
// no pass to share), and waits for the reading it joined.
type scanGate struct {
	once   sync.Once
	offer  chan *wideShare // buffered: the one offer
	over   chan struct{}   // closed when the coverage's reading is over, or will not be
	overMu sync.Once
	// early are the paths the offer never names (the hinted files): the
	// coverage reads them without waiting for it.
	early map[string]bool
}

func newScanGate(early []string) *scanGate {
	g := &scanGate{offer: make(chan *wideShare, 1), over: make(chan struct{}), early: make(map[string]bool, len(early))}
	for _, p := range early {
		g.early[p] = true
	}
	return g
}

// share offers w to the coverage's reading and, when this is the offer,
// waits until that reading is over (so every file it read was tested).
// Later offers do nothing.
func (g *scanGate) share(w *wideShare) {
	if g == nil {
		return
	}
	first := false
	g.once.Do(func() {
		first = true
		g.offer <- w
	})
	if first && w != nil {
		<-g.over
	}
}

// await is the coverage's side: the check's offer (nil without a gate).
func (g *scanGate) await() *wideShare {
	if g == nil {
		return nil
	}
	return <-g.offer
}

// readOver says the coverage's reading is over (or will not happen).
func (g *scanGate) readOver() {
	if g != nil {
		g.overMu.Do(func() { close(g.over) })
	}
}
