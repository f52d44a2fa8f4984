package main

import (
	"github.com/clew-lsp/clew-lsp/internal/workspace"
	"github.com/clew-lsp/clew-lsp/internal/workspace/disk"
)

// tableStore is the persistent cache of declaration tables in the user's
// cache directory (docs/performance.md); nil when it is off or cannot be
// created, and the commands then parse every file as before.
func tableStore() workspace.TableStore {
	s, err := disk.OpenTableStore()
	if err != nil {
		return nil
	}
	return s
}
