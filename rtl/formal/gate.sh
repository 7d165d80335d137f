#!/usr/bin/env bash
# Gate-level cosimulation: a block's yosys netlist must pass the block's own regression.
#
# yosys 0.23 synthesises each block below (`synth`, flattened, generic cells) and writes the
# netlist as Verilog; scripts/mutate.py then builds the block's model from the netlist in place
# of the RTL (a "mutant" that replaces the whole file, in build-mutation/) and runs the block's
# regression: its cosimulation seeds (tests/regress/mutation.txt) against the golden model and
# its directed tests. A netlist that passes shows yosys read and synthesised the block as
# Verilator reads it, which the port-width check (synth.sh) only shows for the ports.
#
#   rtl/formal/gate.sh [BLOCK...]   (default: the blocks below; exit 1 when a netlist fails)
#   rtl/formal/gate.sh --broken     a wrong store_align's netlist must fail (exit 0 when it does)
#
# Only blocks the regression runs at their default parameters qualify (a netlist has no
# parameters: a block whose models or parents set other parameters cannot take it). Exit 77
# without yosys. The first run configures and builds build-mutation/ (about 20 minutes).
set -euo pipefail
cd "$(dirname "$0")/../.."
command -v yosys >/dev/null 2>&1 || { echo "gate: yosys not found: skipped"; exit 77; }
. rtl/formal/yosys_src.sh

# The default blocks; coalescer (about 20 minutes: its 208,000-cell netlist builds in 12 and
# runs its regression at 3 k line requests/s) only when named (CTest gate_coalescer).
ALL=(store_align addr_resolve mbarrier sector_mask)
# --broken: the netlist of a wrong store_align (its forced-down flag inverted: a mutant the
# regression kills) must fail; exit 0 when it does.
broken=0
if [[ ${1:-} == --broken ]]; then
  broken=1
  shift
  set -- store_align
fi
blocks=("$@")
((${#blocks[@]})) || blocks=("${ALL[@]}")

work=$(mktemp -d)
trap 'rm -rf "$work"' EXIT
yosys_src "$work/src"
if ((broken)); then
  sed -i 's/forced_d = misaligned \&\& mode_i == MisalignForceAlign;/forced_d = misaligned \&\& mode_i != MisalignForceAlign;/' \
    "$work/src/stu_store_align.sv"
  grep -q 'forced_d = misaligned && mode_i != MisalignForceAlign;' "$work/src/stu_store_align.sv" ||
    { echo "gate --broken: the line to break is not in stu_store_align.sv"; exit 1; }
fi
status=0
for b in "${blocks[@]}"; do
  net=$work/stu_$b.netlist.sv
  files=$(yosys_files "$work/src" "$b" | awk '!seen[$0]++' | tr '\n' ' ')
  if ! yosys -q -l "$work/$b.log" -p "read_verilog -sv -DSYNTHESIS -I$work/src $files; hierarchy -top stu_$b; synth -flatten -top stu_$b; write_verilog -noattr $work/$b.v" >/dev/null 2>&1; then
    echo "$b: yosys failed"
    grep -m3 ERROR "$work/$b.log" || true
    status=1
    continue
  fi
  # The netlist's own unused and undriven bits are not the design's lint findings.
  {
    echo "/* verilator lint_off UNUSEDSIGNAL */"
    echo "/* verilator lint_off UNDRIVEN */"
    echo "/* verilator lint_off DECLFILENAME */"
    echo "/* verilator lint_off UNOPTFLAT */"
    cat "$work/$b.v"
  } >"$net"
  stmts=$(grep -c '^  assign\|^  always' "$work/$b.v" || true)
  report=$work/$b.tsv
  # (mutate.py exits 1 when its "mutant" survives: here, when the netlist passes.)
  python3 scripts/mutate.py --files "stu_$b.sv" --replace "stu_$b.sv=$net" --report "$report" \
    >"$work/$b.mutate.log" 2>&1 || true
  if grep -q $'\tsurvived\t' "$report" 2>/dev/null; then
    echo "$b: the netlist ($stmts assignments and processes) passes the block's regression"
  else
    echo "$b: the netlist FAILS the block's regression (or does not build):"
    grep -v '^#' "$report" 2>/dev/null | tail -1 || true
    tail -5 "$work/$b.mutate.log"
    status=1
  fi
done
if ((broken)); then
  ((status)) && { echo "gate --broken: the wrong netlist fails, as it should"; exit 0; }
  echo "gate --broken: the wrong netlist passed: the check does not check"
  exit 1
fi
exit $status
