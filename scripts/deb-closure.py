#!/usr/bin/env python3
"""What a library would add to the client's install: the runtime closure of
Debian packages (Depends and Pre-Depends, first alternative, no Recommends)
of each candidate, less the closure of what the client already needs, with
the sum of Installed-Size. Essential and required packages count as present.
Reads apt-cache only (docs/CLIENT.md, "Highlighted code").

  scripts/deb-closure.py BASE,PACKAGES CANDIDATE[,PACKAGES] ...
  scripts/deb-closure.py libc6,libstdc++6,libssl3,libwebsockets17,libcmark-gfm0.29.0.gfm.6,libcmark-gfm-extensions0.29.0.gfm.6 \
      libsource-highlight4v5 libkf5syntaxhighlighting5
"""
import subprocess, sys, re
cache = {}
def show(p):
    if p in cache: return cache[p]
    out = subprocess.run(['apt-cache','show','--no-all-versions',p],capture_output=True,text=True).stdout
    f = {}
    key=None
    for line in out.splitlines():
        if not line: break
        if line[0] in ' \t': continue
        k,_,v = line.partition(':'); f[k]=v.strip()
    cache[p]=f; return f
def deps(p):
    f = show(p); out=[]
    for field in ('Pre-Depends','Depends'):
        for alt in filter(None,[a.strip() for a in f.get(field,'').split(',')]):
            name = re.split(r'[\s(:]',alt.split('|')[0].strip())[0]
            out.append(name)
    return out
def closure(roots):
    seen=set(); todo=list(roots)
    while todo:
        p=todo.pop()
        if p in seen: continue
        f=show(p)
        if not f:
            # a virtual package: take a provider
            prov=subprocess.run(['apt-cache','showpkg',p],capture_output=True,text=True).stdout.split('Reverse Provides:')[-1].split()
            if prov: todo.append(prov[0])
            continue
        seen.add(p)
        if f.get('Essential')=='yes' or f.get('Priority')=='required': continue
        todo+=deps(p)
    return seen
base = closure(sys.argv[1].split(','))
for cand in sys.argv[2:]:
    c = closure(cand.split(','))
    extra = sorted(p for p in c - base if show(p).get('Essential')!='yes' and show(p).get('Priority')!='required')
    size = sum(int(show(p).get('Installed-Size','0')) for p in extra)
    print(f"{cand}: {len(extra)} packages, {size} KiB: {' '.join(extra)}")
