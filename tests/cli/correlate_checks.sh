#!/usr/bin/env bash
# stu correlate's counters that silicon counted none of (docs/correlate.md, "stu correlate"): a
# model's 0 is exact (ratio 1, written to a baseline), a model's count is "inf", outside 15 % and
# out of the mean, and fails the run when its figure is in the baseline.
# Usage: correlate_checks.sh STU FIXTURE_DIR (tests/data/correlate/zero)
set -uo pipefail
stu=$1
d=$2
tmp=$(mktemp -d)
trap 'rm -rf "$tmp"' EXIT
fail=0
args=(correlate --suite "$d/suite.txt" --measured "$d/bench.jsonl" --ncu "$d/ncu.csv"
      --ncu-launches "$d/launches.txt")

out=$("$stu" "${args[@]}" --write-baseline "$tmp/base.txt" 2>&1)
status=$?
check() {  # check PATTERN WHAT
  if ! grep -qE -- "$1" <<<"$out"; then
    echo "FAIL: $2; output:"
    echo "$out" | head -20
    fail=1
  fi
}
[[ $status -eq 0 ]] || { echo "FAIL: exit $status without a baseline"; fail=1; }
check 'warps_wt_32 +dram__bytes_write\.sum +0 +0 +1 ' "both 0 is exact"
check 'strided_4096 +dram__bytes_write\.sum +0 +[0-9.e+]+ +inf ' "the model's count where silicon has none is inf"
check '^4 figures compared, 3 within 15%.*; 1 counted by the model where silicon counted none' \
  "the summary counts the inf row as compared, not within 15 %, and apart"
grep -qx 'warps_wt_32 dram__bytes_write.sum 1' "$tmp/base.txt" ||
  { echo "FAIL: the baseline lacks the exact zero row"; fail=1; }
grep -q 'strided_4096 dram__bytes_write' "$tmp/base.txt" &&
  { echo "FAIL: the baseline holds the inf row"; fail=1; }

# The written baseline passes; with the inf row in it, the run fails (exit 1) and says why.
"$stu" "${args[@]}" --baseline "$tmp/base.txt" -q >/dev/null 2>&1 ||
  { echo "FAIL: the run fails against its own baseline"; fail=1; }
echo "strided_4096 dram__bytes_write.sum 1" >>"$tmp/base.txt"
out=$("$stu" "${args[@]}" --baseline "$tmp/base.txt" -q 2>&1)
status=$?
[[ $status -eq 1 ]] || { echo "FAIL: exit $status (want 1) with the inf row in the baseline"; fail=1; }
check 'strided_4096 dram__bytes_write\.sum: the model counts .* where silicon counted none' \
  "the baseline failure names the figure"

((fail)) && exit 1
echo "correlate_checks: ok"
