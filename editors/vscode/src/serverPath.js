// Where the clew-lsp binary comes from, in order: the clew.server.path
// setting, the binary bundled in the extension (bin/), PATH, then Go's bin
// directory ($GOBIN, each $GOPATH/bin, ~/go/bin), where `go install` puts it.
// No vscode import: the node tests call it with a fake environment.
'use strict';

const fs = require('node:fs');
const path = require('node:path');
const os = require('node:os');

function binaryName(platform) {
  return platform === 'win32' ? 'clew-lsp.exe' : 'clew-lsp';
}

function isExecutableFile(p, platform) {
  try {
    if (!fs.statSync(p).isFile()) return false;
    if (platform !== 'win32') fs.accessSync(p, fs.constants.X_OK);
    return true;
  } catch (_) {
    return false;
  }
}

// expandHome turns a leading ~ into the home directory, as a user typing
// the setting expects.
function expandHome(p, home) {
  if (p === '~') return home;
  if (p.startsWith('~/') || p.startsWith('~\\')) return path.join(home, p.slice(2));
  return p;
}

// resolveServer returns {path, source} for the first candidate that is an
// executable file, or {path: null, reason, tried} saying why none was.
// A clew.server.path that does not work is reported, not skipped: the user
// asked for that binary.
function resolveServer(opts) {
  const platform = opts.platform || process.platform;
  const env = opts.env || process.env;
  const home = opts.home || os.homedir();
  const isExe = opts.isExecutable || ((p) => isExecutableFile(p, platform));
  const delimiter = platform === 'win32' ? ';' : ':';
  const join = platform === 'win32' ? path.win32.join : path.posix.join;
  const name = binaryName(platform);

  const setting = (opts.setting || '').trim();
  if (setting) {
    const p = expandHome(setting, home);
    if (isExe(p)) return { path: p, source: 'setting clew.server.path' };
    return { path: null, reason: `the setting clew.server.path is "${setting}", which is not an executable file`, tried: [p] };
  }

  const candidates = [];
  if (opts.extensionPath) candidates.push([join(opts.extensionPath, 'bin', name), 'the binary bundled with the extension']);
  for (const dir of (env.PATH || env.Path || '').split(delimiter)) {
    if (dir) candidates.push([join(dir, name), 'PATH']);
  }
  if (env.GOBIN) candidates.push([join(env.GOBIN, name), '$GOBIN']);
  for (const dir of (env.GOPATH || '').split(delimiter)) {
    if (dir) candidates.push([join(dir, 'bin', name), '$GOPATH/bin']);
  }
  if (home) candidates.push([join(home, 'go', 'bin', name), '~/go/bin']);

  const tried = [];
  for (const [p, source] of candidates) {
    if (tried.includes(p)) continue;
    tried.push(p);
    if (isExe(p)) return { path: p, source };
  }
  return { path: null, reason: `${name} was not found: no bundled binary, none on PATH or in Go's bin directory`, tried };
}

module.exports = { resolveServer, binaryName };
