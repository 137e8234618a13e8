#!/usr/bin/env bash
# Fidelity: role + name agreement (F1) with Chromium's own accessibility tree on the real
# pages of ../shared/corpus, ariasnap beside Playwright's two snapshot modes, in one run.
#
#   bash scripts/fidelity.sh                          # readability corpus
#   bash scripts/fidelity.sh --corpus synthetic       # any measure.js options
#
# Timing is not the point here (one timed run per tool); scripts/bench.sh measures speed.
set -euo pipefail
here="$(cd "$(dirname "$0")" && pwd)"
args=("$@")
if [ ${#args[@]} -eq 0 ]; then args=(--corpus readability); fi
RUNS="${RUNS:-1}" TOOL_BUDGET_S="${TOOL_BUDGET_S:-5}" exec bash "$here/bench.sh" "${args[@]}"
