# Replays a repository's history under two doc sets pinned at commit C0:
# lines anchors on README snippets that quote YAML files, and the key
# anchors that tile the same ranges. At every later commit touching YAML:
# verify --check --json (the verdicts), then the team's workflow: verify
# (self-heal moves) and confirm --all (accept changes; lost stays lost).
# Usage: history.py CLEW_LSP CLONE C0 SNIPPETS_JSON (see README.md).
import json, os, subprocess, sys, collections
clew, root, c0, snips_path = sys.argv[1:5]
snips = json.load(open(snips_path))
def run(*a, check=False):
    return subprocess.run(list(a), capture_output=True, text=True, cwd=root)
def git(*a): return run('git', *a).stdout
git('checkout', '-q', '-f', c0)
# 1. tile each snippet's range with whole keys
groups = []
for n, s in enumerate(snips):
    lines = open(os.path.join(root, s['file']), errors='replace').read().split('\n')
    i, keys, why = s['start'], [], ''
    while i <= s['end']:
        t = lines[i-1].strip()
        if not t or t.startswith('#') or t == '---':
            i += 1; continue
        r = run(clew, 'anchor', f"{s['file']}:{i}", '--unpinned', '--json', '--dir', root)
        try: a = json.loads(r.stdout)
        except Exception: why = 'no key at line %d' % i; break
        if a.get('kind') != 'key' or a['line_start'] != i or a['line_end'] > s['end']:
            why = 'key %s spans %d-%d, past the range %d-%d' % (a.get('qualified_name'), a.get('line_start',0), a.get('line_end',0), s['start'], s['end']); break
        keys.append(a['anchor']); i = a['line_end'] + 1
    groups.append({'snip': s, 'keys': keys if not why else [], 'why': why})
os.makedirs(os.path.join(root, 'clew-measure'), exist_ok=True)
L, K = ['# lines\n'], ['# keys\n']
lines_line, keys_lines = {}, {}
for n, g in enumerate(groups):
    s = g['snip']
    L.append(f"\n## s{n}\nQuoted in {s['doc']}.\n")
    L.append(f"<!-- @code lines {s['file']}#L{s['start']}-L{s['end']} -->\n")
    lines_line[n] = sum(x.count('\n') for x in L)
    if g['keys']:
        K.append(f"\n## s{n}\n")
        for k in g['keys']:
            K.append(k + '\n')
            keys_lines.setdefault(n, []).append(sum(x.count('\n') for x in K))
open(os.path.join(root, 'clew-measure/lines.md'), 'w').write(''.join(L))
open(os.path.join(root, 'clew-measure/keys.md'), 'w').write(''.join(K))
run(clew, 'confirm', '--all', '--dir', root)
conv = [n for n, g in enumerate(groups) if g['keys']]
print(f"snippets {len(groups)}; tiled by whole keys {len(conv)}; key anchors {sum(len(g['keys']) for g in groups)}")
for g in groups:
    if g['why']: print('  not convertible:', g['snip']['file'], g['why'])
# 2. replay history
commits = git('rev-list', '--reverse', f'{c0}..origin/HEAD', '--', '*.yaml', '*.yml').split()  # to the clone's default branch
stats = collections.Counter()
dead_l, dead_k = set(), set()
per_commit = []
for c in commits:
    git('checkout', '-q', '-f', c)
    r = run(clew, 'verify', '--check', '--json', root)
    try: rep = json.loads(r.stdout)
    except Exception:
        print('verify failed at', c, r.stderr[:300]); continue
    st = {}
    for a in rep['anchors']:
        st[(a['doc'], a['line'])] = (a['state'], a['detail'].get('reason', ''))
    for n in conv:
        ls = st.get(('clew-measure/lines.md', lines_line[n]), ('?', ''))
        ks = [st.get(('clew-measure/keys.md', l), ('?', '')) for l in keys_lines[n]]
        if n not in dead_l:
            if ls[0] in ('stale', 'lost'):
                stats['lines alarm'] += 1
                value_changed = any(k[0] == 'stale' for k in ks)
                gone = all(k[0] == 'lost' for k in ks)
                if not value_changed and not gone:
                    stats['lines FALSE alarm (no key value changed)'] += 1
                stats['lines alarm: ' + ls[0] + '/' + ls[1]] += 1
                if ls[0] == 'lost': dead_l.add(n)
            elif ls[0] == 'moved-renamed':
                stats['lines healed: ' + ls[1]] += 1
        for j, k in enumerate(ks):
            key = (n, j)
            if key in dead_k: continue
            if k[0] in ('stale', 'lost'):
                stats['key alarm: ' + k[0] + '/' + k[1]] += 1
                if k[0] == 'lost': dead_k.add(key)
            elif k[0] == 'moved-renamed':
                stats['key healed: ' + k[1]] += 1
    # the workflow: self-heal, then accept what changed
    run(clew, 'verify', root)
    run(clew, 'confirm', '--all', '--dir', root)
print(f"commits replayed {len(commits)} ({c0[:8]}..HEAD touching YAML)")
for k in sorted(stats): print(f"  {k}: {stats[k]}")
print('lines anchors lost by the end:', len(dead_l), 'of', len(conv))
print('key anchors lost by the end:', len(dead_k), 'of', sum(len(keys_lines[n]) for n in conv))
