#!/usr/bin/env bash
# The audit's agreement with @axe-core/playwright on the 43 readability-corpus pages
# (docs/reference/audit.md; its table is in BENCHMARKS.md): installs @axe-core/playwright at
# the version pinned in scripts/npm-pins.sh into ~/.cache/ariasnap/audit-bench (npm; no
# browser is downloaded: Playwright drives /usr/bin/chromium, from ../shared/bench's
# playwright-core), builds ariasnap, and runs scripts/audit-bench.js. Arguments go to it
# (--only REGEX, --json FILE).
set -euo pipefail
cd "$(dirname "$0")/.."
. scripts/npm-pins.sh
bench="${BENCH_DIR:-../shared/bench}"
mods="${AUDIT_BENCH_MODULES:-${XDG_CACHE_HOME:-$HOME/.cache}/ariasnap/audit-bench}"
if ! node -e "process.exit(require('$mods/node_modules/@axe-core/playwright/package.json').version === '$AXE_PLAYWRIGHT' ? 0 : 1)" 2>/dev/null; then
  mkdir -p "$mods"
  [ -f "$mods/package.json" ] || echo '{"private": true}' > "$mods/package.json"
  # playwright-core is the bench's (--legacy-peer-deps: not installed again)
  PLAYWRIGHT_SKIP_BROWSER_DOWNLOAD=1 npm install --prefix "$mods" --no-audit --no-fund --loglevel=error \
    --legacy-peer-deps "@axe-core/playwright@$AXE_PLAYWRIGHT" >&2
fi
[ -d "$bench/node_modules/playwright-core" ] || { echo "audit-bench: no playwright-core in $bench (bash $bench/setup.sh)" >&2; exit 1; }
cargo build --release --quiet
node scripts/audit-bench.js --ariasnap target/release/ariasnap --bench "$bench" --modules "$mods" "$@"
