#!/usr/bin/env bash
# Speed, size and fidelity bench: runs ../shared/bench (Playwright's two snapshot modes and
# Chromium's own accessibility tree) with ariasnap as the candidate on a kept-alive session,
# in one run, then prints ariasnap beside them as ratios (scripts/bench-report.js).
#
#   bash scripts/bench.sh                                   # synthetic + readability corpora
#   bash scripts/bench.sh --corpus synthetic --pages 'mixed-'   # any measure.js options
#   RUNS=3 TOOL_BUDGET_S=10 bash scripts/bench.sh ...       # fewer runs
#
# Needs ../shared/bench set up once: bash ../shared/bench/setup.sh
set -euo pipefail
here="$(cd "$(dirname "$0")/.." && pwd)"
bench="${BENCH_DIR:-$here/../shared/bench}"
if [ ! -f "$bench/measure.js" ]; then
  echo "bench: $bench/measure.js not found (set BENCH_DIR)" >&2
  exit 2
fi
if [ ! -d "$bench/node_modules/playwright-core" ]; then
  echo "bench: run 'bash $bench/setup.sh' once first" >&2
  exit 2
fi
cd "$here"
cargo build --release --quiet
bin="$here/target/release/ariasnap"
export ARIASNAP_HOME="$(mktemp -d)"
out="$(mktemp -d)"
name="ariasnap-$(date +%Y%m%d-%H%M%S)"
cleanup() { "$bin" session close bench >/dev/null 2>&1 || true; rm -rf "$ARIASNAP_HOME"; }
trap cleanup EXIT
args=("$@")
if [ ${#args[@]} -eq 0 ]; then args=(--corpus synthetic,readability); fi
(
  cd "$bench"
  SAVE_SNAPSHOTS=1 CANDIDATE_NAME=ariasnap \
  CANDIDATE_PREP_CMD="'$bin' goto {url} --session bench" \
  CANDIDATE_CMD="'$bin' snapshot --session bench --format json --inline-limit 0 --max-nodes 0 --no-cache" \
  node measure.js --out "$out" --name "$name" "${args[@]}"
)
snaps="$out/snapshots/$name"; [ -d "$snaps" ] || snaps="$out/snapshots"
node "$here/scripts/bench-report.js" "$out/$name.json" "$snaps"
# Host memory: peak RSS of one snapshot process on the largest page measured.
python3 - "$bin" "$out/$name.json" <<'PY'
import json, resource, subprocess, sys
bin_, res = sys.argv[1], sys.argv[2]
pages = json.load(open(res))["pages"]
big = max((p for p in pages if p.get("tools", {}).get("candidate", {}).get("status") == "ok"),
          key=lambda p: p.get("dom_elements") or 0, default=None)
if big:
    r = subprocess.run([bin_, "snapshot", "--session", "bench", "--format", "json", "--inline-limit", "0",
                        "--max-nodes", "0"], capture_output=True)
    rss = resource.getrusage(resource.RUSAGE_CHILDREN).ru_maxrss / 1024
    print(f"\nhost peak RSS (one snapshot of the session's last page, {len(r.stdout)} bytes out): {rss:.1f} MiB")
PY
echo "results: $out/$name.json"
