package devcontext

import (
	"fmt"
	"strings"
	"unicode"
	"unicode/utf8"
)

// The intent selector is the only one that infers: it reads words. Its terms
// are the cursor symbol's name and receiver (matched case-sensitively as
// whole identifiers) and the request's intent words (case-folded, matching a
// word that starts with them). A text qualifies only when it matches the
// symbol's own name or an intent word: a receiver name alone ("Server") is
// too common to select a doc, it only raises the share.

var stopWords = map[string]bool{}

func init() {
	for _, w := range strings.Fields("and are but for from has have into not one that the their them then there this was were what when which will with you your") {
		stopWords[w] = true
	}
}

// intentKinds are the kinds whose words are searched: prose, never code
// (code is reached through declared edges).
var intentKinds = []string{KindADR, KindDoc, KindPassage, KindReadme}

type term struct {
	text      string
	symbol    bool // identifier: case-sensitive, whole word
	qualifies bool // a hit on it alone selects the text
}

// intentTerms splits free text on every character that is not a letter,
// digit, '-' or '_', keeps words of three or more characters, lower-cases
// them and drops stop words.
func intentTerms(text string) []string {
	var out []string
	seen := map[string]bool{}
	for _, w := range strings.FieldsFunc(text, func(r rune) bool {
		return !(unicode.IsLetter(r) || unicode.IsDigit(r) || r == '-' || r == '_')
	}) {
		w = strings.ToLower(w)
		if utf8.RuneCountInString(w) < 3 || stopWords[w] || seen[w] {
			continue
		}
		seen[w] = true
		out = append(out, w)
	}
	return out
}

func (s *selection) terms() []term {
	var ts []term
	seen := map[string]bool{}
	add := func(t term) {
		if t.text != "" && !seen[t.text] {
			seen[t.text] = true
			ts = append(ts, t)
		}
	}
	for _, id := range s.objSeeds {
		n := s.ix.nodes[id]
		if (n.Kind != KindSymbol && n.Kind != KindTest) || n.Name == "" {
			continue
		}
		parts := strings.Split(n.Name, ".")
		add(term{text: parts[len(parts)-1], symbol: true, qualifies: true})
		if len(parts) > 1 {
			add(term{text: parts[len(parts)-2], symbol: true})
		}
	}
	for _, w := range intentTerms(s.req.Intent) {
		add(term{text: w, qualifies: true})
	}
	return ts
}

// intentMatch offers every prose node whose words match the terms, at
// relevance 0.6 × share and confidence 0.9 × share.
func (s *selection) intentMatch() {
	ts := s.terms()
	if len(ts) == 0 {
		return
	}
	folded := false
	for _, t := range ts {
		folded = folded || !t.symbol
	}
	for _, kind := range intentKinds {
		for _, id := range s.ix.ofKind(kind) {
			n := s.ix.nodes[id]
			// The title and the text are searched apart, as the one text
			// "title\ntext" would be: no term holds a line break, and one
			// is no identifier byte (hasWordIn).
			var lowTitle, lowText string
			if folded {
				lowTitle, lowText = strings.ToLower(n.Title), strings.ToLower(n.Text)
			}
			var hits []string
			qualified := false
			for _, t := range ts {
				var ok bool
				if t.symbol {
					ok = hasWordIn(n.Title, n.Text, t.text, false)
				} else {
					ok = hasWordIn(lowTitle, lowText, t.text, true)
				}
				if ok {
					hits = append(hits, t.text)
					qualified = qualified || t.qualifies
				}
			}
			if !qualified {
				continue
			}
			share := float64(len(hits)) / float64(len(ts))
			rel := relIntentFull * share
			why := fmt.Sprintf("its words match %s (%d of %d terms)", strings.Join(hits, ", "), len(hits), len(ts))
			if below(rel, s.set.floor) {
				s.recordCut(id, cut{reason: ReasonRelevance, rel: rel, why: why})
				continue
			}
			s.offer(id, TierForKind(n.Kind), rel, Discovery{Selector: SelIntentMatch, Reason: why,
				Depth: depthFixedSelector, Confidence: confIntentFull * share, Weight: rel})
		}
	}
}

// hasWordIn is hasWord over title+"\n"+text without making that string
// (a doc's whole text, for each request).
func hasWordIn(title, text, w string, prefix bool) bool {
	if strings.Contains(w, "\n") {
		return hasWord(title+"\n"+text, w, prefix)
	}
	return hasWord(title, w, prefix) || hasWord(text, w, prefix)
}

// hasWord finds w in hay at an identifier boundary on the left and, unless
// prefix, on the right too ("Initialize" is not in "Initialized"; the intent
// word "budget" is in "budgets").
func hasWord(hay, w string, prefix bool) bool {
	if w == "" {
		return false // no term is empty; an empty one is in nothing
	}
	for off := 0; ; {
		i := strings.Index(hay[off:], w)
		if i < 0 {
			return false
		}
		i += off
		end := i + len(w)
		if (i == 0 || !identByte(hay[i-1])) && (prefix || end == len(hay) || !identByte(hay[end])) {
			return true
		}
		off = i + 1
	}
}

// identByte: letters, digits, '_' and any byte of a multi-byte rune count as
// part of an identifier, so a boundary is never inside a word.
func identByte(c byte) bool {
	return c == '_' || c >= 0x80 || ('0' <= c && c <= '9') || ('a' <= c && c <= 'z') || ('A' <= c && c <= 'Z')
}
