package lsp

import (
	"context"
	"encoding/json"

	"go.lsp.dev/protocol"
)

// configSection is the settings section clew reads (docs/config.md keys under it).
const configSection = "clew"

func configRoutes() []*route {
	return []*route{
		notification(protocol.MethodWorkspaceDidChangeConfiguration, nil, didChangeConfiguration),
	}
}

func (s *server) clientCaps() protocol.ClientCapabilities {
	s.mu.Lock()
	defer s.mu.Unlock()
	return s.client
}

// registerConfiguration asks clients that support dynamic registration to
// send didChangeConfiguration for our section; several (VS Code among them)
// send nothing otherwise.
func (s *server) registerConfiguration(ctx context.Context) {
	w := s.clientCaps().Workspace
	if w == nil || w.DidChangeConfiguration == nil || w.DidChangeConfiguration.DynamicRegistration == nil || !*w.DidChangeConfiguration.DynamicRegistration {
		return
	}
	opts, _ := protocol.Marshal(&protocol.DidChangeConfigurationRegistrationOptions{Section: protocol.String(configSection)})
	params := &protocol.RegistrationParams{Registrations: []protocol.Registration{{
		ID:              "clew-configuration",
		Method:          protocol.MethodWorkspaceDidChangeConfiguration,
		RegisterOptions: protocol.LSPAny(opts),
	}}}
	if _, err := s.conn.Call(ctx, protocol.MethodClientRegisterCapability, params, nil); err != nil {
		s.logger.Warn("client/registerCapability failed", "error", err)
	}
}

// fetchSettings pulls the "clew" section with workspace/configuration when
// the client supports it, else falls back to initializationOptions.
func (s *server) fetchSettings(ctx context.Context) Settings {
	s.mu.Lock()
	settings := s.initOptions
	s.mu.Unlock()
	w := s.clientCaps().Workspace
	if w == nil || w.Configuration == nil || !*w.Configuration {
		return settings
	}
	var result []protocol.LSPAny
	params := &protocol.ConfigurationParams{Items: []protocol.ConfigurationItem{{Section: ptr(configSection)}}}
	if _, err := s.conn.Call(ctx, protocol.MethodWorkspaceConfiguration, params, &result); err != nil {
		s.logger.Warn("workspace/configuration failed", "error", err)
		return settings
	}
	if len(result) == 1 && isObject(result[0]) {
		return Settings(result[0])
	}
	return settings
}

func isObject(raw []byte) bool {
	var m map[string]json.RawMessage
	return json.Unmarshal(raw, &m) == nil && m != nil
}

// didChangeConfiguration re-reads the settings. Pulling them is a call to
// the client, so it runs in the background. Changes coalesce: one worker
// applies the newest, so a burst of changes cannot be applied out of order.
func didChangeConfiguration(ctx context.Context, s *server, p *protocol.DidChangeConfigurationParams) error {
	s.configMu.Lock()
	defer s.configMu.Unlock()
	s.configPending = &pendingConfig{pushed: sectionOf(p.Settings)}
	if !s.configWorking {
		s.configWorking = true
		s.goBackground("configuration", s.configure)
	}
	return nil
}

type pendingConfig struct {
	pushed Settings // values the client sent along, or nil
}

func (s *server) configure(ctx context.Context) {
	for {
		s.configMu.Lock()
		next := s.configPending
		s.configPending = nil
		if next == nil || ctx.Err() != nil {
			s.configWorking = false
			s.configMu.Unlock()
			return
		}
		s.configMu.Unlock()

		s.loadMu.Lock()
		settings := s.fetchSettings(ctx)
		if next.pushed != nil {
			settings = next.pushed // the client sent the values; trust them over a pull
		}
		err := s.backend.Configure(ctx, settings)
		s.loadMu.Unlock()
		if err != nil {
			s.logger.Error("configure failed", "error", err)
			s.logToClient(protocol.MessageTypeError, "clew-lsp: settings not applied: "+err.Error())
			continue
		}
		s.diags.schedule()
	}
}

// sectionOf extracts {"clew": {...}} from pushed settings, or nil.
func sectionOf(raw protocol.LSPAny) Settings {
	var m map[string]json.RawMessage
	if json.Unmarshal(raw, &m) != nil {
		return nil
	}
	if sec, ok := m[configSection]; ok && isObject(sec) {
		return Settings(sec)
	}
	return nil
}

// editorSpellings maps the camelCase keys editors declare (VS Code derives
// a setting's title from its key: "Max Files", not "Max_files") to the
// `.clew.yml` keys the workspace reads, per object ("" is the top level).
var editorSpellings = map[string]map[string]string{
	"":       {"hintsInCode": "hints_in_code"},
	"budget": {"maxFiles": "max_files", "maxBytes": "max_bytes", "maxMilliseconds": "max_ms", "maxFileBytes": "max_file_bytes"},
}

// yamlSpelling renames the editor spellings of m (the "clew" section) to
// the `.clew.yml` keys, in place. A key written in the `.clew.yml`
// spelling wins: VS Code always sends the camelCase defaults, so only an
// explicit snake_case value can be the user's.
func yamlSpelling(m map[string]json.RawMessage) {
	rename := func(obj map[string]json.RawMessage, names map[string]string) {
		for camel, snake := range names {
			v, ok := obj[camel]
			if !ok {
				continue
			}
			delete(obj, camel)
			if _, set := obj[snake]; !set {
				obj[snake] = v
			}
		}
	}
	rename(m, editorSpellings[""])
	for section, names := range editorSpellings {
		if section == "" {
			continue
		}
		var obj map[string]json.RawMessage
		if raw, ok := m[section]; !ok || json.Unmarshal(raw, &obj) != nil || obj == nil {
			continue
		}
		rename(obj, names)
		m[section], _ = json.Marshal(obj)
	}
}
