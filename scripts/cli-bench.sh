#!/usr/bin/env bash
# The command-line bench (BENCHMARKS.md#command-line-tools): five tasks (a sign-up form, the
# 137th of 200 product cards, a comment under a 3,000-element article, and two APG examples)
# run through ariasnap, Playwright's CLI for agents (@playwright/cli) and agent-browser, each
# used the way its own skill teaches, ten interleaved runs; prints a table of commands,
# bytes read, ms per command after the first, first command, whole tasks and tasks done.
#
#   bash scripts/cli-bench.sh                               # the three pages of our own
#   bash scripts/cli-bench.sh --apg ~/src/aria-practices    # and the two APG examples
#   bash scripts/cli-bench.sh --runs 3 --tasks signup,menu  # any option of cli-bench/bench.js
#
# The APG pages are not part of this project: give a checkout of w3c/aria-practices with
# --apg (without it those two tasks are skipped, with a message). Idempotent: builds ariasnap
# in release when needed, installs the pinned @playwright/cli and agent-browser with npm into
# ~/.cache/ariasnap/cli-bench once (CLI_BENCH_MODULES overrides the place), and points both at
# the system Chromium (CHROMIUM, default /usr/bin/chromium; PLAYWRIGHT_MCP_EXECUTABLE_PATH
# and AGENT_BROWSER_EXECUTABLE_PATH): no browser is downloaded. Needs Node 18+ and npm.
set -euo pipefail
cd "$(dirname "$0")/.."

. scripts/npm-pins.sh
chromium="${CHROMIUM:-/usr/bin/chromium}"

for c in node npm cargo; do
  command -v "$c" >/dev/null || { echo "cli-bench: $c not found (Node 18+, npm and the Rust toolchain are needed)" >&2; exit 2; }
done
[ -x "$chromium" ] || { echo "cli-bench: no Chromium at $chromium (bash scripts/setup.sh installs it; CHROMIUM=PATH points elsewhere)" >&2; exit 2; }

echo "cli-bench: cargo build --release" >&2
cargo build --release --quiet

ensure_cli_bench_modules

exec node scripts/cli-bench/bench.js --modules "$cli_modules" --chromium "$chromium" \
  --ariasnap target/release/ariasnap "$@"
