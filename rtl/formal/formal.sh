#!/usr/bin/env bash
# Formal proofs of the small RTL blocks with Debian's yosys (0.23): every ASSERT of a block is
# proved by k-induction (`sat -tempinduct`), its ASSUMEs constraining the inputs; the base case
# starts in reset (rst_ni low in step 1). docs/verification.md lists the properties and results.
#
#   rtl/formal/formal.sh [BLOCK...]   prove the blocks (default: all below); exit 1 if one fails
#   rtl/formal/formal.sh --wrong      store_align with a deliberately wrong property
#                                     (STU_FORMAL_WRONG): exit 0 when yosys finds its
#                                     counterexample (printed), 1 when it wrongly proves it
# Exit 77 (CTest's skip) when yosys is not on the PATH. Run from anywhere.
set -euo pipefail
cd "$(dirname "$0")/../.."
command -v yosys >/dev/null 2>&1 || { echo "formal: yosys not found: skipped"; exit 77; }
. rtl/formal/yosys_src.sh

ALL=(store_align mbarrier addr_resolve cache_way_select policy_decode sector_mask coalescer_order)
# Purely combinational blocks: one SAT proof over every input (no reset, no induction), at the
# parameters given (the properties are stated for any geometry; the proof is of this one), with
# the defines the block needs to be read (COMB_DEFS).
declare -A COMB=([cache_way_select]="-set Sets 4 -set Ways 4 -set StampBits 4" [policy_decode]="" [sector_mask]="")
declare -A COMB_DEFS=([cache_way_select]="STU_PACKED_PORTS")
# Parameters of a sequential block's proof other than its defaults (again, the properties are
# stated for any; the proof is of this geometry): the coalescer's ordering with all 32 lanes and
# 8-bit keys (equal keys, all-ones keys and every order of them are in reach; the comparators
# are the same at any width, and 12-bit keys on 16 lanes do not finish in 150 s).
declare -A SEQ_PARAMS=([coalescer_order]="-set Lanes 32 -set KeyBits 8")
# The modules a block instantiates, read with it (and flattened into it). `formal.sh coalescer`
# tries the coalescer's own properties, which are not in ALL: the proof does not close and
# exhausts a 23 GB machine (docs/verification.md).
declare -A SUBMODULES=([coalescer]="stu_coalescer_order")
# Properties left out of a block's induction: OPEN ones are not checked here; BMC_ONLY ones are
# checked by bounded model checking from reset to BMC_DEPTH steps instead. (None today.)
declare -A OPEN=()
declare -A BMC_ONLY=()
BMC_DEPTH=${STU_FORMAL_BMC_DEPTH:-12}
MAXSTEPS=${STU_FORMAL_MAXSTEPS:-25}
TIMEOUT=${STU_FORMAL_TIMEOUT:-300}

work=$(mktemp -d)
trap 'rm -rf "$work"' EXIT
yosys_src "$work/src"

# prove BLOCK [DEFINE...]: prints the verdict; returns 0 proved, 1 failed, 2 error/timeout.
prove_comb() {
  local block=$1 top=stu_$1 log="$work/$1.log" defs="" d t0=$SECONDS rc=0
  for d in ${COMB_DEFS[$block]:-}; do defs+=" -D$d"; done
  timeout "$TIMEOUT" nice -n 10 yosys -q -l "$log" -p "
    read_verilog -sv -formal $defs -I$work/src $work/src/$top.sv
    ${COMB[$block]:+chparam ${COMB[$block]} $top}
    hierarchy -top $top ; tee -q -o $work/$block.ports portlist $top
    prep -top $top
    sat -prove-asserts -set-assumes -verify -show-inputs -show-outputs" >/dev/null 2>&1 || rc=$?
  local secs=$((SECONDS - t0))
  # shellcheck disable=SC2046
  if ! yosys_warnings "$log" ||
      ! ports_match "$work/src" "$block" "$work/$block.ports" $(set_pairs "${COMB[$block]:-}") $defs; then
    echo "$block: ERROR: yosys misread it (above): the proof would not be of the design"
    return 2
  fi
  if ((rc == 0)) && grep -q 'SAT proof finished - no model found: SUCCESS' "$log"; then
    echo "$block: PROVED for every input (combinational; ${COMB[$block]:-no parameters}; ${secs} s)"
    return 0
  elif grep -q 'model found: FAIL' "$log"; then
    echo "$block: FAILED: inputs that break a property (${secs} s):"
    grep -E '^ +\\' "$log" | tr -s ' ' | sed 's/^/  /' | head -40
    return 1
  fi
  echo "$block: ERROR or timeout (rc $rc, ${secs} s); log:"
  tail -20 "$log" | sed 's/^/  /'
  return 2
}

prove() {
  local block=$1 top=stu_$1 log="$work/$1.log"
  shift
  if [[ -v COMB[$block] ]]; then
    prove_comb "$block"
    return
  fi
  local defs="" d
  for d in "$@"; do defs+=" -D$d"; done
  local top_file="$work/src/$top.sv" drop="" p f
  for f in ${SUBMODULES[$block]:-}; do top_file+=" $work/src/$f.sv"; done
  for p in ${OPEN[$block]:-} ${BMC_ONLY[$block]:-}; do drop+=" t:\$assert n:$p %i"; done
  [[ -n $drop ]] && drop="chformal -assert -remove$drop ;"
  local t0=$SECONDS rc=0
  # Outputs lose their port flag so that only the logic the properties read is kept (the
  # datapaths the assertions do not look at drop out of the SAT problem).
  timeout "$TIMEOUT" nice -n 10 yosys -q -l "$log" -p "
    read_verilog -sv -formal $defs -I$work/src $top_file
    ${SEQ_PARAMS[$block]:+chparam ${SEQ_PARAMS[$block]} $top}
    hierarchy -top $top ; tee -q -o $work/$block.ports portlist $top
    prep -flatten -top $top ; delete -output o:* ; $drop opt_clean
    async2sync ; dffunmap
    sat -tempinduct -tempinduct-def -prove-asserts -set-assumes -set-def-inputs -set-init-undef -seq 1 -set-at 1 rst_ni 0 -maxsteps $MAXSTEPS -verify -show-inputs -show-outputs" \
    >/dev/null 2>&1 || rc=$?
  local secs=$((SECONDS - t0)) depth
  depth=$(grep -c '^\*\* Trying induction with length' "$log" || true)
  # shellcheck disable=SC2046
  if ! yosys_warnings "$log" ||
      ! ports_match "$work/src" "$block" "$work/$block.ports" $(set_pairs "${SEQ_PARAMS[$block]:-}"); then
    echo "$block: ERROR: yosys misread it (above): the proof would not be of the design"
    return 2
  fi
  if ((rc == 0)) && grep -q 'Induction step proven: SUCCESS' "$log"; then
    echo "$block: PROVED by induction at depth $depth (${secs} s)"
    return 0
  elif grep -q 'model found for base case: FAIL' "$log"; then
    echo "$block: FAILED: counterexample of $depth steps from reset (${secs} s):"
    sed -n '/model found for base case/,/^End of script/p' "$log" |
      grep -E '^ +([0-9]+|init) |Time|----' | grep -v '\$' | sed 's/^/  /'
    grep -E 'Assert(ion)? .*failed|failed.*assert' "$log" | sed 's/^/  /' || true
    return 1
  else
    echo "$block: ERROR or timeout (rc $rc, ${secs} s); log:"
    tail -20 "$log" | sed 's/^/  /'
    return 2
  fi
}

# bmc BLOCK PROPERTY: bounded model check of one property from reset.
bmc() {
  local block=$1 top=stu_$1 prop=$2 log="$work/$1.$2.log" t0=$SECONDS rc=0
  timeout "$TIMEOUT" nice -n 10 yosys -q -l "$log" -p "
    read_verilog -sv -formal -I$work/src $work/src/$top.sv
    prep -top $top ; delete -output o:* ; chformal -assert -remove t:\$assert n:$prop %d ; opt_clean
    async2sync ; dffunmap
    sat -prove-asserts -set-assumes -set-def-inputs -set-init-undef -seq $BMC_DEPTH -set-at 1 rst_ni 0 -verify -show-inputs -show-outputs" >/dev/null 2>&1 || rc=$?
  local secs=$((SECONDS - t0))
  if ((rc == 0)); then
    echo "$block/$prop: no counterexample in $BMC_DEPTH steps from reset (BMC; ${secs} s)"
  else
    echo "$block/$prop: FAILED or timeout (BMC depth $BMC_DEPTH, rc $rc, ${secs} s); log tail:"
    tail -40 "$log" | sed 's/^/  /'
    return 1
  fi
}

if [[ ${1:-} == --wrong ]]; then
  if prove store_align STU_FORMAL_WRONG; then
    echo "formal --wrong: the wrong property was proved: the prover is not checking"
    exit 1
  fi
  echo "formal --wrong: the wrong property fails with its counterexample, as it should"
  exit 0
fi

blocks=("$@")
((${#blocks[@]})) || blocks=("${ALL[@]}")
fail=0
for b in "${blocks[@]}"; do
  prove "$b" || fail=1
  for p in ${BMC_ONLY[$b]:-}; do bmc "$b" "$p" || fail=1; done
done
exit $fail
