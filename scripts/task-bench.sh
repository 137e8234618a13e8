#!/usr/bin/env bash
# The task-cost bench (BENCHMARKS.md#task-cost): 56 tasks on the fixture pages of
# fixtures/html/tasks/ (a shop, a handbook of WAI-ARIA APG patterns, two long shop pages),
# fixtures/html/pointer/ (pointer actions and widget libraries, loaded from /vendor/) and
# fixtures/html/clickables/ (what people click that is no ARIA control), each
# run through `ariasnap mcp` and through Playwright MCP, spoken to the same way by the official
# MCP SDK's client over stdio. Prints a markdown table (calls, reply bytes, tools/list bytes,
# total, ratio, facts inline, and for ariasnap's actions: change named, entries outside the
# widget) and writes the figures and every reply to target/task-bench/.
#
#   bash scripts/task-bench.sh                    # all tasks, both tools
#   bash scripts/task-bench.sh --tasks coupon     # any option of scripts/task-bench/bench.js
#
# With an ariasnap binary built elsewhere, skip this script's cargo build: install the two
# packages as below, then run bench.js itself (--ariasnap PATH --modules DIR --chromium PATH).
#
# Idempotent: builds ariasnap in release when needed (cargo's own check), installs the pinned
# @playwright/mcp and @modelcontextprotocol/sdk with npm into ~/.cache/ariasnap/task-bench once
# (TASK_BENCH_MODULES overrides the place), and points Playwright MCP at the system Chromium
# (CHROMIUM, default /usr/bin/chromium; no browser is downloaded). Needs Node 18+ and npm.
set -euo pipefail
cd "$(dirname "$0")/.."

. scripts/npm-pins.sh
chromium="${CHROMIUM:-/usr/bin/chromium}"

for c in node npm cargo; do
  command -v "$c" >/dev/null || { echo "task-bench: $c not found (Node 18+, npm and the Rust toolchain are needed)" >&2; exit 2; }
done
[ -x "$chromium" ] || { echo "task-bench: no Chromium at $chromium (bash scripts/setup.sh installs it; CHROMIUM=PATH points elsewhere)" >&2; exit 2; }

echo "task-bench: cargo build --release" >&2
cargo build --release --quiet

ensure_bench_modules task-bench
# the widget libraries of the fixture pages some tasks use (/vendor/)
ensure_vendor_modules task-bench

exec node scripts/task-bench/bench.js --modules "$modules" --chromium "$chromium" \
  --ariasnap target/release/ariasnap "$@"
