#!/usr/bin/env bash
# Fidelity on Firefox: Firefox's own computed role and label (WebDriver Get Computed Role /
# Get Computed Label) of every element with a ref, against ariasnap's role and name, on the
# readability corpus of ../shared (43 real pages), through the WebDriver session ariasnap drives.
# Prints a per-page table, pooled agreement (role, label, both) and the disagreements by kind.
#
#   bash scripts/firefox-fidelity.sh                        # whole corpus
#   bash scripts/firefox-fidelity.sh --pages 'wikipedia'    # a regex on page ids
#   bash scripts/firefox-fidelity.sh --examples 5 --json out.json   # more examples, raw rows
#
# Needs Firefox (firefox-esr) and geckodriver (scripts/setup.sh), Node >= 20 and ../shared/bench
# (only its lib/corpus.js and lib/server.js are used: no npm install needed). Builds ariasnap
# (release), runs scripts/firefox-fidelity.js with a private ARIASNAP_HOME, closes the session.
set -euo pipefail

# a closed session's browser may still be ending (session close ends it behind the command):
# its profile folder is removed once it has
rm_home() { for _ in 1 2 3 4 5 6 7 8 9 10; do rm -rf "$1" 2>/dev/null && return 0; sleep 0.3; done; rm -rf "$1" || true; }
here="$(cd "$(dirname "$0")/.." && pwd)"
bench="${BENCH_DIR:-$here/../shared/bench}"
if [ ! -f "$bench/lib/server.js" ]; then
  echo "firefox-fidelity: $bench/lib/server.js not found (set BENCH_DIR)" >&2
  exit 2
fi
cd "$here"
cargo build --release --quiet
target="$(realpath -m "${CARGO_TARGET_DIR:-$here/target}")"
bin="$target/release/ariasnap"
export ARIASNAP_HOME="$(mktemp -d)"
cleanup() { "$bin" session close ffid >/dev/null 2>&1 || true; rm_home "$ARIASNAP_HOME"; }
trap cleanup EXIT
trap 'exit 130' INT TERM
BENCH_DIR="$bench" node "$here/scripts/firefox-fidelity.js" --bin "$bin" --session ffid "$@"
