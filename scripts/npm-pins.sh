# Sourced by scripts/task-bench.sh, scripts/load-bench.sh and scripts/setup.sh: the npm
# packages pinned once (the official MCP SDK, whose client the benches and the `mcp --http` test
# speak through, and Playwright MCP, the benches' anchor), and where the benches install them:
# ~/.cache/ariasnap/task-bench, or TASK_BENCH_MODULES. No browser is downloaded.

PLAYWRIGHT_MCP=0.0.83
MCP_SDK=1.32.2
# the SDK v2 client, for the 2026-07-28 protocol (the `mcp --http` test of agents without a session)
MCP_CLIENT=2.4.0
modules="${TASK_BENCH_MODULES:-${XDG_CACHE_HOME:-$HOME/.cache}/ariasnap/task-bench}"

# ensure_bench_modules WHO: installs the two pinned packages into $modules unless both are
# there at those versions (WHO names the bench in the message).
ensure_bench_modules() {
  installed() { node -e "process.exit(require('$modules/node_modules/$1/package.json').version === '$2' ? 0 : 1)" 2>/dev/null; }
  if ! installed @playwright/mcp "$PLAYWRIGHT_MCP" || ! installed @modelcontextprotocol/sdk "$MCP_SDK"; then
    echo "$1: installing @playwright/mcp@$PLAYWRIGHT_MCP and @modelcontextprotocol/sdk@$MCP_SDK into $modules" >&2
    mkdir -p "$modules"
    [ -f "$modules/package.json" ] || echo '{"private": true}' > "$modules/package.json"
    # Playwright would fetch its own browser only on `playwright install`, which is never run
    PLAYWRIGHT_SKIP_BROWSER_DOWNLOAD=1 npm install --prefix "$modules" --no-audit --no-fund --loglevel=error \
      "@playwright/mcp@$PLAYWRIGHT_MCP" "@modelcontextprotocol/sdk@$MCP_SDK" >&2
  fi
}

# axe-core, vendored into the binary for `audit` (js/vendor/axe-core: scripts/update-axe.sh
# copies it from the npm package of this version), and the packages the audit bench and the
# debugging tests run beside it: @axe-core/playwright (scripts/audit-bench.js, given the
# vendored axe-core so both run the same build), har-validator (the HAR 1.2 schema) and
# pagexray (sitespeed.io's HAR reader, whose parser the HAR test opens the file with).
AXE_CORE=4.14.1
AXE_PLAYWRIGHT=4.14.0
HAR_VALIDATOR=5.1.5
PAGEXRAY=4.4.4
