#!/usr/bin/env bash
# Regenerates results/compare.md, results/compare.csv and results/compare.svg (the naive vs
# batch ECDSA circuit comparison) and prints the README table.
#
#   results/repro.sh                      # the published settings (below)
#   results/repro.sh --max-prove-b 4      # any bench option; later options override earlier
#   results/repro.sh --print              # only print the README table of the last run
#
# Published settings: B = 1..256 laid out, B = 1..32 proved, 3 runs each. On a quiet 2-core machine
# the full run takes about 33 minutes (see results/README.md); keep the machine quiet, since other
# work inflates the times.
set -euo pipefail
cd "$(dirname "$0")/.."
if [ "${1:-}" != "--print" ]; then
  cargo bench --bench compare -- \
    --sizes 1,2,4,8,16,32,64,128,256 --max-prove-b 32 --runs 3 --kinds naive,batch \
    --out results "$@" > /dev/null
fi
sed -n '/<!-- readme-table:start -->/,/<!-- readme-table:end -->/p' results/compare.md |
  sed '1d;$d' | sed '/./,$!d'
echo
grep -E '^- (Machine|Date|Command):' results/compare.md
