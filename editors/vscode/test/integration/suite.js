// Extension integration tests that run INSIDE real VS Code (code-server's
// node extension host), loaded through the `extensionTestsPath` payload by
// editors/vscode/test/code-server.sh. VS Code require()s this module and
// awaits run(); a rejection makes the workbench exit with code 1.
//
// The extension under test is the packaged linux-x64 VSIX, installed with
// `code-server --install-extension`; no clew-lsp is on PATH and
// clew.server.path is not set, so it must run its bundled binary. The
// workspace is a git copy of examples/tour.
//
// What the user sees is checked by driver.js in the browser: at each
// onScreen(name) this module writes <sync>/<n>-<name>.want and waits for
// driver.js to check the workbench's DOM (and take the README's
// screenshots) and answer <n>-<name>.done.
'use strict';

const vscode = require('vscode');
const fs = require('node:fs');
const path = require('node:path');

const RESULT = process.env.CLEW_VSCODE_RESULT; // JSON report read by the script
const SYNC = process.env.CLEW_VSCODE_SYNC; // folder shared with driver.js
const steps = [];
const timings = {};
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

let seq = 0;
// onScreen asks driver.js to check the workbench's DOM for `name`.
async function onScreen(name, data = {}) {
  if (!SYNC) throw new Error('CLEW_VSCODE_SYNC is not set: run this suite through test/code-server.sh');
  const id = `${String(++seq).padStart(2, '0')}-${name}`;
  const want = path.join(SYNC, `${id}.want`);
  fs.writeFileSync(`${want}.tmp`, JSON.stringify(data));
  fs.renameSync(`${want}.tmp`, want);
  const done = path.join(SYNC, `${id}.done`);
  await waitFor(`driver.js to check "${name}" on screen`, () => fs.existsSync(done), 120000, 100);
  const r = JSON.parse(fs.readFileSync(done, 'utf8'));
  if (!r.ok) throw new Error(`on screen, ${name}: ${r.error}`);
  log(`ok (on screen): ${name}: ${r.saw || ''}`);
  return r;
}

function clewDiagnostics() {
  return vscode.languages.getDiagnostics().filter(([, ds]) => ds.some((d) => d.source === 'clew' || /^(anchor|claim|config)\//.test(codeOf(d))));
}

async function suite() {
  const folder = vscode.workspace.workspaceFolders && vscode.workspace.workspaceFolders[0];
  if (!folder) throw new Error('no workspace folder is open');
  const docUri = vscode.Uri.joinPath(folder.uri, 'docs', 'architecture.md');
  const guideUri = vscode.Uri.joinPath(folder.uri, 'docs', 'guide.md');
  const codeUri = vscode.Uri.joinPath(folder.uri, 'resolver', 'resolve.go');
  const setting = vscode.workspace.getConfiguration('clew').get('server.path');
  log(`workspace ${folder.uri.fsPath}; clew.server.path=${JSON.stringify(setting)}`);
  if (setting) throw new Error(`clew.server.path is set (${setting}); this test runs the bundled binary`);

  const ext = vscode.extensions.getExtension('clew-lsp.clew-lsp');
  if (!ext) throw new Error('extension clew-lsp.clew-lsp is not installed');
  if (!ext.extensionPath.includes(`${path.sep}exts${path.sep}`)) throw new Error(`the extension is not the installed VSIX: ${ext.extensionPath}`);
  log(`extension ${ext.packageJSON.version} from ${ext.extensionPath}; active=${ext.isActive}`);

  // 1. A code file opened first (no doc open): the extension is active
  // (workspaceContains), runs its bundled binary, and the file gets lenses.
  const tOpen = Date.now();
  const codeDoc = await vscode.workspace.openTextDocument(codeUri);
  const codeEditor = await vscode.window.showTextDocument(codeDoc, { preview: false });
  log(`opened ${vscode.workspace.asRelativePath(codeUri)} first (language ${codeDoc.languageId})`);
  await waitFor('the extension to activate', () => ext.isActive, 60000);
  const api = ext.exports;
  const server = await waitFor('the server to be resolved', () => api.server(), 30000);
  const bundled = path.join(ext.extensionPath, 'bin', 'clew-lsp');
  if (server.path !== bundled) throw new Error(`server is ${server.path} (${server.source}), want the bundled ${bundled}`);
  log(`ok: server ${server.path} (${server.source})`);
  await waitFor('the first clew diagnostics', () => clewDiagnostics().length > 0, 60000, 50);
  timings.firstDiagnosticsMs = Date.now() - tOpen;
  const lens = await waitFor('a code lens containing "stale" on resolver/resolve.go', async () => {
    const lenses = (await vscode.commands.executeCommand('vscode.executeCodeLensProvider', codeUri, 100)) || [];
    return lenses.find((l) => l.command && /stale/.test(l.command.title));
  }, 60000, 250);
  timings.firstLensMs = Date.now() - tOpen;
  log(`ok: lens "${lens.command.title}" at resolve.go:${lens.range.start.line + 1}; first diagnostics ${timings.firstDiagnosticsMs} ms, lens ${timings.firstLensMs} ms after opening the file`);
  await onScreen('lens', { text: lens.command.title });

  // 2. The language status item says the workspace's health.
  const st = await waitFor('the status item to show the health', () => {
    const s = api.status();
    return s.state === 'ready' && /3 stale · 2 lost/.test(s.health) && s;
  }, 60000).catch((err) => { throw new Error(`${err.message}; status now ${JSON.stringify(api.status())}`); });
  log(`ok: status "${st.health}" / "${st.detail}" / "${st.server}"`);
  await onScreen('status', { health: st.health });

  // 3. Compile Dev Context at the cursor inside Cache.Lookup: a read-only
  // Markdown document beside the code, titled after the seed, listing what
  // was excluded.
  const lookup = codeDoc.getText().split('\n').findIndex((l) => l.includes('func (c *Cache) Lookup'));
  if (lookup < 0) throw new Error('no Cache.Lookup in resolver/resolve.go');
  codeEditor.selection = new vscode.Selection(lookup + 2, 4, lookup + 2, 4);
  const compiled = await vscode.commands.executeCommand('clew.compileContext');
  if (!compiled || !compiled.uri) throw new Error(`clew.compileContext answered ${JSON.stringify(compiled)}`);
  const ctxEditor = vscode.window.visibleTextEditors.find((e) => e.document.uri.toString() === compiled.uri);
  if (!ctxEditor) throw new Error(`the context document ${compiled.uri} is not visible`);
  const ctxText = ctxEditor.document.getText();
  if (ctxEditor.document.languageId !== 'markdown') throw new Error(`context document language ${ctxEditor.document.languageId}`);
  if (!ctxText.includes('# Context for `clew://symbol/resolver.Cache.Lookup`')) throw new Error(`context does not name the seed: ${ctxText.slice(0, 200)}`);
  if (!/## Excluded[\s\S]*clew:\/\/passage\/docs\/architecture\.md#Cache\.Lookup-1[^\n]*stale/.test(ctxText)) throw new Error('context does not list the stale passage as excluded');
  if (ctxEditor.viewColumn === codeEditor.viewColumn) throw new Error('the context did not open beside the code');
  log(`ok: "${compiled.title}" opened beside the code (${ctxText.split('\n').length} lines)`);
  await onScreen('context', { tab: `${compiled.title} · dev context`, seed: 'Context for' }); // and read-only
  if (ctxEditor.document.getText() !== ctxText) throw new Error('typing changed the context document');
  const excludedLine = ctxText.split('\n').findIndex((l) => l === '## Excluded');
  ctxEditor.revealRange(new vscode.Range(excludedLine, 0, excludedLine + 6, 0), vscode.TextEditorRevealType.AtTop);
  await onScreen('context-excluded', { heading: '## Excluded', entry: 'Cache.Lookup-1' });

  // 4. Explain: pick the excluded passage from the context's entries.
  await vscode.window.showTextDocument(codeDoc, { viewColumn: codeEditor.viewColumn, preview: false });
  const explaining = vscode.commands.executeCommand('clew.explainContext');
  await onScreen('explain-pick', { pick: 'docs/architecture.md#Cache.Lookup-1', badge: 'excluded: stale' });
  const explained = await explaining;
  if (!explained || explained.standing !== 'excluded') throw new Error(`explain answered ${JSON.stringify(explained)}`);
  const why = vscode.window.visibleTextEditors.find((e) => e.document.uri.toString() === explained.document);
  if (!why || !/is excluded/.test(why.document.getText()) || !/stale/.test(why.document.getText())) throw new Error('the explanation is not shown');
  log(`ok: explained ${explained.uri}: ${explained.standing}`);
  await onScreen('explain-doc', { marker: '# Why', text: 'Cache.Lookup-1` is excluded' });

  // 5. Policy opens as a document.
  const policy = await vscode.commands.executeCommand('clew.contextPolicy');
  const policyEditor = policy && vscode.window.visibleTextEditors.find((e) => e.document.uri.toString() === policy.document);
  if (!policyEditor || !/"tiers"/.test(policyEditor.document.getText())) throw new Error(`policy not shown: ${JSON.stringify(policy)}`);
  log('ok: policy document shown');

  // 6. Verify Workspace: the counts, with a way to the Problems view. The
  // protocol trace is switched on first; code-server.sh reads it from the
  // "clew (trace)" output channel's log.
  await vscode.workspace.getConfiguration('clew').update('trace.server', 'messages', vscode.ConfigurationTarget.Global);
  await new Promise((r) => setTimeout(r, 1000));
  const verified = await vscode.commands.executeCommand('clew.verifyWorkspace');
  if (!verified || !/^clew verify: 15 anchors: /.test(verified.text) || !/\b3 stale\b/.test(verified.text) || !/\b2 lost\b/.test(verified.text)
    || !verified.failing) {
    throw new Error(`verify said ${JSON.stringify(verified)}`);
  }
  log(`ok: verify: ${verified.text}`);
  await onScreen('verify', { text: 'clew verify: 15 anchors', button: 'Show Problems' });

  // 7. (kept from the first suite) diagnostics on the doc: anchor/stale on
  // line 15 and anchor/lost.
  const doc = await vscode.workspace.openTextDocument(docUri);
  await vscode.window.showTextDocument(doc, { viewColumn: vscode.ViewColumn.One });
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

  // 7b. Show what changed since review: the quick fix on the stale anchor
  // opens VS Code's diff editor, the reviewed file (a read-only
  // clew-reviewed: document; the workspace's git history holds the version
  // Cache.Lookup was pinned on) against the real file.
  const fixes = (await vscode.commands.executeCommand('vscode.executeCodeActionProvider', docUri, stale.range)) || [];
  // Room for the side-by-side diff (below 900 px VS Code shows it inline):
  // one editor group, no panel, no sidebar.
  for (const c of ['workbench.action.joinAllGroups', 'workbench.action.closePanel', 'workbench.action.closeSidebar']) {
    await vscode.commands.executeCommand(c);
  }
  // (VS Code lists the preferred fix, Confirm reviewed, first.)
  const show = fixes.find((a) => a.title === 'Show what changed since review');
  if (!show || !show.command || show.edit) {
    throw new Error(`no "Show what changed since review" command on the stale anchor: ${JSON.stringify(fixes.map((a) => a.title))}`);
  }
  const shown = await vscode.commands.executeCommand(show.command.command, ...(show.command.arguments || []));
  if (!shown || !/^method Cache\.Lookup: reviewed \([0-9a-f]{7}\) ↔ now$/.test(shown.title)) throw new Error(`show change answered ${JSON.stringify(shown)}`);
  const diffTab = () => {
    const t = vscode.window.tabGroups.activeTabGroup.activeTab;
    return t && t.input instanceof vscode.TabInputTextDiff ? t : undefined;
  };
  const tab = await waitFor('the diff editor to be the active tab', diffTab, 30000);
  if (tab.label !== shown.title || tab.input.original.scheme !== 'clew-reviewed' || tab.input.modified.toString() !== codeUri.toString()) {
    throw new Error(`diff tab ${tab.label}: ${tab.input.original} ↔ ${tab.input.modified}`);
  }
  const reviewedDoc = await vscode.workspace.openTextDocument(tab.input.original);
  if (!reviewedDoc.getText().includes('\t\tc.hits++\n') || reviewedDoc.getText().includes('c.hits += 2')) throw new Error('the reviewed side is not the reviewed Lookup');
  log(`ok: "${show.title}" opened the diff "${tab.label}" (${tab.input.original} ↔ resolve.go), cursor at line ${shown.line + 1}`);
  await onScreen('show-change', { tab: shown.title, before: 'c.hits++', after: 'c.hits += 2' });
  await vscode.commands.executeCommand('workbench.action.closeActiveEditor');

  // 7c. The same from the stale anchor's hover: its last line is a command
  // link, clicked on screen.
  const hovers = (await vscode.commands.executeCommand('vscode.executeHoverProvider', docUri, new vscode.Position(14, 8))) || [];
  const hoverText = hovers.map((h) => h.contents.map((c) => (typeof c === 'string' ? c : c.value)).join('\n')).join('\n');
  if (!/\[Show what changed since review\]\(command:clew\.showChange\?[^)\s]+\)/.test(hoverText)) throw new Error(`the stale anchor's hover has no command link: ${hoverText}`);
  const docEditor = await vscode.window.showTextDocument(doc, { viewColumn: vscode.ViewColumn.One, preserveFocus: false });
  docEditor.selection = new vscode.Selection(14, 8, 14, 8);
  await vscode.commands.executeCommand('editor.action.showHover');
  await onScreen('hover-link', { link: 'Show what changed since review' });
  const linked = await waitFor('the hover link to open the diff editor', () => {
    const t = diffTab();
    return t && t.label === shown.title && t;
  }, 30000);
  log(`ok: the hover link opened "${linked.label}"`);
  await vscode.commands.executeCommand('workbench.action.closeActiveEditor');
  await vscode.window.showTextDocument(doc, { viewColumn: vscode.ViewColumn.One });

  // 8. (kept) code action "Confirm reviewed" on the stale anchor, applied.
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
  await waitFor('the anchor/stale diagnostic at line 15 to disappear', () => !staleOn15(vscode.languages.getDiagnostics(docUri)), 30000)
    .catch((err) => { throw new Error(`${err.message}; diagnostics now: ${describe(vscode.languages.getDiagnostics(docUri))}`); });
  diags = vscode.languages.getDiagnostics(docUri);
  if (!diags.some((d) => codeOf(d) === 'anchor/lost')) throw new Error(`anchor/lost vanished too: ${describe(diags)}`);
  log(`ok: stale diagnostic gone; diagnostics now: ${describe(diags)}`);

  // 9. The Confirm command on another stale anchor (docs/guide.md:5)
  // says what it pinned; the status item follows (the SQL table's anchor,
  // docs/architecture.md:63, stays stale).
  const guide = await vscode.workspace.openTextDocument(guideUri);
  const guideEditor = await vscode.window.showTextDocument(guide, { viewColumn: vscode.ViewColumn.One });
  guideEditor.selection = new vscode.Selection(4, 0, 4, 0);
  const confirmed = await vscode.commands.executeCommand('clew.confirm');
  if (!confirmed || !confirmed.ok || !/pinned 1 anchor as reviewed: docs\/guide\.md:5/.test(confirmed.text)) throw new Error(`confirm said ${JSON.stringify(confirmed)}`);
  log(`ok: ${confirmed.text}`);
  await onScreen('confirm', { text: 'pinned 1 anchor as reviewed' });
  if (!(await guide.save())) throw new Error('saving docs/guide.md failed');
  const healed = await waitFor('the status item to count one stale anchor (the SQL table)', () => {
    const s = api.status();
    return s.state === 'ready' && /^clew: 1 stale · /.test(s.health) && /2 lost/.test(s.health) && s;
  }, 60000).catch((err) => { throw new Error(`${err.message}; status now ${JSON.stringify(api.status())}`); });
  log(`ok: status now "${healed.health}"`);

  // 10. A pin no commit holds (Resolve's, edited in the buffer): Show what
  // changed says exactly that, as information, and opens nothing.
  const archEditor = await vscode.window.showTextDocument(doc, { viewColumn: vscode.ViewColumn.One });
  const resolveLine = doc.getText().split('\n').findIndex((l) => l.includes('@code function Resolve resolver/resolve.go'));
  if (resolveLine < 0) throw new Error('no Resolve anchor in docs/architecture.md');
  const pinned = doc.lineAt(resolveLine).text;
  const bogus = pinned.replace(/sha=v2:[0-9a-f]+/, 'sha=v2:0123456789ab');
  await archEditor.edit((e) => e.replace(doc.lineAt(resolveLine).range, bogus));
  const staleAt = (line) => vscode.languages.getDiagnostics(docUri).find((d) => codeOf(d) === 'anchor/stale' && d.range.start.line === line);
  const bogusDiag = await waitFor(`anchor/stale at line ${resolveLine + 1} after the edit`, () => staleAt(resolveLine), 30000);
  const bogusFix = ((await vscode.commands.executeCommand('vscode.executeCodeActionProvider', docUri, bogusDiag.range)) || [])
    .find((a) => a.title === 'Show what changed since review');
  if (!bogusFix) throw new Error('no "Show what changed since review" on the edited pin');
  const tabsBefore = vscode.window.tabGroups.all.reduce((n, g) => n + g.tabs.length, 0);
  const refused = await vscode.commands.executeCommand(bogusFix.command.command, ...bogusFix.command.arguments);
  const wantRefusal = `clew: docs/architecture.md:${resolveLine + 1}: the reviewed version (hash 0123456789ab) is not in the last 100 commits of resolver/resolve.go; the history does not hold it`;
  if (!refused || refused.text !== wantRefusal) throw new Error(`show change on an unknown pin said ${JSON.stringify(refused)}`);
  if (vscode.window.tabGroups.all.reduce((n, g) => n + g.tabs.length, 0) !== tabsBefore || diffTab()) throw new Error('a tab opened for a version history does not hold');
  log(`ok: ${refused.text}`);
  await onScreen('not-held', { text: 'the history does not hold it' });

  // 11. Copy anchor then paste: the code action on Resolve puts its pinned
  // anchor on the clipboard; pasted over the edited pin (a paste event in
  // the editor, driver.js), the passage is fresh again.
  const codeLines = codeDoc.getText().split('\n');
  const resolveDecl = codeLines.findIndex((l) => l.startsWith('func Resolve('));
  const onDecl = new vscode.Range(resolveDecl, 6, resolveDecl, 6);
  const codeActions = (await vscode.commands.executeCommand('vscode.executeCodeActionProvider', codeUri, onDecl)) || [];
  const copy = codeActions.find((a) => a.title === 'Copy anchor for function Resolve');
  if (!copy || !copy.command) throw new Error(`no "Copy anchor for function Resolve" on resolve.go:${resolveDecl + 1}: ${JSON.stringify(codeActions.map((a) => a.title))}`);
  const copied = await vscode.commands.executeCommand(copy.command.command, ...copy.command.arguments);
  if (!copied || !/^<!-- @code function Resolve resolver\/resolve\.go sha=v2:[0-9a-f]{12},[0-9a-f]{12} -->$/.test(copied.anchor)) {
    throw new Error(`copy anchor answered ${JSON.stringify(copied)}`);
  }
  const onClipboard = await vscode.env.clipboard.readText();
  if (onClipboard !== copied.anchor) throw new Error(`the clipboard holds ${JSON.stringify(onClipboard)}, not the anchor`);
  log(`ok: ${copied.text}`);
  await vscode.window.showTextDocument(doc, { viewColumn: vscode.ViewColumn.One, preserveFocus: false });
  await onScreen('paste', { line: onClipboard, replace: 'sha=v2:0123456789ab' });
  await waitFor('the pasted anchor in the buffer', () => doc.lineAt(resolveLine).text === copied.anchor, 30000)
    .catch((err) => { throw new Error(`${err.message}; line ${resolveLine + 1} is ${JSON.stringify(doc.lineAt(resolveLine).text)}`); });
  await waitFor(`the stale diagnostic at line ${resolveLine + 1} to go`, () => !vscode.languages.getDiagnostics(docUri).some((d) => d.range.start.line === resolveLine), 30000)
    .catch((err) => { throw new Error(`${err.message}; diagnostics now: ${describe(vscode.languages.getDiagnostics(docUri))}`); });
  const freshHover = ((await vscode.commands.executeCommand('vscode.executeHoverProvider', docUri, new vscode.Position(resolveLine, 8))) || [])
    .map((h) => h.contents.map((c) => (typeof c === 'string' ? c : c.value)).join('\n')).join('\n');
  if (!freshHover.includes('**function Resolve** · fresh')) throw new Error(`the pasted anchor's hover: ${freshHover}`);
  log(`ok: pasted at docs/architecture.md:${resolveLine + 1}; no diagnostic there, the hover says fresh`);
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
  if (RESULT) fs.writeFileSync(RESULT, JSON.stringify({ passed: !error, error: error ? String(error.message || error) : null, timings, steps }, null, 2));
  if (error) throw error;
};
