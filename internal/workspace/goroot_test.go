package workspace

import (
	"path/filepath"
	"runtime"
)

// gorootGoFiles are the Go files directly in each of dirs under
// $GOROOT/src: real code the tests read (GOROOT is on every machine with
// Go).
func gorootGoFiles(dirs ...string) []string {
	var files []string
	for _, dir := range dirs {
		more, _ := filepath.Glob(filepath.Join(runtime.GOROOT(), "src", dir, "*.go"))
		files = append(files, more...)
	}
	return files
}
