package lsp

import (
	"context"
	"fmt"

	"go.lsp.dev/jsonrpc2"
	"go.lsp.dev/protocol"
)

// serverName is reported in serverInfo.
const serverName = "clew-lsp"

func lifecycleRoutes() []*route {
	return []*route{
		call(protocol.MethodInitialize, initialize),
		notification(protocol.MethodInitialized, nil, initialized),
		call(protocol.MethodShutdown, shutdown),
		notification(protocol.MethodExit, nil, exit),
	}
}

// admit applies the lifecycle rules: nothing but initialize before
// initialize, nothing but exit after shutdown.
func (s *server) admit(method string, isCall bool) error {
	if method == protocol.MethodExit {
		return nil
	}
	s.mu.Lock()
	st := s.state
	s.mu.Unlock()
	switch st {
	case stateNew:
		if method == protocol.MethodInitialize {
			return nil
		}
		return jsonrpc2.Errorf(jsonrpc2.ServerNotInitialized, "server not initialized: %s before initialize", method)
	case stateShutdown:
		return jsonrpc2.Errorf(jsonrpc2.InvalidRequest, "server is shut down: %s after shutdown", method)
	}
	if method == protocol.MethodInitialize {
		return jsonrpc2.Errorf(jsonrpc2.InvalidRequest, "server already initialized")
	}
	return nil
}

func initialize(ctx context.Context, s *server, p *protocol.InitializeParams) (*protocol.InitializeResult, error) {
	folders := workspaceFolders(p)
	s.mu.Lock()
	s.client = p.Capabilities
	s.folders = folders
	s.initOptions = Settings(p.InitializationOptions)
	s.state = stateInitialized
	s.mu.Unlock()
	s.logger.Info("initialize", "client", p.ClientInfo.Name, "folders", folders)

	info := protocol.ServerInfo{Name: serverName}
	if s.cfg.version != "" {
		info.Version = protocol.NewOptional(s.cfg.version)
	}
	return &protocol.InitializeResult{Capabilities: capabilities(s.routes), ServerInfo: info}, nil
}

// workspaceFolders lists the roots as paths: workspaceFolders when the
// client sent them, else the deprecated rootUri and rootPath.
func workspaceFolders(p *protocol.InitializeParams) []string {
	var out []string
	if wf, ok := p.WorkspaceFolders.Get(); ok {
		for _, f := range wf {
			if path, err := pathOf(f.URI); err == nil {
				out = append(out, path)
			}
		}
		return out
	}
	if p.RootURI != nil {
		if path, err := pathOf(*p.RootURI); err == nil {
			return []string{path}
		}
	}
	if root, ok := p.RootPath.Get(); ok && root != "" {
		return []string{root}
	}
	return nil
}

// initialized starts indexing in the background: it calls the client
// (configuration, progress), which the read loop must stay free to answer.
func initialized(ctx context.Context, s *server, _ *protocol.InitializedParams) error {
	s.sendStatus(StatusStarting, "starting", StatusCounts{})
	s.goBackground("indexing", s.load)
	return nil
}

func shutdown(ctx context.Context, s *server, _ *struct{}) (any, error) {
	s.mu.Lock()
	s.state = stateShutdown
	s.shutdownSeen = true
	s.mu.Unlock()
	s.diags.stop()
	return nil, nil
}

func exit(ctx context.Context, s *server, _ *struct{}) error {
	s.exitOnce.Do(func() {
		s.mu.Lock()
		close(s.exited)
		s.mu.Unlock()
	})
	return nil
}

// load runs once after initialized: settings, then the Backend's indexing
// under work-done progress, then the first diagnosis.
func (s *server) load(ctx context.Context) {
	s.registerConfiguration(ctx)
	s.mu.Lock()
	folders := s.folders
	s.mu.Unlock()

	s.loadMu.Lock()
	settings := s.fetchSettings(ctx)
	s.sendStatus(StatusIndexing, fmt.Sprintf("indexing %s", plural(len(folders), "folder")), StatusCounts{})
	progress := s.beginProgress(ctx, "clew: indexing")
	err := s.backend.Load(ctx, folders, settings, progress)
	s.loadMu.Unlock()
	if err != nil {
		progress.end("failed")
		if ctx.Err() == nil {
			s.logger.Error("indexing failed", "error", err)
			s.logToClient(protocol.MessageTypeError, "clew-lsp: indexing failed: "+err.Error())
			s.setLoadError("indexing failed: " + err.Error())
			s.sendStatus(StatusError, "indexing failed: "+err.Error(), StatusCounts{})
		}
	} else {
		progress.end("done")
	}
	if ctx.Err() == nil {
		s.startWatching(ctx)
		s.diags.start()
	}
}
