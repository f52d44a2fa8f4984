// The clew VS Code extension: a thin client. It starts `clew-lsp serve` over
// stdio and lets vscode-languageclient do the rest; all analysis lives in
// the server, so Neovim and VS Code behave the same.
'use strict';

const vscode = require('vscode');
const { LanguageClient, TransportKind } = require('vscode-languageclient/node');

// Markdown docs plus every language clew indexes (docs/anchors.md).
const LANGUAGES = [
  'markdown', 'mdx',
  'go', 'typescript', 'typescriptreact', 'javascript', 'javascriptreact',
  'python', 'rust', 'java', 'kotlin', 'swift', 'c', 'cpp', 'csharp',
];

// Settings that configure the editor side only; the rest is the server's
// "clew" section with the .clew.yml keys (docs/config.md).
const CLIENT_ONLY = new Set(['server', 'trace']);

// Server commands that act on the cursor: from the palette they get the
// active editor's position as their argument.
const AT_CURSOR = new Set(['clew.compileContext', 'clew.explainContext', 'clew.confirm', 'clew.showAnchors']);

let client;
let output;

function serverSettings() {
  const cfg = vscode.workspace.getConfiguration('clew');
  const out = {};
  for (const key of ['docs', 'budget', 'languages', 'anchors', 'hints_in_code']) {
    const v = cfg.get(key);
    if (v !== undefined && !CLIENT_ONLY.has(key)) out[key] = v;
  }
  return out;
}

function cursorArguments() {
  const editor = vscode.window.activeTextEditor;
  if (!editor) return [];
  const pos = editor.selection.active; // VS Code positions are UTF-16, as LSP's
  return [{
    textDocument: { uri: editor.document.uri.toString() },
    position: { line: pos.line, character: pos.character },
  }];
}

// showLocations opens the references peek at the lens position with the
// passages (LSP locations) the server returned.
async function showLocations(arg, locations) {
  if (!client || locations.length === 0) {
    vscode.window.showInformationMessage('clew: no passages bind this code');
    return;
  }
  const conv = client.protocol2CodeConverter;
  const uri = conv.asUri(arg.textDocument ? arg.textDocument.uri : arg.uri);
  const pos = conv.asPosition(arg.position);
  const locs = await Promise.all(locations.map((l) => conv.asLocation(l)));
  await vscode.commands.executeCommand('editor.action.showReferences', uri, pos, locs);
}

// hasAnchors looks for an anchor comment in the workspace's Markdown (at
// most 500 files), so a project that writes anchors without any config file
// still gets the server.
async function hasAnchors() {
  const docs = await vscode.workspace.findFiles('**/*.{md,mdx,markdown}', '{**/node_modules/**,**/vendor/**,**/third_party/**}', 500);
  for (const uri of docs) {
    try {
      const text = Buffer.from(await vscode.workspace.fs.readFile(uri)).toString('utf8');
      if (/<!--\s*@(code|anchor)\b/.test(text)) return true;
    } catch (_) {
      // unreadable: skip
    }
  }
  return false;
}

async function hasProjectConfig() {
  const found = await vscode.workspace.findFiles('{.clew.yml,.multivac/config.yml}', '**/node_modules/**', 1);
  return found.length > 0;
}

function createClient() {
  const cfg = vscode.workspace.getConfiguration('clew');
  const command = cfg.get('server.path') || 'clew-lsp';
  const args = cfg.get('server.args') || ['serve'];
  const executable = { command, args, transport: TransportKind.stdio };
  return new LanguageClient('clew', 'clew', { run: executable, debug: executable }, {
    documentSelector: LANGUAGES.map((language) => ({ scheme: 'file', language })),
    outputChannel: output,
    initializationOptions: serverSettings(),
    middleware: {
      // Palette invocations carry no arguments; give cursor commands the
      // cursor. Lenses and code actions pass their own. clew.showAnchors
      // answers with locations, shown in VS Code's references peek.
      executeCommand: async (command, args, next) => {
        const callArgs = args.length === 0 && AT_CURSOR.has(command) ? cursorArguments() : args;
        const result = await next(command, callArgs);
        if (command === 'clew.showAnchors' && Array.isArray(result) && callArgs[0]) {
          await showLocations(callArgs[0], result);
        }
        // "Copy anchor for …": the server answers the anchor line; the
        // clipboard is the client's.
        if (command === 'clew.copyAnchor' && result && typeof result.anchor === 'string') {
          await vscode.env.clipboard.writeText(result.anchor);
          vscode.window.showInformationMessage(`clew: copied the anchor for ${result.kind} ${result.qualified_name}`);
        }
        return result;
      },
    },
  });
}

async function activate(context) {
  output = vscode.window.createOutputChannel('clew', { log: true });
  context.subscriptions.push(output);
  context.subscriptions.push(vscode.commands.registerCommand('clew.showOutput', () => output.show(true)));
  context.subscriptions.push(vscode.commands.registerCommand('clew.restartServer', async () => {
    if (client) {
      await client.restart();
    } else {
      await start();
    }
  }));

  async function start() {
    client = createClient();
    try {
      await client.start();
    } catch (err) {
      output.appendLine(`clew-lsp did not start: ${err && err.message ? err.message : err}`);
      vscode.window.showErrorMessage('clew: the language server did not start. Set "clew.server.path" or put clew-lsp on PATH.', 'Show Output')
        .then((choice) => choice && output.show(true));
    }
  }

  const cfg = vscode.workspace.getConfiguration('clew');
  if (!cfg.get('server.alwaysStart') && !(await hasProjectConfig()) && !(await hasAnchors())) {
    output.appendLine('No .clew.yml, .multivac/config.yml or @code/@anchor comment in this workspace; clew stays off (setting clew.server.alwaysStart starts it anyway).');
    return;
  }
  await start();
}

function deactivate() {
  return client ? client.stop() : undefined;
}

module.exports = { activate, deactivate };
