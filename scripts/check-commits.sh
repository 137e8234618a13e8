#!/usr/bin/env bash
# Commit messages since a fixed base (history before it cannot change): every subject under
# 72 characters, and every commit that is not a merge with a body (the why). Run by .ci/run.
#   bash scripts/check-commits.sh [BASE]    (BASE: a commit; the default is the one below)
set -euo pipefail
cd "$(dirname "$0")/.."
# main when the rule came in (issue 56); older subjects run long and stay as they are
# The base is the merge that landed this check with the branches built beside it (issue 56).
base=${1:-c552cec6d1256cfa0a87c80bbbb4f8d04982b86e}
if ! git cat-file -e "$base^{commit}" 2>/dev/null; then
  echo "check-commits: base commit $base is not in this clone (a shallow clone? fetch more history)" >&2
  exit 2
fi
bad=0
while IFS= read -r -d '' rec; do
  hash=${rec%%$'\x1f'*}
  rest=${rec#*$'\x1f'}
  parents=${rest%%$'\x1f'*}
  rest=${rest#*$'\x1f'}
  subject=${rest%%$'\x1f'*}
  body=${rest#*$'\x1f'}
  if (( ${#subject} >= 72 )); then
    echo "check-commits: ${hash:0:10}: subject of ${#subject} characters (under 72): $subject" >&2
    bad=1
  fi
  # a merge's subject says what was merged; any other commit says why in its body
  if [[ $parents != *" "* && -z ${body//[[:space:]]/} ]]; then
    echo "check-commits: ${hash:0:10}: no body saying why: $subject" >&2
    bad=1
  fi
done < <(git log -z --format='%H%x1f%P%x1f%s%x1f%b' "$base..HEAD")
if (( bad )); then
  echo "check-commits: reword them (git rebase -i $base) before they land" >&2
  exit 1
fi
echo "check-commits: $(git rev-list --count "$base..HEAD") commits since ${base:0:10} are well formed"
