// Where the extension finds clew-lsp: the setting, then the bundled binary,
// then PATH, then Go's bin directory; real files in a temporary folder.
'use strict';

const { test } = require('node:test');
const assert = require('node:assert/strict');
const fs = require('node:fs');
const os = require('node:os');
const path = require('node:path');
const { resolveServer } = require('../src/serverPath');

function tree() {
  const root = fs.mkdtempSync(path.join(os.tmpdir(), 'clew-serverpath-'));
  const dirs = {};
  for (const d of ['ext/bin', 'path1', 'path2', 'gobin', 'gopath/bin', 'home/go/bin', 'empty']) {
    dirs[d] = path.join(root, d);
    fs.mkdirSync(dirs[d], { recursive: true });
  }
  const put = (dir, mode = 0o755) => {
    const p = path.join(dirs[dir], 'clew-lsp');
    fs.writeFileSync(p, '#!/bin/sh\n');
    fs.chmodSync(p, mode);
    return p;
  };
  return { root, dirs, put };
}

function resolve(t, over = {}) {
  return resolveServer({
    platform: 'linux',
    extensionPath: path.join(t.root, 'ext'),
    home: path.join(t.root, 'home'),
    env: { PATH: [t.dirs.empty, t.dirs.path1, t.dirs.path2].join(':'), GOBIN: t.dirs.gobin, GOPATH: path.join(t.root, 'gopath') },
    ...over,
  });
}

test('each place is used when the ones before it have no binary', () => {
  const t = tree();
  const home = t.put('home/go/bin');
  assert.deepEqual(resolve(t), { path: home, source: '~/go/bin' });
  const gopath = t.put('gopath/bin');
  assert.deepEqual(resolve(t), { path: gopath, source: '$GOPATH/bin' });
  const gobin = t.put('gobin');
  assert.deepEqual(resolve(t), { path: gobin, source: '$GOBIN' });
  const onPath = t.put('path2');
  assert.deepEqual(resolve(t), { path: onPath, source: 'PATH' });
  const bundled = t.put('ext/bin');
  assert.deepEqual(resolve(t), { path: bundled, source: 'the binary bundled with the extension' });
  const mine = path.join(t.root, 'mine');
  fs.writeFileSync(mine, '#!/bin/sh\n');
  fs.chmodSync(mine, 0o755);
  assert.deepEqual(resolve(t, { setting: mine }), { path: mine, source: 'setting clew.server.path' });
});

test('a file that is not executable is passed over', () => {
  const t = tree();
  t.put('path1', 0o644);
  const second = t.put('path2');
  assert.equal(resolve(t).path, second);
});

test('nothing found: a reason and every place looked at', () => {
  const t = tree();
  const r = resolve(t);
  assert.equal(r.path, null);
  assert.match(r.reason, /clew-lsp was not found/);
  assert.ok(r.tried.includes(path.join(t.root, 'ext', 'bin', 'clew-lsp')));
  assert.ok(r.tried.includes(path.join(t.root, 'home', 'go', 'bin', 'clew-lsp')));
  assert.ok(r.tried.includes(path.join(t.dirs.gobin, 'clew-lsp')));
});

test('a setting that names no binary is reported, not skipped', () => {
  const t = tree();
  t.put('ext/bin');
  const r = resolve(t, { setting: '~/nowhere/clew-lsp' });
  assert.equal(r.path, null);
  assert.match(r.reason, /clew\.server\.path is "~\/nowhere\/clew-lsp", which is not an executable file/);
  assert.deepEqual(r.tried, [path.join(t.root, 'home', 'nowhere', 'clew-lsp')]);
});

test('Windows: clew-lsp.exe, ; between PATH entries, no execute bit', () => {
  const seen = [];
  const r = resolveServer({
    platform: 'win32', extensionPath: 'C:\\ext', home: 'C:\\Users\\me',
    env: { Path: 'C:\\a;C:\\b', GOPATH: 'C:\\go1;C:\\go2' },
    isExecutable: (p) => { seen.push(p); return p === 'C:\\go2\\bin\\clew-lsp.exe'; },
  });
  assert.deepEqual(r, { path: 'C:\\go2\\bin\\clew-lsp.exe', source: '$GOPATH/bin' });
  assert.deepEqual(seen, ['C:\\ext\\bin\\clew-lsp.exe', 'C:\\a\\clew-lsp.exe', 'C:\\b\\clew-lsp.exe', 'C:\\go1\\bin\\clew-lsp.exe', 'C:\\go2\\bin\\clew-lsp.exe']);
});
