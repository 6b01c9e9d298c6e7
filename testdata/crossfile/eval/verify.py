#!/usr/bin/env python3
"""Check that every row of pairs.*.tsv points at an existing, non-empty line on both sides.

Usage: python3 verify.py [MIRROR_ROOT]   (default: $REFS_MIRRORS, else ../.mirror beside the clone)
"""
import os, subprocess, sys

here = os.path.dirname(os.path.abspath(__file__))
root = sys.argv[1] if len(sys.argv) > 1 else (os.environ.get('REFS_MIRRORS') or os.path.join(here, '..', '..', '..', '..', '.mirror'))
cache, bad, n = {}, 0, 0

def lines(mirror, commit, path):
    key = (mirror, commit, path)
    if key not in cache:
        g = os.path.join(root, mirror, 'repo')
        if not os.path.isdir(g):
            g = os.path.join(root, mirror)
        r = subprocess.run(['git', '--git-dir=' + g, 'show', f'{commit}:{path}'], capture_output=True)
        cache[key] = r.stdout.decode('utf-8', 'replace').split('\n') if r.returncode == 0 else None
    return cache[key]

for name in ('pairs.tune.tsv', 'pairs.test.tsv'):
    header = None
    for i, row in enumerate(open(os.path.join(here, name), encoding='utf-8'), 1):
        if row.startswith('#'):
            continue
        f = row.rstrip('\n').split('\t')
        if header is None:
            header = f
            continue
        n += 1
        r = dict(zip(header, f))
        if len(f) != 10 or r['label'] not in ('contradiction', 'no'):
            print(f'{name}:{i}: malformed row'); bad += 1; continue
        for side in ('a', 'b'):
            ls = lines(r['mirror'], r['commit_' + side], r['path_' + side])
            k = int(r['line_' + side])
            if ls is None:
                print(f'{name}:{i}: side {side}: cannot read {r["commit_" + side]}:{r["path_" + side]}'); bad += 1
            elif not (1 <= k <= len(ls)) or not ls[k - 1].strip():
                print(f'{name}:{i}: side {side}: line {k} missing or empty'); bad += 1
print(f'{n} rows checked, {bad} problems')
sys.exit(1 if bad else 0)
