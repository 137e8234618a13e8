#!/usr/bin/env bash
# Copies axe-core's build and licences, at the version pinned in scripts/npm-pins.sh
# (AXE_CORE), from its npm package into js/vendor/axe-core/, where `audit` takes it from
# (include_str!, src/engine/audit.rs). Change the pin, run this, rebuild, and rerun
# scripts/audit-bench.sh (BENCHMARKS.md) to see what the new version reports.
set -euo pipefail
cd "$(dirname "$0")/.."
. scripts/npm-pins.sh
tmp=$(mktemp -d)
trap 'rm -rf "$tmp"' EXIT
(cd "$tmp" && npm pack --silent "axe-core@$AXE_CORE" >/dev/null && tar xzf "axe-core-$AXE_CORE.tgz")
for f in axe.min.js LICENSE LICENSE-3RD-PARTY.txt; do
  cp "$tmp/package/$f" "js/vendor/axe-core/$f"
done
head -c 40 js/vendor/axe-core/axe.min.js; echo
sha256sum js/vendor/axe-core/axe.min.js
