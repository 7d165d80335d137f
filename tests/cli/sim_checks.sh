#!/usr/bin/env bash
# stu sim end to end: every built-in generator in both timing styles passes the golden-image
# check; Accel-Sim traces run (text, xz, .tracez, kernelslist.g); statistics files are written; bad
# input gets its diagnostic and exit status 2.
# Usage: sim_checks.sh STU TRACE_DIR
set -uo pipefail
stu=$1
traces=$2
fail=0
tmp=$(mktemp -d)
trap 'rm -rf "$tmp"' EXIT

expect() {  # expect STATUS PATTERN -- command...
  local want=$1 pattern=$2
  shift 3
  local out status
  out=$("$@" 2>&1)
  status=$?
  if [[ $status -ne $want ]] || ! grep -qE -- "$pattern" <<<"$out"; then
    echo "FAIL: $* -> exit $status (want $want), output:"
    echo "$out" | head -20
    fail=1
  fi
}

mapfile -t gens < <("$stu" sim --list-workloads | cut -f1)
if ((${#gens[@]} < 10)); then
  echo "FAIL: stu sim --list-workloads lists ${#gens[@]} generators"
  fail=1
fi
for g in "${gens[@]}"; do
  for m in lt at; do
    expect 0 "golden-image check: PASS" -- "$stu" sim --config h100 --workload "$g" --mode "$m" \
      --param warps=1500
  done
done

# Traces: one kernel (text, and Accel-Sim 2.0 .tracez), a kernelslist.g (a text and an xz kernel).
for m in lt at; do
  expect 0 "golden-image check: PASS" -- "$stu" sim --workload "$traces/v4_modes.traceg" --mode "$m"
  expect 0 "golden-image check: PASS" -- "$stu" sim --workload "$traces/v4_modes.tracez" --mode "$m"
  expect 0 "golden-image check: PASS" -- "$stu" sim --workload "$traces/app/kernelslist.g" --mode "$m"
done
expect 0 "passed over" -- "$stu" sim --workload "$traces/v4_modes.traceg"
# The same stores from both forms: the same statistics.
"$stu" sim --workload "$traces/v4_modes.traceg" --stats - -q | grep -v -E 'host|workload' >"$tmp/g.json"
"$stu" sim --workload "$traces/v4_modes.tracez" --stats - -q | grep -v -E 'host|workload' >"$tmp/z.json"
if ! cmp -s "$tmp/g.json" "$tmp/z.json"; then
  echo "FAIL: .tracez and .traceg of the same trace give different statistics"
  diff "$tmp/g.json" "$tmp/z.json" | head -10
  fail=1
fi
# The plan thread changes nothing: the same statistics with it on and off (a trace, AT).
for t in on off; do
  "$stu" sim --workload "$traces/app/kernelslist.g" --mode at --plan-thread $t --stats - -q |
    grep -v -E 'host|workload' >"$tmp/plan-$t.json"
done
if ! cmp -s "$tmp/plan-on.json" "$tmp/plan-off.json"; then
  echo "FAIL: --plan-thread on and off give different statistics"
  diff "$tmp/plan-on.json" "$tmp/plan-off.json" | head -10
  fail=1
fi
expect 2 "--plan-thread" -- "$stu" sim --workload stream --plan-thread maybe
# A damaged .tracez: its diagnostic, once, and exit 1 (read on the plan thread or not).
head -c 600 "$traces/v4_modes.tracez" >"$tmp/cut.tracez"
for t in on off; do
  expect 1 "^$tmp/cut.tracez: error: index offset" -- "$stu" sim --workload "$tmp/cut.tracez" \
    --plan-thread $t
  n=$("$stu" sim --workload "$tmp/cut.tracez" --plan-thread $t 2>&1 | grep -c "index offset")
  [[ $n == 1 ]] || { echo "FAIL: --plan-thread $t: the trace's error printed $n times"; fail=1; }
done

# Statistics: JSON with the Nsight names, CSV rows.
expect 0 "" -- "$stu" sim --workload stream --param warps=500 --stats "$tmp/s.json" -q
grep -q '"l1tex__t_sectors_pipe_lsu_mem_global_op_st.sum"' "$tmp/s.json" || { echo "FAIL: json"; fail=1; }
expect 0 "" -- "$stu" sim --workload bank_conflict --param warps=100 --stats "$tmp/s.csv" -q
grep -q '^l1tex__data_bank_conflicts_pipe_lsu_mem_shared_op_st.sum,3100$' "$tmp/s.csv" || {
  echo "FAIL: csv bank conflicts (100 warps x 31 extra wavefronts at stride 128)"
  grep bank_conflicts "$tmp/s.csv"
  fail=1
}

# Bad input.
expect 2 "unknown workload 'nope'" -- "$stu" sim --workload nope
expect 2 "unknown preset 'h999'" -- "$stu" sim --config h999
echo '{"preset": "h100", "l2": {"slices": 0}}' >"$tmp/bad.json"
expect 2 "l2.slices: must be in 1..128, got 0" -- "$stu" sim --config "$tmp/bad.json"
expect 2 "cannot read" -- "$stu" sim --workload "$tmp/missing.traceg"
expect 2 "unknown key 'bogus'" -- "$stu" sim --param bogus=1
expect 1 "error" -- "$stu" sim --workload "$traces/bad_addr.traceg"
# The model and the golden reference read the same trace: its error is reported once, located.
n=$("$stu" sim --workload "$traces/bad_addr.traceg" -q 2>&1 | grep -c "bad address")
if [[ $n -ne 1 ]]; then
  echo "FAIL: a trace error reported $n times (want once)"
  fail=1
fi
expect 1 "^$traces/bad_addr.traceg:7: error: bad address '0x10g0'" -- "$stu" sim --workload "$traces/bad_addr.traceg" -q

exit $fail
