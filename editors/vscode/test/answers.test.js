// The words the extension shows, made from the real server's answers: the
// real clew-lsp ($CLEW_LSP_REAL) serves a git copy of examples/tour over
// stdio with vscode-jsonrpc (the transport vscode-languageclient uses), and
// the extension's render functions turn its clew/status and command
// answers into the status text, Verify's counts, Explain's picker entries
// and explanation, and Confirm's message.
'use strict';

const { test, before, after } = require('node:test');
const assert = require('node:assert/strict');
const { spawn, execFileSync } = require('node:child_process');
const fs = require('node:fs');
const os = require('node:os');
const path = require('node:path');
const { pathToFileURL } = require('node:url');
const rpc = require('vscode-jsonrpc/node');
const { healthText, statusWords } = require('../src/health');
const { verifySummary, confirmSummary, contextItems, explainMarkdown, seedName, wordsOf } = require('../src/render');

const BIN = process.env.CLEW_LSP_REAL;
const TOUR = path.join(__dirname, '..', '..', '..', 'examples', 'tour');

let root;
let proc;
let conn;
const statuses = [];

function git(...args) {
  execFileSync('git', ['-c', 'user.name=clew-test', '-c', 'user.email=clew-test@example.invalid', '-c', 'commit.gpgsign=false', ...args], { cwd: root, stdio: 'ignore' });
}

async function waitFor(what, fn, ms = 30000) {
  const end = Date.now() + ms;
  for (;;) {
    const v = fn();
    if (v) return v;
    if (Date.now() > end) throw new Error(`timed out waiting for ${what}`);
    await new Promise((r) => setTimeout(r, 20));
  }
}

const run = (command, arg) => conn.sendRequest('workspace/executeCommand', { command, arguments: arg === undefined ? [] : [arg] });
const fileUri = (rel) => pathToFileURL(path.join(root, rel)).href;

before(async () => {
  assert.ok(BIN, 'set CLEW_LSP_REAL to a clew-lsp binary (editors/vscode/test/run.sh does)');
  root = fs.mkdtempSync(path.join(os.tmpdir(), 'clew-answers-'));
  fs.cpSync(TOUR, root, { recursive: true });
  git('init', '-q');
  git('add', '-A');
  git('commit', '-q', '-m', 'tour');
  proc = spawn(BIN, ['serve', '--stdio'], { stdio: ['pipe', 'pipe', 'pipe'] });
  proc.stderr.resume();
  conn = rpc.createMessageConnection(new rpc.StreamMessageReader(proc.stdout), new rpc.StreamMessageWriter(proc.stdin));
  conn.onNotification('clew/status', (s) => statuses.push(s));
  conn.onRequest('workspace/applyEdit', (p) => {
    // Apply the confirm edit to disk, as VS Code would to the document.
    for (const [uri, edits] of Object.entries(p.edit.changes || {})) {
      const file = new URL(uri).pathname;
      const lines = fs.readFileSync(file, 'utf8').split('\n');
      for (const e of edits) {
        const { start, end } = e.range;
        if (start.line !== end.line) throw new Error('multi-line edit');
        const l = lines[start.line];
        lines[start.line] = l.slice(0, start.character) + e.newText + l.slice(end.character);
      }
      fs.writeFileSync(file, lines.join('\n'));
    }
    return { applied: true };
  });
  conn.onRequest('workspace/configuration', () => [{}]);
  conn.listen();
  const uri = pathToFileURL(root).href;
  await conn.sendRequest('initialize', {
    processId: process.pid, clientInfo: { name: 'clew-vscode-test' }, rootUri: uri,
    workspaceFolders: [{ uri, name: 'tour' }],
    capabilities: { workspace: { applyEdit: true, configuration: true } },
  });
  await conn.sendNotification('initialized', {});
  await waitFor('a ready clew/status', () => statuses.some((s) => s.state === 'ready'));
});

after(async () => {
  if (conn) {
    await conn.sendRequest('shutdown').catch(() => {});
    await conn.sendNotification('exit').catch(() => {});
    conn.dispose();
  }
  if (proc) proc.kill();
  if (root) fs.rmSync(root, { recursive: true, force: true });
});

test('the status item says the tour\'s health from clew/status', async () => {
  const ready = await waitFor('a ready clew/status', () => statuses.find((s) => s.state === 'ready'));
  assert.equal(healthText(ready), '3 stale · 2 lost · 6 moved-renamed · 1 unpinned');
  const w = statusWords(ready);
  assert.equal(w.text, 'clew: 3 stale · 2 lost · 6 moved-renamed · 1 unpinned');
  assert.equal(w.detail, 'of 15 anchors');
  assert.equal(w.error, false);
  const first = statuses[0];
  assert.equal(first.state, 'starting');
  assert.deepEqual(statusWords(first), { busy: true, error: false, text: 'clew: starting…', detail: `clew-lsp ${first.version}` });
});

test('a config error makes the status an error and says so first', () => {
  const w = statusWords({ state: 'ready', version: '1.0.0', anchors: { fresh: 2 }, claims: {}, configErrors: 1 });
  assert.deepEqual([w.text, w.error], ['clew: 1 config error', true]);
  assert.equal(healthText({ anchors: { fresh: 3 }, claims: { ok: 2 } }), '3 anchors fresh · 2 claims ok');
  assert.equal(healthText({ anchors: {}, claims: {} }), 'no anchors yet');
});

test('Verify Workspace: the counts in one sentence, and that CI would fail', async () => {
  const s = verifySummary(await run('clew.verifyWorkspace'));
  assert.equal(s.text, 'clew verify: 15 anchors: 3 fresh, 3 stale, 2 lost, 6 moved-renamed, 1 unpinned. `clew-lsp verify` fails on this workspace.');
  assert.equal(s.failing, true);
});

test('Explain: the context\'s entries to pick from, then why', async () => {
  const at = { textDocument: { uri: fileUri('resolver/resolve.go') }, position: { line: 22, character: 4 } };
  const compiled = await run('clew.compileContext', at);
  assert.equal(seedName(compiled), 'resolver.Cache.Lookup');
  const { leftOut, selected, excluded } = contextItems(compiled);
  assert.ok(selected.some((e) => e.label === 'Cache.Lookup' && /^task · symbol · \d+ tokens · required$/.test(e.description)), JSON.stringify(selected[0]));
  // What the repository left out is its own group, listed first; what the
  // request left out (budget, outlined, …) comes after the selected ones.
  const stale = leftOut.find((e) => e.label === 'docs/architecture.md#Cache.Lookup-1');
  assert.ok(stale, JSON.stringify(leftOut));
  assert.ok(leftOut.every((e) => /excluded: (stale|superseded|unresolved)$/.test(e.description)), JSON.stringify(leftOut));
  assert.ok(excluded.every((e) => !/excluded: (stale|superseded|unresolved)$/.test(e.description)), JSON.stringify(excluded));
  assert.equal(leftOut.length + excluded.length, compiled.excluded.length);
  assert.equal(stale.description, 'decision · excluded: stale');
  const answer = await run('clew.explainContext', { ...at, uri: stale.uri });
  const md = explainMarkdown(answer, seedName(compiled));
  assert.match(md, /^# Why `clew:\/\/passage\/docs\/architecture\.md#Cache\.Lookup-1` is excluded\n/);
  assert.match(md, /In the dev context compiled for `resolver\.Cache\.Lookup`: \*\*excluded\*\*\./);
  assert.match(md, /\| reason \| stale \|/);
  const titled = await run('clew.compileContextMarkdown', at);
  assert.equal(titled.title, 'Cache.Lookup');
  assert.match(titled.markdown, /^# Context for `clew:\/\/symbol\/resolver\.Cache\.Lookup`/);
});

test('Confirm: says which anchor it pinned, or why not in words', async () => {
  const r = await run('clew.confirm', { textDocument: { uri: fileUri('docs/guide.md') }, line: 5 });
  assert.deepEqual(confirmSummary(r), { text: 'clew: pinned 1 anchor as reviewed: docs/guide.md:5.', ok: true });
  const none = await run('clew.confirm', { textDocument: { uri: fileUri('docs/guide.md') }, line: 1 }).catch((e) => e);
  assert.ok(none instanceof rpc.ResponseError, `want a request error, got ${JSON.stringify(none)}`);
  assert.equal(`clew: could not confirm the anchor: ${wordsOf(none)}`, 'clew: could not confirm the anchor: no @code anchor on line 1 of docs/guide.md');
});
