// Builds a git history for a copy of examples/tour, so that "what changed
// since review" has a reviewed version to find:
//   commit 1 "reviewed": the code as the tour's anchors were pinned on it
//     (examples/tour.before.txtar; the files it lists under absent-before
//     did not exist yet), with today's docs;
//   commit 2 "changed since review": the tour as it is.
//
//   node tour-history.js <copy of examples/tour> <examples/tour.before.txtar>
'use strict';

const fs = require('node:fs');
const path = require('node:path');
const { execFileSync } = require('node:child_process');

const [dir, txtarPath] = process.argv.slice(2);
if (!dir || !txtarPath) throw new Error('usage: node tour-history.js DIR TXTAR');

// txtar: "-- name --" lines start each file; text before the first is a comment.
function parseTxtar(text) {
  const files = new Map();
  let name = null;
  let body = [];
  for (const line of text.split('\n')) {
    const m = /^-- (.+) --$/.exec(line);
    if (m) {
      if (name !== null) files.set(name, body.join('\n'));
      name = m[1];
      body = [];
    } else if (name !== null) {
      body.push(line);
    }
  }
  if (name !== null) files.set(name, body.join('\n'));
  return files;
}

const git = (...args) => execFileSync('git', ['-c', 'user.name=clew-test', '-c', 'user.email=clew-test@example.invalid',
  '-c', 'commit.gpgsign=false', ...args], { cwd: dir, stdio: ['ignore', 'ignore', 'inherit'] });

const files = parseTxtar(fs.readFileSync(txtarPath, 'utf8'));
const absent = (files.get('absent-before') || '').split('\n').filter(Boolean);
files.delete('absent-before');
const now = new Map(); // path -> today's content, or null when it is gone today
for (const p of absent) now.set(p, fs.readFileSync(path.join(dir, p), 'utf8'));
for (const p of files.keys()) {
  const f = path.join(dir, p);
  now.set(p, fs.existsSync(f) ? fs.readFileSync(f, 'utf8') : null);
}

git('init', '-q');
for (const p of absent) fs.rmSync(path.join(dir, p));
for (const [p, text] of files) {
  fs.mkdirSync(path.dirname(path.join(dir, p)), { recursive: true });
  fs.writeFileSync(path.join(dir, p), text);
}
git('add', '-A');
git('commit', '-q', '-m', 'reviewed');
for (const [p, text] of now) {
  const f = path.join(dir, p);
  if (text === null) fs.rmSync(f);
  else {
    fs.mkdirSync(path.dirname(f), { recursive: true });
    fs.writeFileSync(f, text);
  }
}
git('add', '-A');
git('commit', '-q', '-m', 'changed since review');
