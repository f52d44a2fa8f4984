package devcontext

import (
	"strings"
	"testing"
)

// hasWordIn answers as hasWord over the joined "title\ntext" it no longer
// makes, for whole identifiers and prefixes, at either part's edges.
func TestHasWordInIsTheJoinedText(t *testing.T) {
	parts := []string{"", "Initialize", "call Initialize", "Initialized", "x_Initialize", "budget", "budgets.", "é budget", "\xe2\x82", "a\nb"}
	words := []string{"Initialize", "budget", "b", "a", "", "a\nb", "\n"}
	for _, title := range parts {
		for _, text := range parts {
			for _, w := range words {
				for _, prefix := range []bool{false, true} {
					if got, want := hasWordIn(title, text, w, prefix), hasWord(title+"\n"+text, w, prefix); got != want {
						t.Errorf("hasWordIn(%q, %q, %q, %v) = %v, want %v", title, text, w, prefix, got, want)
					}
				}
			}
		}
	}
	// Lowered apart, the parts are the lowered whole.
	for _, title := range parts {
		for _, text := range parts {
			if strings.ToLower(title)+"\n"+strings.ToLower(text) != strings.ToLower(title+"\n"+text) {
				t.Errorf("ToLower(%q, %q) apart differs", title, text)
			}
		}
	}
}

func FuzzHasWordIn(f *testing.F) {
	f.Add("Server", "call ListenAndServe.", "ListenAndServe", false)
	f.Add("", "", "", true)
	f.Fuzz(func(t *testing.T, title, text, w string, prefix bool) {
		if got, want := hasWordIn(title, text, w, prefix), hasWord(title+"\n"+text, w, prefix); got != want {
			t.Fatalf("hasWordIn(%q, %q, %q, %v) = %v, want %v", title, text, w, prefix, got, want)
		}
		if strings.ToLower(title)+"\n"+strings.ToLower(text) != strings.ToLower(title+"\n"+text) {
			t.Fatalf("ToLower(%q, %q) apart differs", title, text)
		}
	})
}
