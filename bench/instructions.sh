#!/usr/bin/env bash
# Host instructions per warp store of the TLM model's simulation, counted by callgrind: a
# measure of the model's own work that a drifting host cannot disturb (the wall-clock speed
# is bench_sim's; docs/performance-notes.md, "How to measure"). Two fixed runs of `stu sim`
# with the plan thread off: the stream generator on the h100 preset with a 5 MiB L2 (so that
# most stores evict a dirty line to DRAM, as in the long benchmarks, in a run callgrind finishes
# in a minute), AT with 20,000 warp stores of four lines and LT with 60,000 of one line. It
# prints, per mode, the instructions of TlmModel::run less those of the workload's generation
# and planning (the plan thread's share when it runs), per warp store. Needs valgrind.
#
#   bench/instructions.sh [STU]        (STU: build/stu by default)
#
# Exit status: 0, or 2 when valgrind or the program is missing or a run fails.
set -euo pipefail

stu=${1:-build/stu}
[ -x "$stu" ] || { echo "bench/instructions.sh: $stu: not an executable" >&2; exit 2; }
command -v valgrind > /dev/null && command -v callgrind_annotate > /dev/null ||
  { echo "bench/instructions.sh: needs valgrind (apt-get install valgrind)" >&2; exit 2; }

dir=$(mktemp -d)
trap 'rm -rf "$dir"' EXIT
# 80 slices of 64 KiB: 40,960 lines; the held partial and dirty lines scaled as the preset does.
cat > "$dir/config.json" <<'JSON'
{"preset": "h100", "l2": {"slice_bytes": 65536, "partial_lines": 5120, "dirty_lines": 17920}}
JSON

inclusive() {  # inclusive instructions of the first function matching $2 in profile $1
  callgrind_annotate --inclusive=yes "$1" 2> /dev/null |
    awk -v f="$2" '!done && index($0, f) { gsub(",", "", $1); print $1; done = 1 }'
}
for mode in at lt; do
  if [ "$mode" = at ]; then warps=20000 width=16; else warps=60000 width=4; fi
  if ! valgrind --tool=callgrind --callgrind-out-file="$dir/$mode.out" "$stu" sim \
      --config "$dir/config.json" --workload stream --mode "$mode" --param warps=$warps \
      --param width=$width --plan-thread off -q > "$dir/$mode.log" 2>&1; then
    echo "bench/instructions.sh: the $mode run failed:" >&2
    tail -5 "$dir/$mode.log" >&2
    exit 2
  fi
  run=$(inclusive "$dir/$mode.out" "stu::sim::TlmModel::run(")
  plan=$(inclusive "$dir/$mode.out" "stu::sim::TlmModel::next_workload_op(")
  [ -n "$run" ] && [ -n "${plan:-0}" ] ||
    { echo "bench/instructions.sh: no TlmModel::run in the $mode profile" >&2; exit 2; }
  echo "$mode: $(((run - ${plan:-0}) / warps)) host instructions per warp store" \
    "($warps warp stores of $width-byte lanes; generation and planning left out)"
done
