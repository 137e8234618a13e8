#!/usr/bin/env bash
# Speed, size and fidelity bench: runs ../shared/bench (Playwright's two snapshot modes and
# Chromium's own accessibility tree) with ariasnap as the candidate on a kept-alive session,
# in one run, then prints ariasnap beside them as ratios (scripts/bench-report.js).
#
#   bash scripts/bench.sh                                   # synthetic + readability corpora
#   bash scripts/bench.sh --corpus synthetic --pages 'mixed-'   # any measure.js options
#   RUNS=3 TOOL_BUDGET_S=10 bash scripts/bench.sh ...       # fewer runs
#   bash scripts/bench.sh --baseline REV [options]          # before/after: REV against this tree
#   bash scripts/bench.sh --baseline REV --interleave [options]   # same, paired page by page
#   bash scripts/bench.sh --firefox [options]               # then ariasnap on Firefox vs Chromium
#
# --baseline REV builds git revision REV (release, in a temporary git worktree, cached by
# commit under target/bench-baseline/) and the working tree, runs measure.js once per binary
# (measure.js takes a single candidate), each with its own ARIASNAP_HOME and session, and
# prints a before/after table (scripts/bench-ab.js) instead of the usual report.
# --interleave runs measure.js once per page and binary instead, alternating which binary goes
# first, so that before and after of a page are measured seconds apart rather than a whole run
# apart (costs about 1 s of measure.js start-up per call; the anchors are then measured twice per page).
#
# --firefox (without --baseline): after the run, the same pages once more with ariasnap alone,
# on Firefox and on Chromium side by side (scripts/bench-firefox.js: whole-process times,
# interleaved), printed as Firefox/Chromium ratios.
#
# Needs ../shared/bench set up once: bash ../shared/bench/setup.sh
set -euo pipefail

# a closed session's browser may still be ending (session close ends it behind the command):
# its profile folder is removed once it has
rm_home() { for _ in 1 2 3 4 5 6 7 8 9 10; do rm -rf "$1" 2>/dev/null && return 0; sleep 0.3; done; rm -rf "$1" || true; }
here="$(cd "$(dirname "$0")/.." && pwd)"
bench="${BENCH_DIR:-$here/../shared/bench}"
baseline=""
interleave=""
firefox=""
args=()
while [ $# -gt 0 ]; do
  case "$1" in
    --interleave) interleave=1; shift ;;
    --firefox) firefox=1; shift ;;
    --baseline) [ $# -ge 2 ] || { echo "bench: --baseline needs a git revision" >&2; exit 2; }
                baseline="$2"; shift 2 ;;
    --baseline=*) baseline="${1#--baseline=}"; shift ;;
    *) args+=("$1"); shift ;;
  esac
done
if [ ! -f "$bench/measure.js" ]; then
  echo "bench: $bench/measure.js not found (set BENCH_DIR)" >&2
  exit 2
fi
if [ ! -d "$bench/node_modules/playwright-core" ]; then
  echo "bench: run 'bash $bench/setup.sh' once first" >&2
  exit 2
fi
cd "$here"
if [ ${#args[@]} -eq 0 ]; then args=(--corpus synthetic,readability); fi
target="$(realpath -m "${CARGO_TARGET_DIR:-$here/target}")"
bin="$target/release/ariasnap"

# measure.js with BIN as the candidate on SESSION; writes OUT/NAME.json (+ OUT/snapshots/NAME/).
# Further arguments go before the user's measure.js options (measure.js takes the first of each).
run_bench() { # BIN SESSION OUT NAME [measure.js options]
  local b="$1" s="$2" o="$3" n="$4"
  shift 4
  (
    cd "$bench"
    SAVE_SNAPSHOTS=1 CANDIDATE_NAME=ariasnap \
    CANDIDATE_PREP_CMD="'$b' goto {url} --session $s" \
    CANDIDATE_CMD="'$b' snapshot --session $s --format json --inline-limit 0 --max-nodes 0 --no-cache" \
    node measure.js --out "$o" --name "$n" "$@" "${args[@]}"
  )
}

if [ -z "$baseline" ]; then
  if [ -n "$interleave" ]; then echo "bench: --interleave needs --baseline REV" >&2; exit 2; fi
  cargo build --release --quiet
  export ARIASNAP_HOME="$(mktemp -d)"
  out="$(mktemp -d)"
  name="ariasnap-$(date +%Y%m%d-%H%M%S)"
  cleanup() { "$bin" session close bench >/dev/null 2>&1 || true; rm_home "$ARIASNAP_HOME"; }
  trap cleanup EXIT
  run_bench "$bin" bench "$out" "$name"
  snaps="$out/snapshots/$name"; [ -d "$snaps" ] || snaps="$out/snapshots"
  node "$here/scripts/bench-report.js" "$out/$name.json" "$snaps"
  # Host memory: peak RSS of one snapshot process on the largest page measured.
  python3 - "$bin" "$out/$name.json" <<'PY'
import json, resource, subprocess, sys
bin_, res = sys.argv[1], sys.argv[2]
pages = json.load(open(res))["pages"]
big = max((p for p in pages if p.get("tools", {}).get("candidate", {}).get("status") == "ok"),
          key=lambda p: p.get("dom_elements") or 0, default=None)
if big:
    r = subprocess.run([bin_, "snapshot", "--session", "bench", "--format", "json", "--inline-limit", "0",
                        "--max-nodes", "0"], capture_output=True)
    rss = resource.getrusage(resource.RUSAGE_CHILDREN).ru_maxrss / 1024
    print(f"\nhost peak RSS (one snapshot of the session's last page, {len(r.stdout)} bytes out): {rss:.1f} MiB")
PY
  echo "results: $out/$name.json"
  if [ -n "$firefox" ]; then
    ff_args=()
    for ((i = 0; i < ${#args[@]}; i++)); do
      case "${args[$i]}" in
        --pages|--corpus) ff_args+=("${args[$i]}" "${args[$((i + 1))]}"); i=$((i + 1)) ;;
      esac
    done
    BENCH_DIR="$bench" node "$here/scripts/bench-firefox.js" "$bin" "${ff_args[@]}"
  fi
  exit 0
fi

# ---------------------------------------------------------------- --baseline REV
sha="$(git rev-parse --verify --quiet "$baseline^{commit}")" || {
  echo "bench: --baseline: '$baseline' is not a commit of this repository" >&2
  exit 2
}
short="$(git rev-parse --short "$sha")"
cache="$here/target/bench-baseline"        # target/ is git-ignored
base_bin="$cache/ariasnap-$sha"
wt=""
base_home=""
cur_home=""
cleanup() {
  if [ -n "$base_home" ]; then
    ARIASNAP_HOME="$base_home" "$base_bin" session close bench-before >/dev/null 2>&1 || true
    rm_home "$base_home"
  fi
  if [ -n "$cur_home" ]; then
    ARIASNAP_HOME="$cur_home" "$bin" session close bench-after >/dev/null 2>&1 || true
    rm_home "$cur_home"
  fi
  if [ -n "$wt" ]; then
    git -C "$here" worktree remove --force "$wt" >/dev/null 2>&1 || true
    rm -rf "$wt"
  fi
}
trap cleanup EXIT
trap 'exit 130' INT TERM

if [ -x "$base_bin" ]; then
  echo "bench: baseline $short: cached build $base_bin" >&2
else
  echo "bench: baseline $short: building in a temporary worktree (release, CARGO_TARGET_DIR=$cache/target)" >&2
  mkdir -p "$cache"
  wt="$(mktemp -d)"
  git worktree add --detach --quiet "$wt" "$sha"
  # One target dir for every baseline: dependencies are built once; the binary is kept per commit.
  (cd "$wt" && CARGO_TARGET_DIR="$cache/target" cargo build --release --quiet --locked)
  cp "$cache/target/release/ariasnap" "$base_bin.tmp.$$"
  mv "$base_bin.tmp.$$" "$base_bin"
  git worktree remove --force "$wt"
  wt=""
fi
echo "bench: working tree: building (release, $target)" >&2
cargo build --release --quiet

out="$(mktemp -d)"
base_home="$(mktemp -d)"
cur_home="$(mktemp -d)"
before() { ARIASNAP_HOME="$base_home" run_bench "$base_bin" bench-before "$out/before" "$@"; }
after() { ARIASNAP_HOME="$cur_home" run_bench "$bin" bench-after "$out/after" "$@"; }
if [ -z "$interleave" ]; then
  echo "bench: run 1/2: before ($short)" >&2
  before "before-$short"
  echo "bench: run 2/2: after (working tree)" >&2
  after after
else
  # The pages measure.js would measure (same --corpus / --pages / CORPUS / PAGES rules), then one
  # measure.js per page and binary with --pages '^ID$' (the user's --pages taken out).
  mapfile -t pages < <(cd "$bench" && node -e '
    const corpus = require("./lib/corpus");
    const a = process.argv.slice(1);
    const opt = (n) => { const i = a.indexOf(n); return i >= 0 ? a[i + 1] : undefined; };
    const corpora = (opt("--corpus") || process.env.CORPUS || "synthetic,readability,rustdoc").split(",").map((s) => s.trim());
    let pages = [];
    if (corpora.includes("synthetic")) pages.push(...corpus.syntheticPages());
    if (corpora.includes("readability")) pages.push(...corpus.readabilityPages());
    if (corpora.includes("rustdoc")) pages.push(...corpus.rustdocPages());
    const re = opt("--pages") || process.env.PAGES;
    if (re) pages = pages.filter((p) => new RegExp(re).test(p.id));
    for (const p of pages) console.log(p.id);
  ' -- "${args[@]}")
  if [ ${#pages[@]} -eq 0 ]; then echo "bench: no pages selected" >&2; exit 2; fi
  rest=()
  for ((i = 0; i < ${#args[@]}; i++)); do
    if [ "${args[i]}" = --pages ]; then i=$((i + 1)); else rest+=("${args[i]}"); fi
  done
  args=("${rest[@]}")
  for ((i = 0; i < ${#pages[@]}; i++)); do
    id="${pages[i]}"
    re="^$(printf '%s' "$id" | sed 's/[][\.*^$+?(){}|]/\\&/g')\$"
    n="$(printf 'p%03d' "$i")"
    echo "bench: page $((i + 1))/${#pages[@]}: $id" >&2
    if [ $((i % 2)) -eq 0 ]; then
      before "$n" --pages "$re"; after "$n" --pages "$re"
    else
      after "$n" --pages "$re"; before "$n" --pages "$re"
    fi
  done
fi
ARIASNAP_HOME="$base_home" "$base_bin" session close bench-before >/dev/null 2>&1 || true
ARIASNAP_HOME="$cur_home" "$bin" session close bench-after >/dev/null 2>&1 || true

dirty=""
if [ -n "$(git status --porcelain --untracked-files=no 2>/dev/null)" ]; then dirty=" + uncommitted changes"; fi
node "$here/scripts/bench-ab.js" "$out/before" "$out/after" \
  --labels "$short,$(git rev-parse --short HEAD)$dirty${interleave:+ (interleaved page by page)}"
echo "results: $out/before/ $out/after/ (measure.js JSON and Markdown, snapshots/)"
