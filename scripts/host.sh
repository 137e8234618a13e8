#!/usr/bin/env bash
# Host overhead: what a snapshot costs beyond the page's own work. Opens a page in a private
# session, then times N whole `ariasnap snapshot --format json --no-cache` processes (start,
# reattach, engine call, decode, render, print) and subtracts the engine's own in-page time
# (stats.engine_ms: walk, refs, serialisation). Prints each call and the medians.
#
#   bash scripts/host.sh URL [N]        # e.g. a page of ../shared/bench served locally
#   bash scripts/host.sh                # the bench's synthetic mixed-10000 page, 15 calls
set -euo pipefail
here="$(cd "$(dirname "$0")/.." && pwd)"
cd "$here"
cargo build --release --quiet
bin="$here/target/release/ariasnap"
export ARIASNAP_HOME="$(mktemp -d)"
srv_pid=""
cleanup() {
  "$bin" session close host >/dev/null 2>&1 || true
  [ -n "$srv_pid" ] && kill "$srv_pid" 2>/dev/null || true
  # the closed session's browser may still be ending (session close ends it behind the
  # command): its profile folder is removed once it has
  for _ in 1 2 3 4 5 6 7 8 9 10; do rm -rf "$ARIASNAP_HOME" 2>/dev/null && return 0; sleep 0.3; done
  rm -rf "$ARIASNAP_HOME" || true
}
trap cleanup EXIT
url="${1:-}"
if [ -z "$url" ]; then
  bench="${BENCH_DIR:-$here/../shared/bench}"
  page="$bench/generated/synthetic/mixed-10000.html"
  [ -f "$page" ] || { echo "host: $page not found: run the bench once, or give a URL" >&2; exit 2; }
  log="$(mktemp)"
  (cd "$bench" && exec node lib/server.js >"$log" 2>&1) &
  srv_pid=$!
  for _ in $(seq 50); do grep -q "serving on" "$log" && break; sleep 0.1; done
  url="$(grep -o 'http://[0-9.:]*' "$log" | head -1)/synthetic/mixed-10000.html"
fi
"$bin" goto "$url" --session host >/dev/null
python3 - "$bin" "${2:-15}" <<'PY'
import json, statistics, subprocess, sys, time
bin_, n = sys.argv[1], int(sys.argv[2])
cmd = [bin_, "snapshot", "--session", "host", "--format", "json", "--inline-limit", "0",
       "--max-nodes", "0", "--no-cache"]
rows = []
for _ in range(n):
    t = time.perf_counter()
    r = subprocess.run(cmd, capture_output=True, check=True)
    total = (time.perf_counter() - t) * 1000
    engine = json.loads(r.stdout)["stats"]["engine_ms"]
    rows.append((total, engine, total - engine))
    print(f"total {total:7.1f} ms   in page {engine:7.1f} ms   host {total - engine:6.1f} ms")
print(f"median: total {statistics.median(r[0] for r in rows):.1f} ms, in page "
      f"{statistics.median(r[1] for r in rows):.1f} ms, host {statistics.median(r[2] for r in rows):.1f} ms "
      f"({len(r.stdout)} bytes of JSON per call)")
PY
