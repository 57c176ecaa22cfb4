#!/usr/bin/env bash
# Runs the whole suite N times in a row (default 10) on one build and
# reports, per test, how often it failed and the first lines of each
# failure, so flaky tests are found rather than hidden by retries.
#
#   scripts/repeat-tests.sh 10              # ten full runs
#   scripts/repeat-tests.sh 5 --filter Tail # five runs of the matching tests
#
# Each run's whole output is kept in $OUT (default .build/repeat-tests/)
# as run-K.log; the table goes to standard output and to $OUT/summary.md.
set -euo pipefail
cd "$(dirname "$0")/.."

runs="${1:-10}"
shift || true
case "$runs" in
  ''|*[!0-9]*) echo "repeat-tests: the first argument is the number of runs (a whole number), not '$runs'; for example: scripts/repeat-tests.sh 10" >&2; exit 2 ;;
esac
[ "$runs" -ge 1 ] || { echo "repeat-tests: the number of runs must be at least 1" >&2; exit 2; }
out="${OUT:-.build/repeat-tests}"
mkdir -p "$out"
rm -f "$out"/run-*.log

echo "repeat-tests: building the tests once" >&2
swift build --build-tests >"$out/build.log" 2>&1 || { tail -30 "$out/build.log" >&2; echo "repeat-tests: the build failed (see $out/build.log)" >&2; exit 1; }

for k in $(seq 1 "$runs"); do
  start=$(date +%s)
  set +e
  swift test --skip-build "$@" >"$out/run-$k.log" 2>&1
  status=$?
  set -e
  failed=$(grep -c '^✘ Test .* failed after' "$out/run-$k.log" || true)
  echo "repeat-tests: run $k of $runs: exit $status, $failed failing test(s), $(( $(date +%s) - start )) s" >&2
done

python3 - "$out" "$runs" <<'PY'
import glob, os, re, sys
out, runs = sys.argv[1], int(sys.argv[2])
failed = {}      # test name -> list of (run, first issue lines)
closing = []
for k in range(1, runs + 1):
    path = os.path.join(out, f"run-{k}.log")
    lines = open(path, encoding="utf-8", errors="replace").read().splitlines()
    issues = {}
    for i, line in enumerate(lines):
        m = re.match(r'^✘ Test (".*?"|\S+\(\)) recorded an issue (at .*)$', line)
        if m:
            issues.setdefault(m.group(1), []).append(" ".join([m.group(2)] + lines[i + 1:i + 3])[:300])
        m = re.match(r'^✘ Test (".*?"|\S+\(\)) failed after', line)
        if m:
            failed.setdefault(m.group(1), []).append((k, issues.get(m.group(1), ["(no issue line)"])[:2]))
    end = [l for l in lines if re.match(r'^[✔✘] Test run with', l)]
    crashed = not end
    closing.append((k, end[-1] if end else "no closing line: the test process crashed or was killed (see the log)"))
    if crashed:
        failed.setdefault("(the test process itself)", []).append((k, [lines[-1][:300] if lines else "empty log"]))
report = [f"# {runs} full runs", "", "| run | result |", "|---|---|"]
report += [f"| {k} | {text} |" for k, text in closing]
report += ["", "| test | failed in | runs |", "|---|---|---|"]
for name, hits in sorted(failed.items(), key=lambda kv: -len(kv[1])):
    report.append(f"| {name} | {len(hits)} of {runs} | {', '.join(str(k) for k, _ in hits)} |")
if not failed:
    report.append(f"| (none) | 0 of {runs} | |")
report.append("")
for name, hits in failed.items():
    report.append(f"## {name}")
    for k, first in hits:
        for text in first:
            report.append(f"- run {k}: {text}")
    report.append("")
text = "\n".join(report)
open(os.path.join(out, "summary.md"), "w").write(text + "\n")
print(text)
sys.exit(1 if failed else 0)
PY
