package lsp

import (
	"context"
	"encoding/json"
	"errors"
	"strings"
	"testing"
	"time"

	"go.lsp.dev/jsonrpc2"
	"go.lsp.dev/protocol"

	"github.com/clew-lsp/clew-lsp/internal/lsp/lsptest"
)

func TestShutdownThenExit(t *testing.T) {
	e := newEnv(t, lsptest.Options{}, withRoutes(echo))
	e.start()
	must(t, e.client.Call(e.ctx, protocol.MethodShutdown, nil, nil))
	err := e.client.Call(e.ctx, "test/echo", map[string]any{}, nil)
	if wireCode(t, err) != jsonrpc2.InvalidRequest {
		t.Errorf("request after shutdown: got %v, want InvalidRequest", err)
	}
	must(t, e.client.Notify(e.ctx, protocol.MethodExit, nil))
	select {
	case err := <-e.client.ServerDone():
		if err != nil {
			t.Errorf("Serve = %v, want nil after shutdown+exit", err)
		}
	case <-time.After(5 * time.Second):
		t.Fatal("Serve did not return after exit")
	}
}

func TestExitWithoutShutdown(t *testing.T) {
	e := newEnv(t, lsptest.Options{})
	e.start()
	must(t, e.client.Notify(e.ctx, protocol.MethodExit, nil))
	select {
	case err := <-e.client.ServerDone():
		if !errors.Is(err, ErrExitWithoutShutdown) {
			t.Errorf("Serve = %v, want ErrExitWithoutShutdown", err)
		}
	case <-time.After(5 * time.Second):
		t.Fatal("Serve did not return after exit")
	}
}

func TestShutdownHelper(t *testing.T) {
	e := newEnv(t, lsptest.Options{})
	e.start()
	if err := e.client.Shutdown(e.ctx); err != nil {
		t.Fatal(err)
	}
}

func TestLoadGetsFoldersSettingsAndReportsProgress(t *testing.T) {
	settings := json.RawMessage(`{"hints_in_code":false,"budget":{"max_files":10}}`)
	e := newEnv(t, lsptest.Options{Settings: settings})
	e.backend.onLoad = func(ctx context.Context, p Progress) error {
		p.Report("scanning", 10)
		p.Report("scanning", 10) // repeats are dropped
		p.Report("parsing", 60)
		return nil
	}
	e.start()
	st, err := e.client.Await(e.ctx, "progress end", func(s lsptest.State) bool {
		return len(s.Progress) > 0 && strings.Contains(string(s.Progress[len(s.Progress)-1]), `"end"`)
	})
	must(t, err)
	var kinds []string
	for _, v := range st.Progress {
		var p struct {
			Kind       string `json:"kind"`
			Percentage *int   `json:"percentage"`
		}
		must(t, json.Unmarshal(v, &p))
		kinds = append(kinds, p.Kind)
	}
	if got := strings.Join(kinds, ","); got != "begin,report,report,end" {
		t.Errorf("progress = %s, want begin,report,report,end", got)
	}
	e.backend.mu.Lock()
	gotFolders, gotSettings := e.backend.folders, e.backend.settings
	e.backend.mu.Unlock()
	if len(gotFolders) != 1 || gotFolders[0] != e.root {
		t.Errorf("folders = %v, want [%s]", gotFolders, e.root)
	}
	if len(gotSettings) != 1 || string(gotSettings[0]) != string(settings) {
		t.Errorf("settings = %s, want %s", gotSettings, settings)
	}
	if len(st.Registrations) != 1 || st.Registrations[0].Method != protocol.MethodWorkspaceDidChangeConfiguration {
		t.Errorf("registrations = %+v", st.Registrations)
	}
}

func TestNoProgressWithoutClientSupport(t *testing.T) {
	e := newEnv(t, lsptest.Options{Capabilities: &protocol.ClientCapabilities{}, Settings: json.RawMessage(`{"x":1}`)})
	e.start()
	e.settle()
	st := e.client.State()
	if len(st.Progress) != 0 || len(st.Registrations) != 0 || st.ConfigPulls != 0 {
		t.Errorf("client without capabilities got progress %d, registrations %d, config pulls %d", len(st.Progress), len(st.Registrations), st.ConfigPulls)
	}
}

func TestDidChangeConfigurationPullsSettings(t *testing.T) {
	e := newEnv(t, lsptest.Options{Settings: json.RawMessage(`{"hints_in_code":true}`)})
	e.start()
	e.settle()
	must(t, e.client.Notify(e.ctx, protocol.MethodWorkspaceDidChangeConfiguration, &protocol.DidChangeConfigurationParams{Settings: protocol.LSPAny(`null`)}))
	must(t, e.client.Notify(e.ctx, protocol.MethodWorkspaceDidChangeConfiguration, &protocol.DidChangeConfigurationParams{Settings: protocol.LSPAny(`{"clew":{"hints_in_code":false}}`)}))
	// Changes may coalesce, but the last one applied must be the newest.
	deadline := time.Now().Add(5 * time.Second)
	for {
		e.backend.mu.Lock()
		got := append([]Settings(nil), e.backend.settings...)
		e.backend.mu.Unlock()
		if len(got) >= 2 && string(got[len(got)-1]) == `{"hints_in_code":false}` {
			break
		}
		if time.Now().After(deadline) {
			t.Fatalf("Configure calls: %s", got)
		}
		time.Sleep(5 * time.Millisecond)
	}
	if st := e.client.State(); st.ConfigPulls < 2 {
		t.Errorf("config pulls = %d, want a pull after the change", st.ConfigPulls)
	}
}

func TestLoadFailureIsReported(t *testing.T) {
	e := newEnv(t, lsptest.Options{})
	e.backend.onLoad = func(ctx context.Context, p Progress) error { return errors.New("disk on fire") }
	e.start()
	if _, err := e.client.Await(e.ctx, "error log", func(s lsptest.State) bool {
		return len(s.Logs) > 0 && strings.Contains(s.Logs[0].Message, "disk on fire")
	}); err != nil {
		t.Fatal(err)
	}
	// The status says so, and the diagnosis pass after the failed load
	// does not turn it back to ready.
	st, err := e.client.AwaitDiagnosed(e.ctx, 0)
	if err != nil {
		t.Fatal(err)
	}
	if n := len(st.Statuses); n == 0 || st.Statuses[n-1].State != StatusError || !strings.Contains(st.Statuses[n-1].Message, "disk on fire") {
		t.Errorf("statuses %+v, want the last one an error naming the cause", st.Statuses)
	}
}

func TestClientDisconnectEndsServe(t *testing.T) {
	e := newEnv(t, lsptest.Options{})
	e.start()
	must(t, e.client.WriteRaw([]byte("Content-Length: 50\r\n\r\n{")))
	e.client.CloseConn()
	select {
	case <-e.client.ServerDone():
	case <-time.After(5 * time.Second):
		t.Fatal("Serve did not return when the client went away mid-frame")
	}
}
