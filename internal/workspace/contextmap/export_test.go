package contextmap

import (
	"context"

	"github.com/clew-lsp/clew-lsp/internal/devcontext"
	"github.com/clew-lsp/clew-lsp/internal/workspace"
)

// SetClaims replaces the claims hook for a test and returns what restores
// it. Tests that use it must not run in parallel.
func SetClaims(f func(ctx context.Context, s *workspace.Snapshot, rep *workspace.Report) ([]Claim, error)) (restore func()) {
	old := contextClaims
	contextClaims = f
	return func() { contextClaims = old }
}

// WorldEdges are the edges of the world a request compiles over.
func WorldEdges(ctx context.Context, s *workspace.Snapshot, req devcontext.Request) ([]devcontext.Edge, error) {
	cw, err := contextWorld(ctx, s, req, nil)
	if err != nil {
		return nil, err
	}
	return cw.world.Edges, nil
}

// SetSearchGuard replaces the per-request search guard (files, bytes) for a
// test and returns what restores it. Tests that use it must not run in
// parallel.
func SetSearchGuard(files, bytes int) (restore func()) {
	of, ob := maxSearchParses, maxSearchBytes
	maxSearchParses, maxSearchBytes = files, bytes
	return func() { maxSearchParses, maxSearchBytes = of, ob }
}

// ForgetWorlds drops the worlds the snapshot's base keeps (not the Load's
// kept declarations), so the next request builds its world again.
func ForgetWorlds(ctx context.Context, s *workspace.Snapshot) error {
	b, err := contextBase(ctx, s)
	if err != nil {
		return err
	}
	b.mu.Lock()
	b.worlds, b.order = nil, nil
	b.mu.Unlock()
	return nil
}
