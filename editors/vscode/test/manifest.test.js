// Checks the manifest against the contract: settings mirror the .clew.yml
// keys under clew.* (camelCase, so VS Code's titles read as words; the
// server maps them back, docs/server.md), every contributed command is
// registered at activation, the walkthrough's pages exist, workspace trust
// is declared, and the bundled entry point parses.
'use strict';

const { test } = require('node:test');
const assert = require('node:assert/strict');
const { execFileSync } = require('node:child_process');
const fs = require('node:fs');
const path = require('node:path');

const ext = path.join(__dirname, '..');
const pkg = require('../package.json');

// The languages the client sends to the server (src/client.js), read
// without loading vscode.
function clientLanguages() {
  const src = fs.readFileSync(path.join(ext, 'src', 'client.js'), 'utf8');
  const list = src.match(/const LANGUAGES = \[([\s\S]*?)\];/)[1];
  return { LANGUAGES: [...list.matchAll(/'([a-z]+)'/g)].map((m) => m[1]) };
}

test('settings mirror the .clew.yml keys, spelled for titles', () => {
  const props = pkg.contributes.configuration.properties;
  const want = {
    'clew.docs.include': ['**/*.md', '**/*.mdx', '**/*.markdown'],
    'clew.docs.exclude': ['node_modules/**', 'vendor/**', 'third_party/**'],
    'clew.budget.maxFiles': 2000,
    'clew.budget.maxBytes': 33554432,
    'clew.budget.maxMilliseconds': 30000,
    'clew.budget.maxFileBytes': 1000000,
    'clew.languages.disable': [],
    'clew.anchors.blocking': ['stale', 'lost'],
    'clew.hintsInCode': true,
  };
  for (const [key, def] of Object.entries(want)) {
    assert.ok(props[key], `missing setting ${key}`);
    assert.deepEqual(props[key].default, def, `default of ${key}`);
  }
  for (const key of Object.keys(props)) {
    assert.ok(key in want || key.startsWith('clew.server.') || key === 'clew.trace.server', `unexpected setting ${key}`);
    assert.match(key, /^clew(\.[a-z][a-zA-Z]*)+$/, `${key}: VS Code derives the title from the key; no underscores`);
    assert.ok(props[key].markdownDescription, `${key} has no description`);
  }
});

test('every contributed command is registered by the extension', () => {
  const src = fs.readdirSync(path.join(ext, 'src')).map((f) => fs.readFileSync(path.join(ext, 'src', f), 'utf8')).join('\n');
  const declared = pkg.contributes.commands.map((c) => c.command);
  for (const c of ['clew.compileContext', 'clew.explainContext', 'clew.contextPolicy', 'clew.confirm', 'clew.verifyWorkspace',
    'clew.showAnchors', 'clew.copyAnchor', 'clew.showChange', 'clew.restartServer', 'clew.showOutput', 'clew.locateServer']) {
    assert.ok(declared.includes(c), `missing command ${c}`);
  }
  for (const c of declared) {
    assert.ok(src.includes(`'${c}'`), `${c} is contributed but never registered in src/`);
  }
  for (const c of pkg.contributes.commands) assert.equal(c.category, 'clew', `${c.command} category`);
});

test('walkthrough, trust, activation', () => {
  const [w] = pkg.contributes.walkthroughs;
  assert.equal(w.title, 'Anchor your first passage');
  assert.deepEqual(w.steps.map((s) => s.id), ['write', 'pin', 'change', 'fix']);
  for (const s of w.steps) assert.ok(fs.existsSync(path.join(ext, s.media.markdown)), `missing ${s.media.markdown}`);
  assert.equal(pkg.capabilities.untrustedWorkspaces.supported, 'limited');
  assert.deepEqual(pkg.capabilities.untrustedWorkspaces.restrictedConfigurations, ['clew.server.path', 'clew.server.args']);
  // The glob search behind workspaceContains:**/*.md gives up after a few
  // seconds on a big or busy workspace, so opening any file clew reads
  // activates the extension too (it then scans the Markdown itself).
  const { LANGUAGES } = clientLanguages();
  for (const e of ['workspaceContains:.clew.yml', 'workspaceContains:**/*.md', ...LANGUAGES.map((l) => `onLanguage:${l}`)]) {
    assert.ok(pkg.activationEvents.includes(e), `missing activation event ${e}`);
  }
  for (const f of ['README.md', 'CHANGELOG.md', pkg.icon, path.join('..', '..', 'LICENSE')]) assert.ok(fs.existsSync(path.join(ext, f)), `missing ${f}`);
});

test('bundled entry point parses and dependencies are pinned', () => {
  assert.equal(pkg.main, './out/extension.js');
  execFileSync(process.execPath, ['--check', path.join(ext, pkg.main)]);
  for (const deps of [pkg.dependencies, pkg.devDependencies]) {
    for (const [name, version] of Object.entries(deps)) {
      assert.match(version, /^\d+\.\d+\.\d+$/, `${name} must be pinned exactly`);
    }
  }
});
