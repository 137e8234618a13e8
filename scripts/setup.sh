#!/usr/bin/env bash
# Makes sure the browsers and their drivers are installed, so the demo and the tests can run
# on a fresh machine that has only the Rust toolchain: Chromium and ChromeDriver (Debian/
# Ubuntu: apt; required), Firefox ESR (apt) and geckodriver (`cargo install --locked
# geckodriver`, kept in ~/.cargo/bin). Firefox is needed only for `--browser firefox` and
# the Firefox run of the tests: failing to install it is a warning here
# (ARIASNAP_SETUP_FIREFOX=0 skips it).
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
