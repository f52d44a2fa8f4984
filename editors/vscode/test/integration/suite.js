// Extension integration tests that run INSIDE real VS Code (code-server's
// node extension host), loaded through the `extensionTestsPath` payload by
// editors/vscode/test/code-server.sh. VS Code require()s this module and
// awaits run(); a rejection makes the workbench exit with code 1.
//
// The workspace is a git copy of examples/tour; the extension under test is
// this repo's editors/vscode, pointed at the clew-lsp binary given to the
// script (user setting clew.server.path, clew.server.alwaysStart: true).
'use strict';

const vscode = require('vscode');
const fs = require('node:fs');

const RESULT = process.env.CLEW_VSCODE_RESULT; // JSON report read by the script
const steps = [];
const t0 = Date.now();

function log(msg) {
  const line = `[${String(Date.now() - t0).padStart(6)} ms] ${msg}`;
  steps.push(line);
  console.log(`clew-vscode-real: ${line}`);
}

function codeOf(d) {
  return d.code && typeof d.code === 'object' ? String(d.code.value) : String(d.code);
}

function describe(diags) {
  return diags.map((d) => `${d.range.start.line + 1}:${codeOf(d)}`).join(', ') || '(none)';
}

async function waitFor(what, fn, ms = 30000, every = 100) {
  const end = Date.now() + ms;
  let last;
  for (;;) {
    try {
      last = await fn();
      if (last) return last;
    } catch (err) {
      last = err;
    }
    if (Date.now() > end) {
      throw new Error(`timed out after ${ms} ms waiting for ${what}` + (last instanceof Error ? `: ${last.message}` : ''));
    }
    await new Promise((r) => setTimeout(r, every));
  }
}

async function suite() {
  const folder = vscode.workspace.workspaceFolders && vscode.workspace.workspaceFolders[0];
  if (!folder) throw new Error('no workspace folder is open');
  const docUri = vscode.Uri.joinPath(folder.uri, 'docs', 'architecture.md');
  const codeUri = vscode.Uri.joinPath(folder.uri, 'resolver', 'resolve.go');
  log(`workspace ${folder.uri.fsPath}; clew.server.path=${vscode.workspace.getConfiguration('clew').get('server.path')}`);

  const ext = vscode.extensions.getExtension('clew-lsp.clew-lsp');
  if (!ext) throw new Error('extension clew-lsp.clew-lsp is not loaded (extensionDevelopmentPath)');

  const doc = await vscode.workspace.openTextDocument(docUri);
  await vscode.window.showTextDocument(doc);
  log(`opened ${vscode.workspace.asRelativePath(docUri)} (language ${doc.languageId}); extension active=${ext.isActive}`);

  // 1. Diagnostics: anchor/stale on line 15 (1-based) and some anchor/lost.
  const staleOn15 = (ds) => ds.find((d) => codeOf(d) === 'anchor/stale' && d.range.start.line === 14);
  let diags = await waitFor('anchor/stale at line 15 and anchor/lost on docs/architecture.md', () => {
    const ds = vscode.languages.getDiagnostics(docUri);
    return staleOn15(ds) && ds.some((d) => codeOf(d) === 'anchor/lost') && ds;
  }, 60000).catch((err) => {
    throw new Error(`${err.message}; diagnostics now: ${describe(vscode.languages.getDiagnostics(docUri))}`);
  });
  const stale = staleOn15(diags);
  log(`diagnostics: ${describe(diags)}`);
  log(`ok: anchor/stale at line 15 ("${stale.message}") and anchor/lost`);

  // 2. Code lens on the Go file whose declaration the stale passage binds.
  const codeDoc = await vscode.workspace.openTextDocument(codeUri);
  await vscode.window.showTextDocument(codeDoc, { preview: false });
  const lens = await waitFor('a code lens containing "stale" on resolver/resolve.go', async () => {
    const lenses = (await vscode.commands.executeCommand('vscode.executeCodeLensProvider', codeUri, 100)) || [];
    return lenses.find((l) => l.command && /stale/.test(l.command.title));
  }, 30000, 250).catch(async (err) => {
    const lenses = (await vscode.commands.executeCommand('vscode.executeCodeLensProvider', codeUri, 100)) || [];
    throw new Error(`${err.message}; lenses now: ${JSON.stringify(lenses.map((l) => l.command && l.command.title))}`);
  });
  log(`ok: code lens "${lens.command.title}" at resolve.go:${lens.range.start.line + 1}`);

  // 3. Code action "Confirm reviewed" on the stale anchor's range, applied.
  await vscode.window.showTextDocument(doc);
  const actions = (await vscode.commands.executeCommand('vscode.executeCodeActionProvider', docUri, stale.range)) || [];
  log(`code actions at line 15: ${JSON.stringify(actions.map((a) => a.title))}`);
  const confirm = actions.find((a) => /^Confirm reviewed/.test(a.title));
  if (!confirm) throw new Error(`no "Confirm reviewed" action on the stale anchor; got ${JSON.stringify(actions.map((a) => a.title))}`);
  if (!confirm.edit) throw new Error(`"${confirm.title}" carries no WorkspaceEdit (command ${JSON.stringify(confirm.command)})`);
  const before = doc.lineAt(14).text;
  if (!(await vscode.workspace.applyEdit(confirm.edit))) throw new Error(`workspace.applyEdit("${confirm.title}") returned false`);
  const after = doc.lineAt(14).text;
  if (after === before) throw new Error(`"${confirm.title}" did not change line 15: ${after}`);
  log(`ok: applied "${confirm.title}": ${before.trim()} -> ${after.trim()}`);
  if (!(await doc.save())) throw new Error('saving docs/architecture.md failed');
  log('saved docs/architecture.md');

  await waitFor('the anchor/stale diagnostic at line 15 to disappear', () => !staleOn15(vscode.languages.getDiagnostics(docUri)), 30000)
    .catch((err) => { throw new Error(`${err.message}; diagnostics now: ${describe(vscode.languages.getDiagnostics(docUri))}`); });
  diags = vscode.languages.getDiagnostics(docUri);
  if (!diags.some((d) => codeOf(d) === 'anchor/lost')) throw new Error(`anchor/lost vanished too: ${describe(diags)}`);
  log(`ok: stale diagnostic gone; diagnostics now: ${describe(diags)}`);
}

exports.run = async function run() {
  let error;
  try {
    await suite();
    log('PASS');
  } catch (err) {
    error = err;
    log(`FAIL: ${err && err.stack ? err.stack : err}`);
  }
  if (RESULT) fs.writeFileSync(RESULT, JSON.stringify({ passed: !error, error: error ? String(error.message || error) : null, steps }, null, 2));
  if (error) throw error;
};
