# Usage: snippets.py CLONE > snippets.json (see README.md).
# Finds, at the checked-out commit, README code blocks that quote a YAML
# file of the repo (a contiguous run of its lines, blank lines ignored).
import os, re, subprocess, json, sys
root = sys.argv[1]
files = subprocess.run(['git','-C',root,'ls-files'],capture_output=True,text=True).stdout.split()
yamls = [f for f in files if re.search(r'\.ya?ml$', f)]
docs = [f for f in files if f.endswith('.md')]
def norm(lines): return [(i+1, l.strip()) for i,l in enumerate(lines) if l.strip()]
ycache = {}
def ylines(f):
    if f not in ycache:
        try: ycache[f] = norm(open(os.path.join(root,f),errors='replace').read().split('\n'))
        except Exception: ycache[f] = []
    return ycache[f]
out = []
for d in docs:
    text = open(os.path.join(root,d),errors='replace').read().split('\n')
    blocks, cur, inb = [], None, False
    for l in text:
        if l.strip().startswith('```'):
            if inb: blocks.append(cur); inb=False
            else: cur=[]; inb=True
            continue
        if inb: cur.append(l)
    ddir = os.path.dirname(d)
    for b in blocks:
        bl = [l.strip() for l in b if l.strip()]
        if len(bl) < 3 or not any(':' in l for l in bl): continue
        cands = [y for y in yamls if ddir == '' or y.startswith(ddir + '/')]
        hit = None
        for y in cands:
            yl = ylines(y); texts = [t for _,t in yl]
            for i in range(len(texts)-len(bl)+1):
                if texts[i:i+len(bl)] == bl:
                    hit = (y, yl[i][0], yl[i+len(bl)-1][0]); break
            if hit: break
        if hit: out.append({'doc': d, 'file': hit[0], 'start': hit[1], 'end': hit[2], 'lines': len(bl)})
json.dump(out, sys.stdout, indent=1)
