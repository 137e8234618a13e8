#!/usr/bin/env bash
# The test command: installs what the tests need when missing, then runs the whole suite
# (unit tests and the end-to-end tests in headless Chromium).
set -euo pipefail
cd "$(dirname "$0")/.."
bash scripts/setup.sh
cargo test --all-targets "$@"
