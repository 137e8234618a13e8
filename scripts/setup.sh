#!/usr/bin/env bash
# Makes sure Chromium and ChromeDriver are installed (Debian/Ubuntu: apt), so the demo and
# the tests can run on a fresh machine that has only the Rust toolchain.
set -euo pipefail
have() { command -v "$1" >/dev/null 2>&1; }
browser=""; for b in chromium chromium-browser google-chrome google-chrome-stable; do have "$b" && browser="$b" && break; done
driver=""; for d in chromedriver /usr/lib/chromium/chromedriver; do { have "$d" || [ -x "$d" ]; } && driver="$d" && break; done
if [ -n "$browser" ] && [ -n "$driver" ]; then
  exit 0
fi
cmd="apt-get update && apt-get install -y chromium chromium-driver"
if ! have apt-get; then
  echo "setup: Chromium and ChromeDriver are needed and this machine has no apt-get." >&2
  echo "setup: install them with your package manager, or point ariasnap at them with --browser PATH --driver PATH (or --webdriver URL)." >&2
  exit 1
fi
if [ "$(id -u)" -eq 0 ]; then
  echo "setup: installing chromium and chromium-driver with apt-get" >&2
  apt-get update -qq
  DEBIAN_FRONTEND=noninteractive apt-get install -y -qq chromium chromium-driver >&2
elif have sudo && sudo -n true 2>/dev/null; then
  echo "setup: installing chromium and chromium-driver with sudo apt-get" >&2
  sudo apt-get update -qq
  sudo DEBIAN_FRONTEND=noninteractive apt-get install -y -qq chromium chromium-driver >&2
else
  echo "setup: Chromium and ChromeDriver are missing. Install them with:" >&2
  echo "  sudo sh -c '$cmd'" >&2
  exit 1
fi
