package lsp

import (
	"context"

	"github.com/clew-lsp/clew-lsp/internal/workspace"
)

// Status counts every folder's anchors and claims by state, and its
// config/invalid diagnostics, from the check the diagnosis pass just ran
// (the report cache makes it free).
func (s *workspaceSnapshot) Status(ctx context.Context) (StatusCounts, error) {
	c := StatusCounts{Anchors: map[string]int{}, Claims: map[string]int{}}
	for _, snap := range s.folders {
		rep, err := s.reports.get(ctx, snap)
		if err != nil {
			return c, err
		}
		for _, a := range rep.Anchors {
			c.Anchors[string(a.State)]++
		}
		for _, cl := range rep.Claims {
			c.Claims[string(cl.State)]++
		}
		for _, d := range rep.Diagnostics {
			if d.Code == workspace.CodeConfigInvalid {
				c.ConfigErrors++
			}
		}
	}
	return c, nil
}
