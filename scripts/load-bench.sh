#!/usr/bin/env bash
# The load bench (scripts/load-bench.js): N agents at once on `ariasnap mcp --http` and on
# Playwright MCP over HTTP, levels 4, 8, 16 by default; prints a markdown table and writes
# bench/results/load-<date>.{json,md}. Builds nothing: it runs target/release/ariasnap (or
# --ariasnap BIN). Installs the MCP SDK and Playwright MCP, at the versions task-bench.sh pins,
# into ~/.cache/ariasnap/task-bench once (TASK_BENCH_MODULES overrides the place); no browser
# is downloaded (CHROMIUM, default /usr/bin/chromium).
#
#   bash scripts/load-bench.sh                               # levels 4,8,16, 5 loops per client
#   bash scripts/load-bench.sh --levels 4,8 --iterations 3   # any option of load-bench.js
set -euo pipefail
cd "$(dirname "$0")/.."

eval "$(grep -E '^(PLAYWRIGHT_MCP|MCP_SDK)=' scripts/task-bench.sh)"
modules="${TASK_BENCH_MODULES:-${XDG_CACHE_HOME:-$HOME/.cache}/ariasnap/task-bench}"
chromium="${CHROMIUM:-/usr/bin/chromium}"

for c in node npm; do
  command -v "$c" >/dev/null || { echo "load-bench: $c not found (Node 18+ and npm are needed)" >&2; exit 2; }
done
[ -x "$chromium" ] || { echo "load-bench: no Chromium at $chromium (CHROMIUM=PATH points elsewhere)" >&2; exit 2; }

installed() { node -e "process.exit(require('$modules/node_modules/$1/package.json').version === '$2' ? 0 : 1)" 2>/dev/null; }
if ! installed @playwright/mcp "$PLAYWRIGHT_MCP" || ! installed @modelcontextprotocol/sdk "$MCP_SDK"; then
  echo "load-bench: installing @playwright/mcp@$PLAYWRIGHT_MCP and @modelcontextprotocol/sdk@$MCP_SDK into $modules" >&2
  mkdir -p "$modules"
  [ -f "$modules/package.json" ] || echo '{"private": true}' > "$modules/package.json"
  PLAYWRIGHT_SKIP_BROWSER_DOWNLOAD=1 npm install --prefix "$modules" --no-audit --no-fund --loglevel=error \
    "@playwright/mcp@$PLAYWRIGHT_MCP" "@modelcontextprotocol/sdk@$MCP_SDK" >&2
fi

exec node scripts/load-bench.js --modules "$modules" --chromium "$chromium" "$@"
