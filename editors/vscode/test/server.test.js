// Starts the server binary ($CLEW_LSP) over stdio with vscode-jsonrpc, the
// transport vscode-languageclient uses, and checks the LSP handshake.
'use strict';

const { test } = require('node:test');
const assert = require('node:assert/strict');
const { spawn } = require('node:child_process');
const fs = require('node:fs');
const os = require('node:os');
const path = require('node:path');
const { pathToFileURL } = require('node:url');
const rpc = require('vscode-jsonrpc/node');

const BIN = process.env.CLEW_LSP;
// Set by run.sh when it built the temporary test server, whose backend flags
// this marker; the real server reports real findings instead.
const MARKER = process.env.CLEW_MARKER;

function startServer(args) {
  assert.ok(BIN, 'set CLEW_LSP to the server binary (editors/vscode/test/run.sh does)');
  const proc = spawn(BIN, args, { stdio: ['pipe', 'pipe', 'pipe'] });
  let stderr = '';
  proc.stderr.on('data', (d) => { stderr += d; });
  const exited = new Promise((resolve) => proc.on('exit', (code) => resolve(code)));
  const conn = rpc.createMessageConnection(new rpc.StreamMessageReader(proc.stdout), new rpc.StreamMessageWriter(proc.stdin));
  conn.listen();
  return { proc, conn, exited, stderr: () => stderr };
}

function workspace() {
  const dir = fs.mkdtempSync(path.join(os.tmpdir(), 'clew-vscode-'));
  fs.writeFileSync(path.join(dir, '.clew.yml'), 'hints_in_code: true\n');
  fs.mkdirSync(path.join(dir, 'docs'));
  return dir;
}

function initializeParams(root) {
  const uri = pathToFileURL(root).href;
  return {
    processId: process.pid,
    clientInfo: { name: 'clew-vscode-test' },
    rootUri: uri,
    workspaceFolders: [{ uri, name: 'ws' }],
    capabilities: {
      workspace: { configuration: true, didChangeConfiguration: { dynamicRegistration: true } },
      window: { workDoneProgress: true },
    },
    initializationOptions: { hints_in_code: true },
  };
}

function withTimeout(promise, ms, what) {
  let timer;
  return Promise.race([
    promise,
    new Promise((_, reject) => { timer = setTimeout(() => reject(new Error(`timed out waiting for ${what}`)), ms); }),
  ]).finally(() => clearTimeout(timer));
}

// vscode-languageclient starts servers as `<cmd> <args> --stdio`.
test('initialize over stdio, as vscode-languageclient starts the server', async () => {
  const root = workspace();
  const s = startServer(['serve', '--stdio']);
  try {
    // The server pulls settings and creates progress; answer like VS Code.
    s.conn.onRequest('workspace/configuration', (p) => p.items.map(() => ({ hints_in_code: true })));
    s.conn.onRequest('client/registerCapability', () => null);
    s.conn.onRequest('window/workDoneProgress/create', () => null);
    const diagnosed = new Promise((resolve) => s.conn.onNotification('$/clew/diagnosed', resolve));
    const published = [];
    s.conn.onNotification('textDocument/publishDiagnostics', (p) => published.push(p));

    const res = await withTimeout(s.conn.sendRequest('initialize', initializeParams(root)), 10000, 'initialize');
    assert.equal(res.serverInfo.name, 'clew-lsp');
    assert.equal(res.capabilities.positionEncoding, 'utf-16');
    assert.deepEqual(res.capabilities.textDocumentSync, { openClose: true, change: 2, save: { includeText: false } });
    await s.conn.sendNotification('initialized', {});

    const doc = path.join(root, 'docs', 'guide.md');
    const text = `# Résumé 😀\n\n${MARKER || 'plain text'}\n`;
    fs.writeFileSync(doc, text);
    const uri = pathToFileURL(doc).href;
    await s.conn.sendNotification('textDocument/didOpen', { textDocument: { uri, languageId: 'markdown', version: 1, text } });
    await withTimeout(diagnosed, 10000, '$/clew/diagnosed');
    if (MARKER) {
      const mine = published.filter((p) => p.uri === uri);
      assert.equal(mine.length, 1, 'one publishDiagnostics for the doc');
      assert.deepEqual(mine[0].diagnostics.map((d) => [d.code, d.range.start.line, d.range.start.character]), [['test/marker', 2, 0]]);
    }

    await withTimeout(s.conn.sendRequest('shutdown'), 10000, 'shutdown');
    await s.conn.sendNotification('exit');
    assert.equal(await withTimeout(s.exited, 10000, 'process exit'), 0, 'exit status after shutdown+exit');
  } catch (err) {
    err.message += `\nserver stderr:\n${s.stderr()}`;
    throw err;
  } finally {
    s.conn.dispose();
    s.proc.kill();
  }
});

test('a malformed frame is answered and the connection survives', async () => {
  const s = startServer(['serve']);
  try {
    const errors = [];
    s.conn.onError(([err]) => errors.push(err));
    // Raw garbage with a valid header: the server answers a parse error with
    // a null id (vscode-jsonrpc reports it as an unmatched response).
    const body = '{"jsonrpc":"2.0","id":1,"method":';
    s.proc.stdin.write(`Content-Length: ${Buffer.byteLength(body)}\r\n\r\n${body}`);
    const res = await withTimeout(s.conn.sendRequest('initialize', initializeParams(workspace())), 10000, 'initialize after garbage');
    assert.equal(res.serverInfo.name, 'clew-lsp');
  } finally {
    s.conn.dispose();
    s.proc.kill();
  }
});
