package main

import (
	"sync"

	"github.com/clew-lsp/clew-lsp/internal/workspace"
	"github.com/clew-lsp/clew-lsp/internal/workspace/disk"
)

// tableStore is the persistent cache of declaration tables in the user's
// cache directory (docs/performance.md); nil when it is off or cannot be
// created, and the commands then parse every file as before. It writes
// behind the command (disk.TableStore.WriteBehind): run flushes it before
// the process exits.
func tableStore() workspace.TableStore {
	s, err := disk.OpenTableStore()
	if err != nil {
		return nil
	}
	s.WriteBehind()
	openStores.Lock()
	openStores.list = append(openStores.list, s)
	openStores.Unlock()
	return s
}

// openStores are the stores this process opened, flushed when a command
// returns.
var openStores struct {
	sync.Mutex
	list []*disk.TableStore
}

// flushStores waits for every opened store's queued entries to be on disk.
func flushStores() {
	openStores.Lock()
	list := openStores.list
	openStores.list = nil
	openStores.Unlock()
	for _, s := range list {
		s.Flush()
	}
}
