package workspace

import "context"

// SetContextClaims replaces the claims hook for a test and returns what
// restores it. Tests that use it must not run in parallel.
func SetContextClaims(f func(ctx context.Context, s *Snapshot, rep *Report) ([]ContextClaim, error)) (restore func()) {
	old := contextClaims
	contextClaims = f
	return func() { contextClaims = old }
}
