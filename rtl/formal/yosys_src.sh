# shellcheck shell=bash
# Sourced by rtl/formal/formal.sh and rtl/formal/synth.sh: yosys_src DIR copies the RTL into DIR
# in the form yosys 0.23 reads. Yosys rejects a module's `import stu_pkg::*;`, so the copy of
# stu_pkg.svh loses its `package stu_pkg;` / `endpackage` lines (its declarations become global
# to the compilation unit) and the blocks lose their import line; nothing else changes (the line
# numbers in yosys's messages are the source's).
yosys_src() {
  local dir=$1 f
  mkdir -p "$dir"
  sed -e 's/^package stu_pkg;$//' -e 's/^endpackage$//' rtl/stu_pkg.svh >"$dir/stu_pkg.svh"
  cp rtl/stu_assert.svh rtl/stu_cache_flat.svh "$dir/"
  for f in rtl/stu_*.sv; do
    sed -e 's/^\( *\)import stu_pkg::\*;$//' "$f" >"$dir/${f##*/}"
  done
}

# yosys_files DIR BLOCK: the block's file in DIR and the files of the modules it instantiates,
# children first (yosys reads them in that order).
yosys_files() {
  local dir=$1 m=stu_$2 c
  for c in $(grep -oE '^\s*stu_[a-z0-9_]+\s+(#|u_)' "$dir/$m.sv" | grep -oE 'stu_[a-z0-9_]+' | sort -u); do
    yosys_files "$dir" "${c#stu_}"
  done
  echo "$dir/$m.sv"
}

# yosys_warnings LOG: prints the front-end warnings of a yosys log that may mean a misread design
# and returns 1 when there are any. yosys 0.23 reads some SystemVerilog silently wrong (a packed
# array of an enum, struct or typedef element loses its array dimension and says only "Range
# select out of bounds"), so every warning counts but those known to be harmless: a small
# array turned into registers.
yosys_warnings() {
  local bad
  bad=$(grep -E '^Warning:|: Warning:' "$1" | grep -vE 'Replacing memory .* with list of registers' | sort -u || true)
  [[ -z $bad ]] && return 0
  echo "$bad" | head -5
  return 1
}

# ports_match DIR BLOCK PORTS [NAME=VALUE|-DDEFINE...]: compares the port widths yosys read
# (PORTS, the output of its `portlist`) with the widths Verilator elaborates for the same block,
# parameters and defines, from the RTL in DIR; prints the ports that differ and returns 1 if any. yosys 0.23
# drops an array dimension without a word in some cases (an enum-typed packed array indexed by
# a variable), so a port that narrows is the one sign left.
ports_match() {
  local dir=$1 top=stu_$2 ports=$3 gs="" p
  shift 3
  for p in "$@"; do [[ $p == -D* ]] && gs+=" $p" || gs+=" -G$p"; done
  local mdir
  mdir=$(mktemp -d)
  # shellcheck disable=SC2086
  if ! verilator --cc -Wno-fatal -Wno-lint -Wno-style -Mdir "$mdir" -y "$dir" -I"$dir" \
      --top-module "$top" $gs "$dir/$top.sv" >"$mdir/log" 2>&1; then
    echo "ports_match: verilator failed on $top:"
    tail -3 "$mdir/log"
    rm -rf "$mdir"
    return 1
  fi
  python3 - "$mdir/V$top.h" "$ports" <<'PY'
import re, sys
want = {m.group(2): int(m.group(3)) - int(m.group(4)) + 1
        for m in re.finditer(r"VL_(IN|OUT)\w*\(&(\w+),(\d+),(\d+)", open(sys.argv[1]).read())}
got = {}
for line in open(sys.argv[2]):
    m = re.match(r"^(input|output|inout) \[(\d+):(\d+)\] (\S+)", line)
    if m:
        got[m.group(4)] = int(m.group(2)) - int(m.group(3)) + 1
bad = sorted(n for n in set(want) | set(got) if want.get(n) != got.get(n))
for n in bad:
    print("port %s: %s bits in yosys, %s in Verilator" % (n, got.get(n, "no"), want.get(n, "no")))
sys.exit(1 if bad else 0)
PY
  local rc=$?
  rm -rf "$mdir"
  return $rc
}

# set_pairs "-set A 1 -set B 2": A=1 B=2 (yosys chparam arguments as ports_match takes them).
set_pairs() {
  local -a w
  read -r -a w <<<"$1"
  local i out=""
  for ((i = 0; i + 2 < ${#w[@]} + 0 || i + 2 == ${#w[@]}; i += 3)); do
    [[ ${w[i]:-} == -set ]] && out+=" ${w[i+1]}=${w[i+2]}"
  done
  echo "$out"
}
