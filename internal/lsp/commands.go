package lsp

import (
	"context"
	"encoding/json"
	"fmt"
	"strings"

	"go.lsp.dev/jsonrpc2"
	"go.lsp.dev/protocol"
	"go.lsp.dev/uri"

	"github.com/clew-lsp/clew-lsp/internal/workspace"
	"github.com/clew-lsp/clew-lsp/internal/workspace/query"
	"github.com/clew-lsp/clew-lsp/internal/workspace/span"
)

// Server commands (docs/server.md), run through workspace/executeCommand so that
// lenses, quick fixes and editor commands work the same in every client.
const (
	cmdConfirm                = "clew.confirm"
	cmdVerifyWorkspace        = "clew.verifyWorkspace"
	cmdShowAnchors            = "clew.showAnchors"
	cmdCompileContext         = "clew.compileContext"
	cmdCompileContextMarkdown = "clew.compileContextMarkdown"
	cmdExplainContext         = "clew.explainContext"
	cmdContextPolicy          = "clew.contextPolicy"
)

type commandFunc func(ctx context.Context, r *request, arg json.RawMessage) (any, error)

var commands = map[string]commandFunc{
	cmdConfirm:         runConfirm,
	cmdVerifyWorkspace: runVerifyWorkspace,
	cmdShowAnchors:     runShowAnchors,
}

func executeCommandRoute() *route {
	return queryCall(protocol.MethodWorkspaceExecuteCommand, func(c *protocol.ServerCapabilities) {
		names := make([]string, 0, len(commands))
		for n := range commands {
			names = append(names, n)
		}
		sortStrings(names)
		c.ExecuteCommandProvider = protocol.ExecuteCommandOptions{Commands: names}
	}, executeCommand)
}

// executeCommand runs a query route: it may call the client (applyEdit)
// because queries no longer hold the read loop.
func executeCommand(ctx context.Context, s *server, snap Snapshot, p *protocol.ExecuteCommandParams) (any, error) {
	run, ok := commands[p.Command]
	if !ok {
		return nil, errInvalidParams("unknown command %q", p.Command)
	}
	r, err := s.request(snap)
	if err != nil {
		return nil, err
	}
	var arg json.RawMessage
	if len(p.Arguments) > 0 {
		arg = json.RawMessage(p.Arguments[0])
	}
	return run(ctx, r, arg)
}

func sortStrings(xs []string) {
	for i := 1; i < len(xs); i++ {
		for j := i; j > 0 && xs[j] < xs[j-1]; j-- {
			xs[j], xs[j-1] = xs[j-1], xs[j]
		}
	}
}

// anchorsArgs is the argument object of the anchor commands (and of the
// lens that runs clew.showAnchors). The document is textDocument.uri (or
// uri); position is LSP's (0-based, UTF-16); line is an anchor's 1-based
// line as in `verify` ids (docs/arch.md:12).
type anchorsArgs struct {
	TextDocument *protocol.TextDocumentIdentifier `json:"textDocument,omitempty"`
	URI          uri.URI                          `json:"uri,omitempty"`
	Position     *protocol.Position               `json:"position,omitempty"`
	Line         int                              `json:"line,omitempty"`
	All          bool                             `json:"all,omitempty"`
	Locations    []protocol.Location              `json:"locations,omitempty"`
}

func decodeArgs(raw json.RawMessage, v any) error {
	if len(raw) == 0 || string(raw) == "null" {
		return nil
	}
	if err := protocol.Unmarshal(raw, v); err != nil {
		return errInvalidParams("invalid command argument: %v", err)
	}
	return nil
}

func (a *anchorsArgs) doc() uri.URI {
	if a.TextDocument != nil && a.TextDocument.URI != "" {
		return a.TextDocument.URI
	}
	return a.URI
}

// commandFile resolves a command's document. Unlike textDocument requests,
// a command may name a file that is not open (a script, a CLI-like use):
// its position then refers to the file on disk.
func (r *request) commandFile(u uri.URI) (*file, error) {
	if u == "" {
		return nil, errInvalidParams("the command needs a document: {\"textDocument\": {\"uri\": …}}")
	}
	abs, err := pathOf(u)
	if err != nil {
		return nil, errInvalidParams("%v", err)
	}
	return r.file(abs)
}

// ConfirmResult is what clew.confirm answers.
type ConfirmResult struct {
	Applied   bool     `json:"applied"`
	Confirmed []string `json:"confirmed"` // anchor ids
	Refused   []string `json:"refused,omitempty"`
	Message   string   `json:"message,omitempty"`
	// Edit is the edit itself when the client cannot apply edits
	// (no workspace.applyEdit capability): a script applies it.
	Edit *protocol.WorkspaceEdit `json:"edit,omitempty"`
}

// runConfirm pins and confirms anchors as reviewed (docs/anchors.md): the one on
// the given line (position or line), every anchor of the document, or with
// {"all": true} and no document, every anchor of the workspace. It writes
// by asking the editor to apply the edit (workspace/applyEdit); a target
// that does not resolve is refused with the declarations that exist.
func runConfirm(ctx context.Context, r *request, raw json.RawMessage) (any, error) {
	var args anchorsArgs
	if err := decodeArgs(raw, &args); err != nil {
		return nil, err
	}
	type job struct {
		folder  *workspace.Snapshot
		targets []workspace.Target
		all     bool
	}
	var jobs []job
	if args.doc() == "" {
		if !args.All {
			return nil, errInvalidParams("clew.confirm needs a document (and a position or line), or {\"all\": true} for the whole workspace")
		}
		for _, f := range r.snap.folderSnapshots() {
			jobs = append(jobs, job{folder: f, all: true})
		}
	} else {
		f, err := r.commandFile(args.doc())
		if err != nil {
			return nil, err
		}
		t := workspace.Target{Doc: f.rel, Line: args.Line}
		if args.Position != nil {
			off, err := f.offset(*args.Position)
			if err != nil {
				return nil, err
			}
			pos, _ := f.index.Position(off, span.UTF8)
			t.Line = pos.Line + 1
		}
		jobs = append(jobs, job{folder: f.folder, targets: []workspace.Target{t}})
	}
	res := ConfirmResult{Confirmed: []string{}}
	var edits []*protocol.WorkspaceEdit
	for _, j := range jobs {
		rep, err := r.snap.report(ctx, j.folder)
		if err != nil {
			return nil, err
		}
		cr := rep.Confirm(j.targets, j.all)
		for _, u := range cr.Unmatched {
			if u.Line > 0 {
				return nil, errInvalidParams("no @code anchor on line %d of %s", u.Line, u.Doc)
			}
			return nil, errInvalidParams("%s has no @code anchors", u.Doc)
		}
		for _, ref := range cr.Refused {
			res.Refused = append(res.Refused, ref.Message)
		}
		for _, d := range cr.Unparsed {
			res.Refused = append(res.Refused, fmt.Sprintf("%s:%d does not parse: %s", d.Doc, d.Line, d.Message))
		}
		for _, a := range cr.Confirmed {
			res.Confirmed = append(res.Confirmed, a.ID)
		}
		if len(cr.Edits) > 0 {
			edits = append(edits, r.workspaceEdit(j.folder, cr.Edits))
		}
	}
	if len(edits) == 0 {
		if len(res.Refused) > 0 && len(res.Confirmed) == 0 {
			return nil, jsonrpc2.NewError(codeRequestFailed, strings.Join(res.Refused, "; "))
		}
		res.Message = "nothing to write: the anchors already carry the current hashes"
		return res, nil
	}
	we := mergeEdits(edits)
	if w := r.s.clientCaps().Workspace; w == nil || w.ApplyEdit == nil || !*w.ApplyEdit {
		res.Edit = we
		res.Message = "the editor cannot apply edits (no workspace/applyEdit); the edit is in this answer"
		return res, nil
	}
	var applied protocol.ApplyWorkspaceEditResult
	if _, err := r.s.conn.Call(ctx, protocol.MethodWorkspaceApplyEdit,
		&protocol.ApplyWorkspaceEditParams{Label: ptr("clew: confirm reviewed"), Edit: *we}, &applied); err != nil {
		return nil, fmt.Errorf("workspace/applyEdit: %w", err)
	}
	res.Applied = applied.Applied
	if !applied.Applied && applied.FailureReason != nil {
		res.Message = *applied.FailureReason
	}
	return res, nil
}

func mergeEdits(edits []*protocol.WorkspaceEdit) *protocol.WorkspaceEdit {
	out := &protocol.WorkspaceEdit{}
	for _, e := range edits {
		for u, tes := range e.Changes {
			if out.Changes == nil {
				out.Changes = map[uri.URI][]protocol.TextEdit{}
			}
			out.Changes[u] = append(out.Changes[u], tes...)
		}
		out.DocumentChanges = append(out.DocumentChanges, e.DocumentChanges...)
	}
	return out
}

// runVerifyWorkspace answers `verify --json`'s object for the folder of the
// given document, or for the only folder; with several folders and no
// document, a list of {"root", "report"}.
func runVerifyWorkspace(ctx context.Context, r *request, raw json.RawMessage) (any, error) {
	var args anchorsArgs
	if err := decodeArgs(raw, &args); err != nil {
		return nil, err
	}
	folders := r.snap.folderSnapshots()
	if args.doc() != "" {
		f, err := r.commandFile(args.doc())
		if err != nil {
			return nil, err
		}
		folders = []*workspace.Snapshot{f.folder}
	}
	type folderReport struct {
		Root   string            `json:"root"`
		Report *workspace.Report `json:"report"`
	}
	var all []folderReport
	for _, f := range folders {
		rep, err := r.snap.report(ctx, f)
		if err != nil {
			return nil, err
		}
		// verify's mention coverage, on a copy: the diagnosis passes' report
		// is shared and leaves it out.
		withMentions := *rep
		cov := f.MentionCoverage(rep)
		withMentions.MentionCoverage = &cov
		all = append(all, folderReport{Root: f.Root(), Report: &withMentions})
	}
	var v any = all
	if len(all) == 1 {
		v = all[0].Report
	}
	b, err := json.Marshal(v) // the CLI's encoding, field for field
	if err != nil {
		return nil, err
	}
	return jsonrpc2.RawMessage(b), nil
}

// runShowAnchors answers the lens: the anchors that bind the code at the
// position (in a doc on an anchor, where that anchor binds).
func runShowAnchors(ctx context.Context, r *request, raw json.RawMessage) (any, error) {
	var args anchorsArgs
	if err := decodeArgs(raw, &args); err != nil {
		return nil, err
	}
	f, err := r.commandFile(args.doc())
	if err != nil {
		return nil, err
	}
	if args.Position == nil {
		return nil, errInvalidParams("clew.showAnchors needs a position")
	}
	off, err := f.offset(*args.Position)
	if err != nil {
		return nil, err
	}
	rep, err := r.snap.report(ctx, f.folder)
	if err != nil {
		return nil, err
	}
	return r.locations(f.folder, query.ShowAnchors(rep, f.folder, f.rel, off)), nil
}
