#!/usr/bin/env bash
# Installs everything NeonSync needs on a Debian machine that already has the
# Swift toolchain: the C libraries (through apt) and the Python packages used
# by the interop tests (through pip). Safe to run again: it only installs what
# is missing. README, CI and users all go through this script.
set -euo pipefail

APT_PACKAGES=(
  pkg-config
  libwebsockets-dev        # the WebSocket/HTTP engine (NeonTransport)
  libssl-dev               # TLS through OpenSSL
  openssl                  # the CLI the TLS tests make a throwaway CA with
  libsqlite3-dev           # the embedded store
  libwebsockets-test-server # the C peer for relay benchmarks
  tmux                     # terminal end-to-end tests
  vim-tiny                 # saves a document by rename in the changing-document test
  libhiredis-dev           # the Redis client of cluster mode (neonsyncd --redis)
  redis-server             # cluster mode's store; the cluster tests start their own
  nginx                    # the TLS proxy in front of the nodes (deploy/nginx, deploy/cluster/run-local.sh)
  systemd                  # systemd-analyze, which checks the units in deploy/systemd
  logrotate                # rotates the JSON log (deploy/logrotate)
  libcmark-gfm-dev         # the Markdown parser (GitHub's CommonMark + GFM)
  libcmark-gfm-extensions-dev # its tables, strikethrough, autolinks and task lists
  libyaml-dev              # the YAML parser: front matter, comment commands, the client's config file
  libkf5syntaxhighlighting-dev # KDE's code highlighter (the client's plug-in, libNeonSyntax.so), with Qt 5's headers
  highlight                # André Simon's highlight: the client's code highlighter without the plug-in (a helper process)
  libpng-dev               # PNG pictures in documents (NeonRender's Picture)
  libturbojpeg0-dev        # JPEG pictures (libjpeg-turbo's TurboJPEG API)
  libsixel-dev             # pictures scaled and encoded for sixel terminals
  dpkg-dev                 # dpkg-shlibdeps: the Debian packages' Depends (deploy/debian/build.sh)
  rsync                    # build.sh's copy of the tree it stamps and builds
  lintian                  # checks the packages build.sh makes
  mandoc                   # mandoc -T lint on the generated man pages
  groff-base               # groff -ww -z on them too
  man-db                   # man -l, how a user reads them
  bsdextrautils            # col -b, to read man's output as text
  hyperfine                # start-up and first-frame timings (scripts/package-figures.sh)
  gdb                      # glibc's live heap in a soak (scripts/soak.sh --heap)
)
PIP_PACKAGES=(websockets)   # interop tests; the Python peer of the relay benchmark (bench/broadcast_server.py)

say() { printf 'setup: %s\n' "$*" >&2; }

missing=()
for p in "${APT_PACKAGES[@]}"; do
  dpkg-query -W -f='${Status}' "$p" 2>/dev/null | grep -q "install ok installed" || missing+=("$p")
done
if [ ${#missing[@]} -gt 0 ]; then
  sudo=""
  [ "$(id -u)" -eq 0 ] || sudo="sudo"
  say "installing Debian packages: ${missing[*]}"
  $sudo apt-get update -qq
  DEBIAN_FRONTEND=noninteractive $sudo apt-get install -y -qq "${missing[@]}" >/dev/null
fi

python=python3
for p in "${PIP_PACKAGES[@]}"; do
  if ! "$python" -c "import $p" >/dev/null 2>&1; then
    say "installing Python package: $p"
    "$python" -m pip install --quiet "$p" 2>/dev/null \
      || "$python" -m pip install --quiet --break-system-packages "$p"
  fi
done

command -v swift >/dev/null 2>&1 || { say "swift is not on PATH: install the Swift 6 toolchain first (swift.org), then run this again"; exit 1; }
say "ready"
