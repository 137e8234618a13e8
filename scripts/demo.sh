#!/usr/bin/env bash
# The demo: installs Chromium and ChromeDriver when missing, builds ariasnap and prints the
# snapshot of a bundled demo page served on 127.0.0.1.
set -euo pipefail
cd "$(dirname "$0")/.."
# the demo needs no Selenium Grid (Java, the server jar): only the tests do
ARIASNAP_SETUP_GRID=0 bash scripts/setup.sh
cargo run --quiet -- demo "$@"
