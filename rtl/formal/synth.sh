#!/usr/bin/env bash
# Synthesis of the RTL blocks with Debian's yosys (0.23): `synth` of each block yosys reads,
# with the cells, flip-flops, latches and memories of each; exit 1 when a block has a latch or
# does not synthesise. docs/rtl.md keeps the table.
#
#   rtl/formal/synth.sh [BLOCK...]    (default: the blocks in ALL below)
#   rtl/formal/synth.sh --misread     the port check catches a block yosys reads wrong
# Exit 77 (CTest's skip) when yosys is not on the PATH. Run from anywhere.
set -euo pipefail
cd "$(dirname "$0")/../.."
command -v yosys >/dev/null 2>&1 || { echo "synth: yosys not found: skipped"; exit 77; }
. rtl/formal/yosys_src.sh

# The blocks run by default (docs/rtl.md). coalescer (about 2.5 minutes), l1_wpath, l2_wslice
# (about 3 each), tmem_wdp (about 6) and store_unit (about 7) are left to `synth.sh coalescer
# l1_wpath l2_wslice tmem_wdp store_unit` (CTest synth_large, label long).
ALL=(sector_mask store_align mbarrier addr_resolve l2_action policy_decode cache_way_select
     ram_1r1w addr_gen tmem_alloc coalescer_order store_path)
# Blocks only read and checked (ports, warnings), not synthesised: none at present.
READ_ONLY=()
# Synthesised hierarchically, as a flow synthesises a top: the blocks a parent instantiates are
# black boxes (each has a row of its own), so its row is its own logic, and the instances of
# each block are counted under it.
HIER=(store_unit store_path)
# Defines a block needs to be read (STU_PACKED_PORTS: the way selection's arrays as plain
# vectors), and parameters other than its defaults, as chparam's `-set NAME VALUE`
# (cache_way_select: the geometry of l1_wpath's own default, 16 sets x 4 ways; it reads every
# line's tag through a multiplexer, which yosys does not finish in 15 minutes at 64 x 4;
# coalescer_order: stu_coalescer's key, 51 bits of destination and 57 of line number).
declare -A DEFS=([cache_way_select]="-DSTU_PACKED_PORTS" [l1_wpath]="-DSTU_PACKED_PORTS"
  [l2_wslice]="-DSTU_PACKED_PORTS" [store_path]="-DSTU_PACKED_PORTS")
declare -A PARAMS=([cache_way_select]="-set Sets 16 -set Ways 4"
  [coalescer_order]="-set KeyBits 108" [l2_wslice]="-set Sets 16")
# Memories stay memories: the data arrays behind stu_ram_1r1w are SRAM macros in a real flow, so
# a block that instantiates the wrapper keeps it as a black box (a macro, counted under
# "memories"), and ram_1r1w itself stops before `memory_map` would turn its array into
# flip-flops. Arrays written elsewhere (tags, write buffers) are mapped to flip-flops.
MACRO=stu_ram_1r1w
declare -A SYNTH=([ram_1r1w]="-run begin:fine" [coalescer]="-noshare")
# --misread: a module yosys 0.23 reads wrong without an error (a packed array of an enum as a
# port) must be caught by the port check; exit 0 when it is.
if [[ ${1:-} == --misread ]]; then
  d=$(mktemp -d)
  cat >"$d/stu_misread.sv" <<'SV'
typedef enum logic [1:0] { A = 2'd0, B = 2'd1 } two_e;
module stu_misread (input two_e [3:0] cls_i, input logic [1:0] sel_i, output logic [1:0] cls_o);
  assign cls_o = cls_i[sel_i];
endmodule
SV
  yosys -q -l "$d/log" -p "read_verilog -sv $d/stu_misread.sv; hierarchy -top stu_misread; tee -q -o $d/ports portlist stu_misread" >/dev/null 2>&1
  if ports_match "$d" misread "$d/ports"; then
    echo "synth --misread: the misread port was not caught"
    rm -rf "$d"
    exit 1
  fi
  echo "synth --misread: caught, as it should be"
  rm -rf "$d"
  exit 0
fi
blocks=("$@")
((${#blocks[@]})) || blocks=("${ALL[@]}")

work=$(mktemp -d)
trap 'rm -rf "$work"' EXIT
yosys_src "$work/src"
status=0
printf '%-16s %8s %8s %8s %9s %6s\n' block cells flops latches memories time
for b in "${blocks[@]}"; do
  start=$SECONDS
  files=$(yosys_files "$work/src" "$b" | awk '!seen[$0]++' | tr '\n' ' ')
  box=""
  [[ $b != ram_1r1w && $files == *"/$MACRO.sv"* ]] && box="blackbox *$MACRO*;"
  children=()
  if [[ " ${HIER[*]} " == *" $b "* ]]; then
    mapfile -t children < <(grep -oE '^\s*stu_[a-z0-9_]+\s+(#|u_)' "$work/src/stu_$b.sv" |
                            grep -oE 'stu_[a-z0-9_]+' | sort -u)
    box="blackbox $(printf '*%s* ' "${children[@]}");"
  fi
  flow="$box synth -flatten -top stu_$b ${SYNTH[$b]:-}; tee -q -o $work/$b.stat stat"
  [[ " ${READ_ONLY[*]} " == *" $b "* ]] && flow="proc"
  if ! yosys -q -l "$work/$b.log" -p "read_verilog -sv -DSYNTHESIS ${DEFS[$b]:-} -I$work/src $files; ${PARAMS[$b]:+chparam ${PARAMS[$b]} stu_$b;} hierarchy -top stu_$b; tee -q -o $work/$b.ports portlist stu_$b; $flow" >/dev/null 2>&1; then
    echo "$b: yosys failed:"
    grep -m3 ERROR "$work/$b.log" || tail -3 "$work/$b.log"
    status=1
    continue
  fi
  # shellcheck disable=SC2046
  if ! yosys_warnings "$work/$b.log" ||
      ! ports_match "$work/src" "$b" "$work/$b.ports" $(set_pairs "${PARAMS[$b]:-}") ${DEFS[$b]:-}; then
    echo "$b: yosys misread it (above): the netlist is not the design"
    status=1
    continue
  fi
  if [[ $flow == proc ]]; then
    printf '%-16s read and checked, not synthesised (%ss)\n' "$b" $((SECONDS - start))
    continue
  fi
  s=$work/$b.stat
  cells=$(awk '/design hierarchy/ {exit} /Number of cells:/ {n=$NF} END {print n+0}' "$s")
  flops=$(awk '/design hierarchy/ {exit} /\$_(S?DFF|DFFE|SDFF|ALDFF)/ {n+=$NF} END {print n+0}' "$s")
  latches=$(awk '/design hierarchy/ {exit} /LATCH/ {n+=$NF} END {print n+0}' "$s")
  mems=$(awk -v m="$MACRO" '/design hierarchy/ {exit} /Number of memories:/ {n+=$NF} /\$mem(_v2)? / {n+=$NF} index($1, m) {n+=$NF} END {print n+0}' "$s")
  printf '%-16s %8s %8s %8s %9s %5ss\n' "$b" "$cells" "$flops" "$latches" "$mems" $((SECONDS - start))
  if ((${#children[@]})); then  # the black boxes among the cells
    for c in "${children[@]}"; do
      n=$(awk -v m="$c" '/design hierarchy/ {exit} index($1, m) {n+=$NF} END {print n+0}' "$s")
      printf '%-16s   %s × %s\n' "" "$n" "$c"
    done
  fi
  if ((latches)); then
    echo "$b: $latches latches (an always_comb that does not assign every output on every path)"
    status=1
  fi
done
exit $status
