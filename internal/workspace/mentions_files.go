package workspace

import (
	"github.com/clew-lsp/clew-lsp/internal/anchors"
	"github.com/clew-lsp/clew-lsp/internal/anchors/symbols"
)

// mentionFiles is the coverage's first reading of the code files: found[i]
// are file i's declarations of the names when the declaration lexer read
// it (parsed[i]), else places[i] is what the prefilter saw; read counts
// the files read from disk or buffers.
type mentionFiles struct {
	bases  map[string]bool
	found  [][]anchors.MentionRef
	parsed []bool
	places []namePlaces
	read   int
}

// readMentionFiles reads paths for the names in bases. With a persistent
// store and file stats, a file whose stat is its mention record's is not
// read (mentions_record.go): a record that holds none of the names says
// the file has nothing to tell. The others are read, and their new
// records stored. With a gate, the reading waits for the check's offer,
// and each file read is also tested for the repository-wide pass shared.
func (s *Snapshot) readMentionFiles(paths []string, bases map[string]bool, gate *scanGate) mentionFiles {
	mf := mentionFiles{bases: bases, found: make([][]anchors.MentionRef, len(paths)), parsed: make([]bool, len(paths)), places: make([]namePlaces, len(paths))}
	store := Unbundled(s.tables.persistent())
	_, stater := s.files.(FileStater)
	if store == nil || !stater || !mentionPrefilter {
		mf.read = len(paths)
		all := make([]int, len(paths))
		for i := range all {
			all[i] = i
		}
		s.readShared(paths, all, gate, func(i int, text []byte, st anchors.FileStatus) {
			if st == anchors.FileOK {
				mf.scan(i, paths[i], s.langOf(paths[i]), text)
			}
		})
		return mf
	}
	start := s.LoadedAt() // the content may come from a read made before this call
	stats := s.FileStats(paths)
	prev := loadMentionRecords(store, s.root)
	hb := make(map[uint32]bool, len(bases))
	for b := range bases {
		hb[nameHash(b)] = true
	}
	max := s.maxFileBytes()
	recs := make([]mentionRecord, len(paths)) // path "": no record
	var todo []int
	for i, p := range paths {
		if stats[i].Ok && stats[i].Size > max {
			continue // too large to read: nothing to tell
		}
		r, ok := findRecord(prev, p)
		if !ok || !StatUnchanged(r.stat, stats[i]) || r.lang != s.langOf(p) {
			todo = append(todo, i)
			continue
		}
		if r.mayHold(hb) {
			todo = append(todo, i)
			continue
		}
		recs[i] = *r
	}
	mf.read = len(todo)
	fresh := make([]bool, len(paths)) // a new record, not the one stored
	s.readShared(paths, todo, gate, func(i int, text []byte, st anchors.FileStatus) {
		if st != anchors.FileOK && st != anchors.FileBinary {
			return
		}
		stat := TrustedStat(stats[i], start)
		if st == anchors.FileBinary {
			if stat.Ok {
				recs[i] = mentionRecord{path: paths[i], stat: stat, lang: s.langOf(paths[i]), st: st}
			}
			return
		}
		rec, refs, lexed := newMentionRecord(paths[i], s.langOf(paths[i]), text, bases)
		if lexed {
			mf.found[i], mf.parsed[i] = refs, true
		} else {
			mf.places[i] = placesOf(rec.lang, text, bases)
		}
		if stat.Ok {
			rec.stat = stat
			recs[i] = rec
			if r, ok := findRecord(prev, paths[i]); !ok || r.stat != stat {
				fresh[i] = true
			}
		}
	})
	kept := recs[:0]
	for _, r := range recs {
		if r.path != "" {
			kept = append(kept, r)
		}
	}
	changed := len(kept) != len(prev)
	for _, f := range fresh {
		changed = changed || f
	}
	if changed {
		storeMentionRecords(store, s.root, kept)
	}
	return mf
}

// scan is the coverage's reading of file i's text without records: the
// lexer's declarations of the names, or the prefilter's places.
func (mf *mentionFiles) scan(i int, p string, lang symbols.Language, text []byte) {
	if lang == symbols.Go && mentionPrefilter {
		if refs, ok := lexedRefs(p, text, mf.bases, nil); ok {
			mf.found[i], mf.parsed[i] = refs, true
			return
		}
	}
	mf.places[i] = placesOf(lang, text, mf.bases)
}

func (s *Snapshot) langOf(p string) symbols.Language {
	lang, _ := s.Language(p)
	return lang
}

// readShared reads paths[i] for each i of idx and calls do with it. With a
// gate, the files the check's offer will not name (its early paths: the
// hinted files, never candidates of the repository-wide pass) are read
// at once, beside the hinted pass; the others once the offer came, each
// also tested for the pass it shares; then the reading is over.
func (s *Snapshot) readShared(paths []string, idx []int, gate *scanGate, do func(i int, text []byte, st anchors.FileStatus)) {
	var early, late []int
	for _, i := range idx {
		if gate != nil && gate.early[paths[i]] {
			early = append(early, i)
		} else {
			late = append(late, i)
		}
	}
	read := func(idx []int, sh *wideShare) {
		sub := make([]string, len(idx))
		for k, i := range idx {
			sub[k] = paths[i]
		}
		s.readEach(sub, func(k int, text []byte, st anchors.FileStatus) {
			i := idx[k]
			sh.test(paths[i], text, st)
			do(i, text, st)
		})
	}
	if len(early) > 0 {
		read(early, nil)
	}
	read(late, gate.await())
	gate.readOver()
}
