#!/usr/bin/env python3
"""What a package costs to install, two ways; reads apt's package lists
only, installs nothing.

A library's closure (docs/CLIENT.md, "Highlighted code"): the runtime
closure of Debian packages (Depends and Pre-Depends, first alternative, no
Recommends) of each candidate, less the closure of what the client already
needs, with the sum of Installed-Size. Essential and required packages
count as present.

  scripts/deb-closure.py BASE,PACKAGES CANDIDATE[,PACKAGES] ...
  scripts/deb-closure.py libc6,libstdc++6,libssl3,libwebsockets17,libcmark-gfm0.29.0.gfm.6,libcmark-gfm-extensions0.29.0.gfm.6 \
      libsource-highlight4v5 libkf5syntaxhighlighting5

What apt installs (docs/PACKAGING.md, "What apt installs"): apt's own
resolver (apt-get --simulate) installing .deb files on a minimal Debian,
the Essential and required packages and what they depend on (debootstrap's
minbase), given to apt as its dpkg status instead of this machine's;
recommends on (apt's default) or off (--no-install-recommends). Prints the
count of packages and the sum of their Installed-Size, the .deb files
included, then the packages.

  scripts/deb-closure.py --apt [--no-install-recommends] FILE.deb|PACKAGE ...
  scripts/deb-closure.py --apt --no-install-recommends dist/0.3.0/neonsync_0.3.0_amd64.deb
  scripts/deb-closure.py --apt dist/0.3.0/neonsync_0.3.0_amd64.deb dist/0.3.0/neonsync-highlight_0.3.0_amd64.deb
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
paragraphs = {}
def fetch(packages):
    """Reads the candidate versions' records of `packages` in one call."""
    packages = [p for p in packages if p not in cache]
    if not packages: return
    out = subprocess.run(['apt-cache','show','--no-all-versions']+packages,capture_output=True,text=True).stdout
    for para in out.split('\n\n'):
        f = {}
        for line in para.splitlines():
            if line and line[0] not in ' \t':
                k,_,v = line.partition(':'); f[k]=v.strip()
        if f.get('Package'):
            cache[f['Package']] = f; paragraphs[f['Package']] = para.strip()

def minbase():
    """Essential and required packages, with everything they depend on."""
    import glob
    roots = set()
    for listing in glob.glob('/var/lib/apt/lists/*_Packages*'):
        # apt-helper reads the lists however apt compressed them (lz4, xz…).
        text = subprocess.run(['/usr/lib/apt/apt-helper','cat-file',listing],capture_output=True,text=True,errors='replace').stdout
        name = None
        for line in text.splitlines(keepends=True):
            if line.startswith('Package: '): name = line[9:].strip()
            elif line in ('Essential: yes\n', 'Priority: required\n') and name: roots.add(name)
    seen=set(); todo=sorted(roots)
    while todo:
        fetch(todo)
        ahead=[]
        for p in todo:
            if p in seen or not show(p): continue
            seen.add(p); ahead+=deps(p)
        todo=ahead
    return seen

def status_of(packages, path):
    """A dpkg status file in which `packages` are installed."""
    with open(path,'w') as out:
        for p in sorted(packages):
            lines = paragraphs[p].splitlines()
            out.write(lines[0]+'\nStatus: install ok installed\n'+'\n'.join(lines[1:])+'\n\n')

def apt(files, recommends):
    import os, tempfile
    with tempfile.TemporaryDirectory() as scratch:
        status = os.path.join(scratch,'status'); states = os.path.join(scratch,'extended_states')
        status_of(minbase(), status); open(states,'w').close()
        run = subprocess.run(['apt-get','--simulate','-o','Dir::State::status='+status,'-o','Dir::State::extended_states='+states,
                              '-o','APT::Install-Recommends='+('true' if recommends else 'false'),'install']
                             + [os.path.abspath(f) if f.endswith('.deb') else f for f in files], capture_output=True, text=True)
    if run.returncode != 0:
        sys.exit(run.stdout+run.stderr)
    local = {}
    for f in filter(lambda f: f.endswith('.deb'), files):
        name = subprocess.run(['dpkg-deb','-f',f,'Package'],capture_output=True,text=True).stdout.strip()
        local[name] = int(subprocess.run(['dpkg-deb','-f',f,'Installed-Size'],capture_output=True,text=True).stdout.strip() or 0)
    installed = sorted(line.split()[1] for line in run.stdout.splitlines() if line.startswith('Inst '))
    fetch([p for p in installed if p not in local])
    size = sum(local[p] if p in local else int(show(p).get('Installed-Size','0')) for p in installed)
    print(f"{' '.join(files)} ({'with' if recommends else 'without'} recommends): {len(installed)} packages, "
          f"{size} KiB ({size/1024:.1f} MiB): {' '.join(installed)}")

if sys.argv[1:2] == ['--apt']:
    args = sys.argv[2:]
    recommends = '--no-install-recommends' not in args
    apt([a for a in args if a != '--no-install-recommends'], recommends)
    sys.exit(0)

base = closure(sys.argv[1].split(','))
for cand in sys.argv[2:]:
    c = closure(cand.split(','))
    extra = sorted(p for p in c - base if show(p).get('Essential')!='yes' and show(p).get('Priority')!='required')
    size = sum(int(show(p).get('Installed-Size','0')) for p in extra)
    print(f"{cand}: {len(extra)} packages, {size} KiB: {' '.join(extra)}")
