// Regenerates oracle.tsv from picomatch itself, so the Go port is checked
// against the real thing rather than against our reading of it:
//   npm install picomatch@4.0.2 && node gen.js > oracle.tsv
// Columns: glob, path, 1|0 (picomatch(glob, {dot: true})(path)).
'use strict';
const pm = require('picomatch');

const paths = [
  'src/a.ts', 'src/lib/a.ts', 'src/lib/git.ts', 'src/app/x.ts', 'src/server.ts', 'src',
  '.multivac/config.yml', '.multivac/invariants.md', '.multivac/changes/x.md',
  'README.md', 'sub/README.md', 'docs/a.md', 'a/b/c.md', 'a.md', '.md', 'md',
  'src/file1.ts', 'src/file[1].ts', 'src/file(1).ts', 'file5.md', 'file10.md', '2.md', '1.md', '4.md',
  'k8s/rogue.yaml', 'k8s/a/b.yaml', 'db/migrations/0001.sql', 'db/x.SQL', 'x.d.ts', 'a.b.c',
  '.env', 'src/.env', 'src/.hidden/a.ts', '.github/workflows/ci.yml', 'foo(bar)', 'foobar',
  'a+b', 'aab', '$x', 'a b.md', 'a', 'b', 'c', 'ab', 'abc', 'a/b', 'a/c', 'a/b/c', 'a/x/y/b',
  'x/a.md', 'x/b.md', 'x/ab.md', 'x/c.d.ts', 'x/c.ts', 'lib/x.tsx', 'lib/x.ts', 'lib/x.js',
  'site/index.html', 'CHANGELOG.md', 'a.a', 'a.b', 'x*y', 'xzy', '!.md', '[!a].md', 'b.md',
  'api/README.md', 'tmp/x/y.md', '07-rules.md', 'pricing/a/b.sql', 'q?', 'a{b', 'a}b', '{a}',
];

const fixed = [
  'src/*.ts', '**', 'src/**.ts', '**.md', 'README.md', 'src/file[1].ts', './src/a.ts', '/src/a.ts',
  'src/**', 'src/**/*.ts', '**/*.ts', '**/*', '*', '*.md', '*.*', '*/*', '**/*.*', '**/.*', '.*',
  '{src,lib}/**/*.ts', '*.{ts,tsx}', '{site/**,CHANGELOG.md}', '{1..3}.md', 'file{1..10}.md',
  '@(a|b).md', '+(a|b)', '?(a).md', '*(a)b', 'a/**/b', '**/x', '[[:alpha:]].md', '[!a].md', '[^a].md',
  'x\\*y', '"a b.md"', 'foo(bar)', 'a+b', '$x', '{a,b', 'a}b', '{a}', 'k8s/*.yaml', 'db/migrations/*.sql',
  'db/**', 'pricing/**/*.sql', 'x/*.{md,ts}', 'x/?.md', 'x/??.md', '?', '??', 'a/*/b', '**/b',
  'a/**', 'a/**/', '**/c.md', 'a/b/**/c.md', '.multivac/**', '.github/**/*.yml', 'src/*', '*/*.ts',
  '{a,b}/c', 'x/{a,b}*.md', 'x/[ab].md', 'x/[a-c]*.md', 'lib/x.{js,ts}', 'lib/*.[jt]s', '**/*.d.ts',
  'q?', 'a{b', '*.SQL', 'tmp/**', '07-rules.md', '**/README.md', '*:x', 'a\\b', 'src/**/', 'src/**/**/*.ts',
  // negated extglobs (lookahead in picomatch's output)
  'x/!(*.d).ts', '!(a|b)', '**/!(*-dbg).js', 'src/!(lib)/**', '!(*.md)', 'a/!(b)/c', '*.!(ts)', 'x/!(a).md',
  'lib/!(x).{js,ts}', 'src/!(app)/*.ts', '!(src)/**', '{a,!(b)}', '+(!(a))', '!(a)!(b)', 'x/!(c.d).ts', '!(README).md',
  'k8s/!(rogue).yaml', 'src/**/!(*.d).ts', '!(.multivac)/**', '*/!(b)',
];

const atoms = ['*', '**', '/', '?', '.md', '.ts', 'src', 'a', 'b', 'x', 'lib', '{a,b}', '{ts,tsx}', '[abc]',
  '[a-z]', '[!a]', '[^a]', '[[:alpha:]]', '@(a|b)', '+(a|b)', '?(x)', '*(a)', '{1..3}', '\\*', '(x)',
  '.', '-', '{', '}', '[', ']', ',', '$', '^', '+', '@', '.multivac', 'k8s', '.yaml', '!(a)', '!(*.md)'];

// A small deterministic generator, so reruns give the same file.
let seed = 12345;
const rand = n => { seed = (seed * 1103515245 + 12345) & 0x7fffffff; return seed % n; };
const random = [];
for (let i = 0; i < 400; i++) {
  let g = '';
  const len = 1 + rand(6);
  for (let j = 0; j < len; j++) g += atoms[rand(atoms.length)];
  random.push(g);
}

const seen = new Set();
for (const g of [...fixed, ...random]) {
  if (seen.has(g)) continue;
  seen.add(g);
  const m = pm(g, { dot: true });
  for (const p of paths) console.log(`${g}\t${p}\t${m(p) ? 1 : 0}`);
}
