package anchors

import "testing"

func TestUnifiedDiff(t *testing.T) {
	for _, tc := range []struct {
		name, before, after, want string
	}{
		{"one line changed", "a\nb\nc\n", "a\nB\nc\n",
			"--- x\n+++ y\n@@ -1,3 +1,3 @@\n a\n-b\n+B\n c\n"},
		{"added at the end, no final newline", "a\nb", "a\nb\nc",
			"--- x\n+++ y\n@@ -1,2 +1,3 @@\n a\n b\n+c\n"},
		{"removed", "a\nb\nc\n", "a\nc\n",
			"--- x\n+++ y\n@@ -1,3 +1,2 @@\n a\n-b\n c\n"},
		{"equal", "a\nb\n", "a\nb\n", "--- x\n+++ y\n"},
		{"from nothing", "", "a\n", "--- x\n+++ y\n@@ -1,0 +1,1 @@\n+a\n"},
		{"two hunks far apart",
			"1\n2\n3\n4\n5\n6\n7\n8\n9\n10\n11\n12\n", "0\n2\n3\n4\n5\n6\n7\n8\n9\n10\n11\n13\n",
			"--- x\n+++ y\n@@ -1,4 +1,4 @@\n-1\n+0\n 2\n 3\n 4\n@@ -9,4 +9,4 @@\n 9\n 10\n 11\n-12\n+13\n"},
	} {
		t.Run(tc.name, func(t *testing.T) {
			if got := UnifiedDiff(tc.before, tc.after, "x", "y"); got != tc.want {
				t.Errorf("got\n%s\nwant\n%s", got, tc.want)
			}
		})
	}
}
