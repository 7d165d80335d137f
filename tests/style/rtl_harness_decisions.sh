#!/usr/bin/env bash
# The RTL store path decides every run-time value itself: its `.sts` harness
# (tb/store_unit/rtl_model.cpp) is the front end and the memory side only. This fails when the
# harness calls one of the golden model's decision functions (or its executor, or a helper that
# wraps one), so that a comparison of the RTL with the golden model never checks the golden
# model against itself.
set -u
root=$(cd "$(dirname "$0")/../.." && pwd)
file="$root/tb/store_unit/rtl_model.cpp"
[[ -f $file ]] || { echo "missing $file"; exit 2; }
# Calls (a name followed by its argument list), as extended regular expressions.
forbidden=(
  'decode_policy\(' 'policy_traps\(' 'l2_store_action\(' 'l2_store_class\(' 'l1_store_action\('
  'pack_l1_req\(' 'sass_address\(' 'space_violations\(' 'ordering_of\(' 'lane_group\('
  'LaneGroup' '[^_a-z]coalesce\(' '[^_a-z]tmem_write\(' 'tmem_cells\([^)]' 'mbar_step\('
  'golden::plan' 'golden::execute' 'golden::plan_sass' 'golden::commit' 'MemoryHierarchy'
  'SectoredCache' 'WriteBuffer' '[^_a-z]store_align\(' 'align_access\(' 'resolve_generic\('
  'resolve_space\(' 'check_store\(' 'TmemAllocator::'
)
bad=0
for f in "${forbidden[@]}"; do
  # Code only: comments may name what the RTL replaces.
  hits=$(sed 's|//.*$||' "$file" | grep -n -E -- "$f" || true)
  if [[ -n $hits ]]; then
    echo "tb/store_unit/rtl_model.cpp calls a golden decision ($f):"
    echo "$hits" | sed 's/^/  /'
    bad=1
  fi
done
((bad == 0)) && echo "rtl_model.cpp: no golden decision function called"
exit $bad
