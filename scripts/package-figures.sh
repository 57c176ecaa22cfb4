#!/usr/bin/env bash
# The Debian packages' figures for docs/PERFORMANCE.md, static Swift runtime
# against the dynamically linked build, in one run on this machine:
# package sizes, installed sizes, binary sizes, the start time of
# `neonsync --version` (hyperfine) and the time to the first frame of
# `neonsync read FILE` in an 80x24 pseudo-terminal (scripts/first_frame.py).
#
#   scripts/package-figures.sh [VERSION]     # default 0.0.0~figures
#
# It runs deploy/debian/build.sh (the static build), then `swift build -c
# release` of the same copy of the tree (the dynamic build), starts the
# packaged neonsyncd on a free port, and prints a Markdown table.
set -euo pipefail
cd "$(dirname "$0")/.."
VERSION=${1:-0.0.0~figures}
DIST=$PWD/.build/debian/figures-dist
export DIST
command -v hyperfine >/dev/null || { echo "hyperfine is missing; run deploy/setup.sh" >&2; exit 2; }

LINTIAN=no deploy/debian/build.sh "$VERSION" >&2
ARCH=$(dpkg --print-architecture)
ROOT=$(mktemp -d)
trap 'kill "${SERVER:-}" 2>/dev/null || true; rm -rf "$ROOT"' EXIT
for p in neonsync neonsyncd; do dpkg-deb -x "$DIST/${p}_${VERSION}_${ARCH}.deb" "$ROOT"; done
swift build -c release --package-path .build/debian/src --scratch-path .build/debian/dynamic --product neonsync >&2
STATIC=$ROOT/usr/bin/neonsync
DYNAMIC=$PWD/.build/debian/dynamic/release/neonsync

kib() { echo $(( ($1 + 1023) / 1024 )); }
deb_size() { stat -c %s "$DIST/${1}_${VERSION}_${ARCH}.deb"; }
installed() { dpkg-deb -f "$DIST/${1}_${VERSION}_${ARCH}.deb" Installed-Size; }
swift_libs() { # the toolchain's shared libraries the dynamic binary loads, in bytes
  ldd "$DYNAMIC" | awk '/swift/ {print $3}' | xargs -r stat -L -c %s | awk '{s += $1} END {print s + 0}'
}

# The server the first-frame runs read from: the packaged one.
LOG=$ROOT/neonsyncd.log
"$ROOT/usr/bin/neonsyncd" --port 0 --data "$ROOT/data" --log "$LOG" --max-rate 0 --max-connections-per-ip 0 &
SERVER=$!
for _ in $(seq 100); do grep -q '"event":"start"' "$LOG" 2>/dev/null && break; sleep 0.1; done
PORT=$(sed -n 's/.*"event":"start".*"port":\([0-9]*\).*/\1/p' "$LOG" | head -1)
[ -n "$PORT" ] || { echo "the packaged neonsyncd did not start" >&2; exit 1; }

VERSION_JSON=$ROOT/version.json
hyperfine --warmup 5 --runs 100 -N --export-json "$VERSION_JSON" \
  -n static "$STATIC --version" -n dynamic "$DYNAMIC --version" >&2
FRAMES=$(python3 scripts/first_frame.py --server "ws://127.0.0.1:$PORT/" --file samples/guide.md \
  --marker "$(sed -n '3p' samples/guide.md | cut -c1-24)" --runs 20 static="$STATIC" dynamic="$DYNAMIC")

mean() { python3 -c "import json,sys; r=[x for x in json.load(open('$VERSION_JSON'))['results'] if x['command']=='$1'][0]; print(f\"{r['mean']*1000:.1f} ± {r['stddev']*1000:.1f}\")"; }
frame() { echo "$FRAMES" | python3 -c "import json,sys; r=[json.loads(l) for l in sys.stdin if json.loads(l)['binary']=='$1'][0]; print(f\"{r['median_ms']} (p90 {r['p90_ms']})\")"; }

cat <<TABLE
| figure | static Swift runtime (the package) | dynamic (swift build -c release) |
|---|---|---|
| neonsync package (.deb) | $(kib "$(deb_size neonsync)") KiB | — |
| neonsyncd package (.deb) | $(kib "$(deb_size neonsyncd)") KiB | — |
| neonsync installed (Installed-Size) | $(installed neonsync) KiB | — |
| neonsyncd installed (Installed-Size) | $(installed neonsyncd) KiB | — |
| neonsync binary | $(kib "$(stat -c %s "$STATIC")") KiB, stripped | $(kib "$(stat -c %s "$DYNAMIC")") KiB + $(kib "$(swift_libs)") KiB of the toolchain's Swift libraries |
| \`neonsync --version\`, mean of 100 (ms) | $(mean static) | $(mean dynamic) |
| \`neonsync read\` to first frame, median of 20 (ms) | $(frame static) | $(frame dynamic) |
TABLE
echo "($(nproc) cores, $(uname -r), $(date -u +%Y-%m-%d))"
