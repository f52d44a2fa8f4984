// Checks the manifest against the contract: settings mirror docs/config.md's keys
// under clew.*, the commands of docs/server.md are declared, and the entry point
// parses.
'use strict';

const { test } = require('node:test');
const assert = require('node:assert/strict');
const { execFileSync } = require('node:child_process');
const path = require('node:path');

const pkg = require('../package.json');

test('settings mirror the .clew.yml keys (docs/config.md)', () => {
  const props = pkg.contributes.configuration.properties;
  const want = {
    'clew.docs.include': ['**/*.md', '**/*.mdx', '**/*.markdown'],
    'clew.docs.exclude': ['node_modules/**', 'vendor/**', 'third_party/**'],
    'clew.budget.max_files': 2000,
    'clew.budget.max_bytes': 33554432,
    'clew.budget.max_ms': 30000,
    'clew.budget.max_file_bytes': 1000000,
    'clew.languages.disable': [],
    'clew.anchors.blocking': ['stale', 'lost'],
    'clew.hints_in_code': true,
  };
  for (const [key, def] of Object.entries(want)) {
    assert.ok(props[key], `missing setting ${key}`);
    assert.deepEqual(props[key].default, def, `default of ${key}`);
  }
  for (const key of Object.keys(props)) {
    assert.ok(key in want || key.startsWith('clew.server.') || key === 'clew.trace.server', `unexpected setting ${key}`);
  }
});

test('commands of docs/server.md are declared', () => {
  const declared = new Set(pkg.contributes.commands.map((c) => c.command));
  for (const c of ['clew.compileContext', 'clew.explainContext', 'clew.contextPolicy', 'clew.confirm', 'clew.verifyWorkspace', 'clew.showAnchors']) {
    assert.ok(declared.has(c), `missing command ${c}`);
  }
});

test('entry point parses and dependencies are pinned', () => {
  execFileSync(process.execPath, ['--check', path.join(__dirname, '..', pkg.main)]);
  for (const deps of [pkg.dependencies, pkg.devDependencies]) {
    for (const [name, version] of Object.entries(deps)) {
      assert.match(version, /^\d+\.\d+\.\d+$/, `${name} must be pinned exactly`);
    }
  }
});
