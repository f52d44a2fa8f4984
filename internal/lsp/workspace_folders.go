package lsp

import (
	"context"

	"go.lsp.dev/protocol"
)

// FolderChanger is implemented by backends that can open and close
// workspace folders after initialize (multi-root editors add and remove
// folders while running).
type FolderChanger interface {
	AddFolder(path string) error
	RemoveFolder(path string)
}

// workspaceFolderRoutes registers folder changes only for a backend that
// can act on them, so capabilities never promise what is not there.
func workspaceFolderRoutes(b Backend) []*route {
	if _, ok := b.(FolderChanger); !ok {
		return nil
	}
	return []*route{
		notification(protocol.MethodWorkspaceDidChangeWorkspaceFolders, func(c *protocol.ServerCapabilities) {
			t := true
			if c.Workspace == nil {
				c.Workspace = &protocol.WorkspaceOptions{}
			}
			c.Workspace.WorkspaceFolders = &protocol.WorkspaceFoldersServerCapabilities{
				Supported: &t, ChangeNotifications: protocol.Boolean(true),
			}
		}, didChangeWorkspaceFolders),
	}
}

// didChangeWorkspaceFolders forgets removed folders at once and indexes
// added ones in the background (indexing reads the disk), then schedules a
// diagnosis pass. Diagnostics of a removed folder are cleared by that pass.
func didChangeWorkspaceFolders(ctx context.Context, s *server, p *protocol.DidChangeWorkspaceFoldersParams) error {
	fc, ok := s.backend.(FolderChanger)
	if !ok {
		return nil
	}
	for _, f := range p.Event.Removed {
		if path, err := pathOf(f.URI); err == nil {
			fc.RemoveFolder(path)
		}
	}
	var added []string
	for _, f := range p.Event.Added {
		if path, err := pathOf(f.URI); err == nil {
			added = append(added, path)
		}
	}
	s.goBackground("workspace folders", func(ctx context.Context) {
		for _, path := range added {
			if err := fc.AddFolder(path); err != nil {
				s.logger.Warn("workspace folder not opened", "path", path, "error", err)
			}
		}
		s.diags.schedule()
	})
	return nil
}
