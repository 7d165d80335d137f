#!/usr/bin/env bash
# Build stu and show it at work: check the demo PTX, lower it to SASS, run directed tests
# (.sts) on the golden reference model, then cosimulate the RTL blocks against it.
set -euo pipefail
# shellcheck source-path=SCRIPTDIR source=lib/setup.sh
source "$(dirname "${BASH_SOURCE[0]}")/lib/setup.sh"

EXAMPLE_DIR=examples/demo                 # every *.ptx here is checked
LOWER_EXAMPLE=$EXAMPLE_DIR/store_tour.sm_100a.ptx  # the file that is lowered

stu_install_packages
stu_build build -DCMAKE_BUILD_TYPE=Release

if [[ ! -x build/stu ]]; then
  echo "demo: build/stu was not built (tools/ has no sources yet)" >&2
  exit 1
fi

shopt -s nullglob
examples=("$EXAMPLE_DIR"/*.ptx)
shopt -u nullglob
if ((${#examples[@]} == 0)); then
  echo "demo: no $EXAMPLE_DIR/*.ptx to show" >&2
  exit 1
fi

echo "== stu check ${examples[*]}"
build/stu check "${examples[@]}"

if [[ -f "$LOWER_EXAMPLE" ]]; then
  echo
  echo "== stu lower $LOWER_EXAMPLE"
  build/stu lower "$LOWER_EXAMPLE"
fi

echo
echo "== stu check tests/cli/bad_stores.ptx   (deliberately wrong stores: exit status 1 expected)"
set +e
build/stu check tests/cli/bad_stores.ptx
status=$?
set -e
if ((status != 1)); then
  echo "demo: expected exit status 1 for bad_stores.ptx, got $status" >&2
  exit 1
fi

echo
echo "== stu run --trace examples/demo/golden_tour.sts   (one store of each form on the golden model)"
build/stu run --trace examples/demo/golden_tour.sts

shopt -s nullglob
directed=(tests/sts/*.sts)
shopt -u nullglob
if ((${#directed[@]} > 0)); then
  echo
  echo "== stu run tests/sts/*.sts   (the directed-test library: ${#directed[@]} files)"
  build/stu run "${directed[@]}"
fi

echo
echo "== stu cosim --block all --seeds 2 --txns 5000   (each RTL block against its golden function)"
build/stu cosim --block all --seeds 2 --txns 5000

# The directed library on the RTL store unit (the cache_* tests through the cache blocks too).
shopt -s nullglob
on_rtl=(tests/sts/*.sts)
shopt -u nullglob
if ((${#on_rtl[@]} > 0)) && build/stu help run | grep -q -- '--on'; then
  echo
  echo "== stu run --on rtl   (the directed library on rtl/stu_store_unit.sv: ${#on_rtl[@]} files)"
  build/stu run --on rtl -q "${on_rtl[@]}"
  echo "all ${#on_rtl[@]} passed on the RTL store unit"
fi

# The SystemC/TLM-2.0 performance model (docs/tlm.md): a bundled trace (an Accel-Sim
# kernelslist.g with a text and an xz kernel) and two built-in workloads, each ending with the
# golden-image check.
if build/stu help sim >/dev/null 2>&1; then
  echo
  echo "== stu sim --config h100 --workload tests/data/traces/app/kernelslist.g   (an Accel-Sim trace)"
  build/stu sim --config h100 --workload tests/data/traces/app/kernelslist.g
  echo
  echo "== stu sim --config h100 --workload stream --param width=16 --param warps=50000 --stats build/demo_sim.json"
  build/stu sim --config h100 --workload stream --param width=16 --param warps=50000 \
    --stats build/demo_sim.json
  echo
  echo "== stu sim --config h100 --workload dsmem_ring --mode at   (st.async ring across a cluster, mbarrier waits)"
  build/stu sim --config h100 --workload dsmem_ring --mode at
fi
