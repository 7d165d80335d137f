#!/usr/bin/env bash
# Synthesis of the RTL blocks with Debian's yosys (0.23): `synth` of each block yosys reads,
# with the cells, flip-flops, latches and memories of each; exit 1 when a block has a latch or
# does not synthesise. docs/rtl.md keeps the table and says which blocks yosys does not read yet.
#
#   rtl/formal/synth.sh [BLOCK...]    (default: every block below)
# Exit 77 (CTest's skip) when yosys is not on the PATH. Run from anywhere.
set -euo pipefail
cd "$(dirname "$0")/../.."
command -v yosys >/dev/null 2>&1 || { echo "synth: yosys not found: skipped"; exit 77; }
. rtl/formal/yosys_src.sh

# The blocks yosys 0.23 reads (the others: unpacked-array or struct-array ports, `break`,
# functions returning a typedef; docs/rtl.md).
ALL=(sector_mask store_align mbarrier addr_resolve l2_action policy_decode cache_way_select
     ram_1r1w addr_gen tmem_alloc coalescer_order coalescer l1_wpath l2_wslice)
# Defines a block needs to be read (none today), and parameters other than its defaults, as
# chparam's `-set NAME VALUE` (cache_way_select: the geometry of l1_wpath's own default, 16 sets
# x 4 ways; it reads every line's tag through a multiplexer, which yosys does not finish in 15
# minutes at 64 x 4; coalescer_order: stu_coalescer's key, 51 bits of destination and 57 of line
# number).
declare -A DEFS=()
declare -A PARAMS=([cache_way_select]="-set Sets 16 -set Ways 4"
  [coalescer_order]="-set KeyBits 108" [l2_wslice]="-set Sets 16")
# Memories stay memories: synthesis stops before `memory_map` would turn them into flip-flops (a
# technology flow maps them to macros instead). ram_1r1w at the L2 slice's own default, 64 x
# 1024 bits.
declare -A SYNTH=([ram_1r1w]="-run begin:fine" [l2_wslice]="-run begin:fine" [coalescer]="-noshare")
blocks=("$@")
((${#blocks[@]})) || blocks=("${ALL[@]}")

work=$(mktemp -d)
trap 'rm -rf "$work"' EXIT
yosys_src "$work/src"
status=0
printf '%-14s %8s %8s %8s %9s %6s\n' block cells flops latches memories time
for b in "${blocks[@]}"; do
  start=$SECONDS
  files=$(yosys_files "$work/src" "$b" | awk '!seen[$0]++' | tr '\n' ' ')
  if ! yosys -q -l "$work/$b.log" -p "read_verilog -sv -DSYNTHESIS ${DEFS[$b]:-} -I$work/src $files; ${PARAMS[$b]:+chparam ${PARAMS[$b]} stu_$b;} hierarchy -top stu_$b; tee -q -o $work/$b.ports portlist stu_$b; synth -top stu_$b ${SYNTH[$b]:-}; tee -q -o $work/$b.stat stat" >/dev/null 2>&1; then
    echo "$b: yosys failed:"
    grep -m3 ERROR "$work/$b.log" || tail -3 "$work/$b.log"
    status=1
    continue
  fi
  # shellcheck disable=SC2046
  if ! yosys_warnings "$work/$b.log" ||
      ! ports_match "$work/src" "$b" "$work/$b.ports" $(set_pairs "${PARAMS[$b]:-}"); then
    echo "$b: yosys misread it (above): the netlist is not the design"
    status=1
    continue
  fi
  s=$work/$b.stat
  cells=$(awk '/Number of cells:/ {n=$NF} END {print n+0}' "$s")
  flops=$(awk '/\$_(S?DFF|DFFE|SDFF|ALDFF)/ {n+=$NF} END {print n+0}' "$s")
  latches=$(awk '/LATCH/ {n+=$NF} END {print n+0}' "$s")
  mems=$(awk '/Number of memories:/ {n+=$NF} /\$mem(_v2)? / {n+=$NF} END {print n+0}' "$s")
  printf '%-14s %8s %8s %8s %9s %5ss\n' "$b" "$cells" "$flops" "$latches" "$mems" $((SECONDS - start))
  if ((latches)); then
    echo "$b: $latches latches (an always_comb that does not assign every output on every path)"
    status=1
  fi
done
exit $status
