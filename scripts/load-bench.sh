#!/usr/bin/env bash
# The load bench (scripts/load-bench.js): N agents at once on `ariasnap mcp --http` and on
# Playwright MCP over HTTP, levels 4, 8, 16 by default; prints a markdown table and writes
# bench/results/load-<date>.{json,md}. Builds nothing: it runs target/release/ariasnap (or
# --ariasnap BIN). Installs the MCP SDK and Playwright MCP, at the versions scripts/npm-pins.sh pins,
# into ~/.cache/ariasnap/task-bench once (TASK_BENCH_MODULES overrides the place); no browser
# is downloaded (CHROMIUM, default /usr/bin/chromium).
#
#   bash scripts/load-bench.sh                               # levels 4,8,16, 5 loops per client
#   bash scripts/load-bench.sh --levels 4,8 --iterations 3   # any option of load-bench.js
set -euo pipefail
cd "$(dirname "$0")/.."

. scripts/npm-pins.sh
chromium="${CHROMIUM:-/usr/bin/chromium}"

for c in node npm; do
  command -v "$c" >/dev/null || { echo "load-bench: $c not found (Node 18+ and npm are needed)" >&2; exit 2; }
done
[ -x "$chromium" ] || { echo "load-bench: no Chromium at $chromium (CHROMIUM=PATH points elsewhere)" >&2; exit 2; }

ensure_bench_modules load-bench

exec node scripts/load-bench.js --modules "$modules" --chromium "$chromium" "$@"
