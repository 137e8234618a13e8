# Sourced by scripts/task-bench.sh, scripts/load-bench.sh, scripts/cli-bench.sh and scripts/setup.sh: the npm
# packages pinned once (the official MCP SDK, whose client the benches and the `mcp --http` test
# speak through, Playwright MCP, the benches' anchor, and the widget libraries the fixture
# pages load from /vendor/), and where they go: ~/.cache/ariasnap/task-bench (or
# TASK_BENCH_MODULES) for the benches, ~/.cache/ariasnap/vendor (or ARIASNAP_VENDOR) for the
# libraries. No browser is downloaded.

PLAYWRIGHT_MCP=0.0.83
MCP_SDK=1.32.2
# the SDK v2 client, for the 2026-07-28 protocol (the `mcp --http` test of agents without a session)
MCP_CLIENT=2.4.0
# the widget libraries of the fixture pages (fixtures/html/widgets/, served at /vendor/ by the
# test fixture server and the task bench's: docs/contributing.md#widget-libraries)
JQUERY=3.7.1
JQUERY_UI=1.14.2
BOOTSTRAP=5.3.9
VUE=3.5.45
vendor="${ARIASNAP_VENDOR:-${XDG_CACHE_HOME:-$HOME/.cache}/ariasnap/vendor}"
# the runner of the Playwright specs `session export --as playwright` writes (the test
# replay::exported_spec_passes_playwright_test), into ~/.cache/ariasnap/playwright-test, run
# on the system Chromium
PLAYWRIGHT_TEST=1.65.1
playwright_test_modules="${ARIASNAP_PLAYWRIGHT_TEST:-${XDG_CACHE_HOME:-$HOME/.cache}/ariasnap/playwright-test}"
# the command-line bench's two peers (scripts/cli-bench.sh), pointed at the system Chromium
PLAYWRIGHT_CLI=0.1.22
AGENT_BROWSER=0.41.2
cli_modules="${CLI_BENCH_MODULES:-${XDG_CACHE_HOME:-$HOME/.cache}/ariasnap/cli-bench}"
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

# ensure_vendor_modules WHO: installs the pinned widget libraries into $vendor unless all are
# there at those versions (WHO names the caller in the message). Their own package folders
# (licences included) are served as they are: /vendor/jquery-ui/dist/jquery-ui.min.js is
# $vendor/node_modules/jquery-ui/dist/jquery-ui.min.js.
ensure_vendor_modules() {
  vendored() { node -e "process.exit(require('$vendor/node_modules/$1/package.json').version === '$2' ? 0 : 1)" 2>/dev/null; }
  if ! vendored jquery "$JQUERY" || ! vendored jquery-ui "$JQUERY_UI" || ! vendored bootstrap "$BOOTSTRAP" \
      || ! vendored vue "$VUE"; then
    echo "$1: installing jquery@$JQUERY jquery-ui@$JQUERY_UI bootstrap@$BOOTSTRAP vue@$VUE into $vendor" >&2
    mkdir -p "$vendor"
    [ -f "$vendor/package.json" ] || echo '{"private": true}' > "$vendor/package.json"
    npm install --prefix "$vendor" --no-audit --no-fund --loglevel=error \
      "jquery@$JQUERY" "jquery-ui@$JQUERY_UI" "bootstrap@$BOOTSTRAP" "vue@$VUE" >&2
  fi
}

# ensure_cli_bench_modules: installs the command-line bench's two peers into $cli_modules
# unless both are there at the pinned versions. Neither downloads a browser on install
# (agent-browser ships its binary in the package; Playwright's is skipped).
ensure_cli_bench_modules() {
  installed() { node -e "process.exit(require('$cli_modules/node_modules/$1/package.json').version === '$2' ? 0 : 1)" 2>/dev/null; }
  if ! installed @playwright/cli "$PLAYWRIGHT_CLI" || ! installed agent-browser "$AGENT_BROWSER"; then
    echo "cli-bench: installing @playwright/cli@$PLAYWRIGHT_CLI and agent-browser@$AGENT_BROWSER into $cli_modules" >&2
    mkdir -p "$cli_modules"
    [ -f "$cli_modules/package.json" ] || echo '{"private": true}' > "$cli_modules/package.json"
    PLAYWRIGHT_SKIP_BROWSER_DOWNLOAD=1 npm install --prefix "$cli_modules" --no-audit --no-fund --loglevel=error \
      "@playwright/cli@$PLAYWRIGHT_CLI" "agent-browser@$AGENT_BROWSER" >&2
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
