// The clew commands. All are registered at activation, so none ever says
// "command not found"; the ones that need the server say so when it is not
// running. Each one shows its result, and failures are said in words.
// Handlers return what they showed, which the tests in VS Code read.
'use strict';

const vscode = require('vscode');
const { verifySummary, confirmSummary, contextItems, explainMarkdown, seedName, wordsOf } = require('./render');

// The server commands the extension registers itself (the lens, quick
// fixes and the palette run these ids).
const SERVER_COMMANDS = ['clew.compileContext', 'clew.explainContext', 'clew.contextPolicy', 'clew.confirm',
  'clew.verifyWorkspace', 'clew.showAnchors', 'clew.copyAnchor', 'clew.showChange'];

// RequestFailed: the server's answer "this cannot be done here, and why"
// (for clew.showChange: the history does not hold the reviewed version).
const REQUEST_FAILED = -32803;

function cursorArgument() {
  const editor = vscode.window.activeTextEditor;
  if (!editor || editor.document.uri.scheme !== 'file') return undefined;
  const pos = editor.selection.active; // UTF-16, as LSP's
  return { textDocument: { uri: editor.document.uri.toString() }, position: { line: pos.line, character: pos.character } };
}

function register(context, ctl) {
  const say = (kind, text, ...actions) => {
    const show = kind === 'error' ? vscode.window.showErrorMessage : kind === 'warn' ? vscode.window.showWarningMessage : vscode.window.showInformationMessage;
    return show(text, ...actions);
  };

  // run executes a server command; a failure is said as an error, unless
  // refused(err) handles it (and returns true).
  async function run(command, arg, what, refused) {
    const client = await ctl.readyClient();
    if (!client) {
      ctl.notAvailable(what);
      return undefined;
    }
    try {
      return await client.sendRequest('workspace/executeCommand', { command, arguments: arg === undefined ? [] : [arg] });
    } catch (err) {
      if (refused && refused(err)) return undefined;
      ctl.output.error(`${command} failed: ${err && err.stack ? err.stack : err}`);
      say('error', `clew: could not ${what}: ${wordsOf(err)}`, 'Show Output').then((c) => c && ctl.output.show(true));
      return undefined;
    }
  }

  function needCursor(arg, what) {
    const a = arg || cursorArgument();
    if (!a) say('info', `clew: to ${what}, put the cursor in a code file or a doc of the workspace first.`);
    return a;
  }

  const handlers = {
    async 'clew.compileContext'(arg) {
      const a = needCursor(arg, 'compile the dev context');
      if (!a) return undefined;
      const r = await run('clew.compileContextMarkdown', a, 'compile the dev context');
      if (!r) return undefined;
      const editor = await ctl.docs.show(`${r.title} · dev context`, 'md', r.markdown);
      return { title: r.title, uri: editor.document.uri.toString() };
    },

    async 'clew.explainContext'(arg) {
      const a = needCursor(arg, 'explain the dev context');
      if (!a) return undefined;
      let seed = a.uri || 'the cursor';
      let target = a.uri;
      if (!target) {
        const compiled = await run('clew.compileContext', a, 'compile the dev context');
        if (!compiled) return undefined;
        seed = seedName(compiled);
        const { leftOut, selected, excluded } = contextItems(compiled);
        const items = [
          ...(leftOut.length ? [{ label: `Left out: no longer holds (${leftOut.length})`, kind: vscode.QuickPickItemKind.Separator }, ...leftOut] : []),
          { label: `Selected (${selected.length})`, kind: vscode.QuickPickItemKind.Separator },
          ...selected,
          { label: `Excluded (${excluded.length})`, kind: vscode.QuickPickItemKind.Separator },
          ...excluded,
        ];
        const pick = await vscode.window.showQuickPick(items, {
          title: `clew: the dev context of ${seed}`,
          placeHolder: 'Pick an entry to see why it is in the context, or why not',
          matchOnDescription: true,
          matchOnDetail: true,
        });
        if (!pick) return { cancelled: true };
        target = pick.uri;
      }
      const answer = await run('clew.explainContext', { ...a, uri: target }, `explain ${target}`);
      if (!answer) return undefined;
      const editor = await ctl.docs.show(`Why ${target.replace(/^.*\//, '')}`, 'md', explainMarkdown(answer, seed));
      return { uri: target, standing: answer.standing, document: editor.document.uri.toString() };
    },

    async 'clew.contextPolicy'() {
      const r = await run('clew.contextPolicy', undefined, 'read the dev context policy');
      if (!r) return undefined;
      const editor = await ctl.docs.show('Dev context policy', 'json', JSON.stringify(r, null, 2) + '\n');
      return { document: editor.document.uri.toString() };
    },

    async 'clew.verifyWorkspace'(arg) {
      const r = await run('clew.verifyWorkspace', arg, 'verify the workspace');
      if (!r) return undefined;
      const s = verifySummary(r);
      say(s.failing ? 'warn' : 'info', s.text, 'Show Problems').then((c) => {
        if (c) vscode.commands.executeCommand('workbench.actions.view.problems');
      });
      return s;
    },

    async 'clew.confirm'(arg) {
      const a = needCursor(arg, 'confirm an anchor');
      if (!a) return undefined;
      const r = await run('clew.confirm', a, 'confirm the anchor');
      if (!r) return undefined;
      const s = confirmSummary(r);
      say(s.ok ? 'info' : 'warn', s.text);
      return s;
    },

    async 'clew.showAnchors'(arg) {
      const a = needCursor(arg, 'show the anchors of a declaration');
      if (!a) return undefined;
      const locations = await run('clew.showAnchors', a, 'find the passages of this declaration');
      if (!locations) return undefined;
      if (locations.length === 0) {
        say('info', 'clew: no passage binds this code.');
        return [];
      }
      const client = ctl.runningClient();
      const conv = client.protocol2CodeConverter;
      const uri = conv.asUri(a.textDocument ? a.textDocument.uri : a.uri);
      const locs = await Promise.all(locations.map((l) => conv.asLocation(l)));
      await vscode.commands.executeCommand('editor.action.showReferences', uri, conv.asPosition(a.position), locs);
      return locations;
    },

    async 'clew.copyAnchor'(arg) {
      const a = needCursor(arg, 'copy an anchor');
      if (!a) return undefined;
      const r = await run('clew.copyAnchor', a, 'write an anchor for this declaration');
      if (!r) return undefined;
      await vscode.env.clipboard.writeText(r.anchor);
      const text = `clew: copied the anchor for ${r.kind} ${r.qualified_name}; paste it above the passage that explains it.${r.warning ? ` ${r.warning}` : ''}`;
      say('info', text);
      return { anchor: r.anchor, text };
    },

    // The quick fix and the hover link on a stale anchor send {textDocument,
    // line}; the palette sends the cursor (on the anchor or in its passage).
    async 'clew.showChange'(arg) {
      const a = needCursor(arg, 'show what changed since review');
      if (!a) return undefined;
      let refusal;
      const r = await run('clew.showChange', a, 'show what changed', (err) => {
        if (!err || err.code !== REQUEST_FAILED) return false;
        refusal = `clew: ${err.message}`;
        say('info', refusal);
        return true;
      });
      if (!r) return refusal ? { text: refusal } : undefined;
      const doc = vscode.Uri.parse(a.textDocument ? a.textDocument.uri : a.uri);
      const folder = vscode.workspace.getWorkspaceFolder(doc);
      if (!folder) {
        say('warn', `clew: ${doc.fsPath} is not in an open workspace folder.`);
        return undefined;
      }
      return ctl.reviewed.show(r, folder.uri);
    },
  };

  for (const [id, fn] of Object.entries(handlers)) {
    context.subscriptions.push(vscode.commands.registerCommand(id, fn));
  }

  context.subscriptions.push(
    vscode.commands.registerCommand('clew.showOutput', () => ctl.output.show(true)),
    vscode.commands.registerCommand('clew.restartServer', () => ctl.restart()),
    vscode.commands.registerCommand('clew.locateServer', () => ctl.locate()),
    vscode.commands.registerCommand('clew.statusActions', async () => {
      const pick = await vscode.window.showQuickPick([
        { label: '$(output) Show Output', command: 'clew.showOutput' },
        { label: '$(debug-restart) Restart Language Server', command: 'clew.restartServer' },
        { label: '$(checklist) Verify Workspace', command: 'clew.verifyWorkspace' },
      ], { title: 'clew' });
      if (pick) return vscode.commands.executeCommand(pick.command);
      return undefined;
    }),
  );
}

module.exports = { register, SERVER_COMMANDS };
