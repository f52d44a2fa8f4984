package workspace

import (
	"io/fs"
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/clew-lsp/clew-lsp/internal/anchors/symbols"
)

// BenchmarkNewMentionRecordGOROOT is the coverage's per-file work on the
// Go files of the tree BenchmarkVerifyGOROOT builds (the first 2,000, in
// memory): one op records them all.
//
//	CLEW_BENCH_GOROOT=/tmp/goroot go test ./internal/workspace -run XXX -bench NewMentionRecordGOROOT
func BenchmarkNewMentionRecordGOROOT(b *testing.B) {
	dir := os.Getenv("CLEW_BENCH_GOROOT")
	if dir == "" {
		b.Skip("set CLEW_BENCH_GOROOT to the tree BenchmarkVerifyGOROOT built")
	}
	var paths []string
	var texts [][]byte
	filepath.WalkDir(dir, func(p string, d fs.DirEntry, err error) error {
		if err != nil || len(paths) == 2000 {
			return filepath.SkipAll
		}
		if !d.IsDir() && strings.HasSuffix(p, ".go") {
			if t, err := os.ReadFile(p); err == nil {
				paths, texts = append(paths, p), append(texts, t)
			}
		}
		return nil
	})
	bases := map[string]bool{"String": true, "Close": true, "New": true, "Read": true, "Len": true}
	b.ReportAllocs()
	b.ResetTimer()
	for i := 0; i < b.N; i++ {
		for k, t := range texts {
			newMentionRecord(paths[k], symbols.Go, t, bases)
		}
	}
}
