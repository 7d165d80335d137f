#!/usr/bin/env bash
# CTest `farm_slurm` (label farm, not in the default suite; scripts/test.sh --farm): a single-node
# Slurm cluster on this machine (scripts/farm/local-slurm.sh), then scripts/slurm-regress.sh
# on a regression list in 3 shards. Checks that the merged JUnit holds exactly the cases of the
# same list run whole, in one process, with the same verdicts, and that a failing case fails
# the regression; then scripts/slurm-mutate.sh (tasks of a file's mutants, one merged table,
# a survivor failing the run) with a stand-in for mutate.py's builds. Skips (77) without root
# or Slurm.
#
#   run_farm_test.sh STU SOURCE_DIR
set -uo pipefail
stu=$1
root=$2
if [[ $(id -u) -ne 0 ]] || ! command -v slurmctld >/dev/null 2>&1 || ! command -v munged >/dev/null 2>&1; then
  echo "farm test: skipped (needs root, slurm-wlm and munge: scripts/test.sh --farm installs them)"
  exit 77
fi
tmp=$(mktemp -d)
cluster=$tmp/cluster
trap '"$root/scripts/farm/local-slurm.sh" stop "$cluster"; rm -rf "$tmp"' EXIT
if ! line=$("$root/scripts/farm/local-slurm.sh" start "$cluster"); then
  echo "FAIL: the local cluster did not start"
  exit 1
fi
eval "$line"
fail=0
cases() {  # the case names and verdicts of a JUnit report, sorted
  grep -o '<testcase[^>]*name="[^"]*"\(/>\|>\)' "$1" | sed 's/ time="[^"]*"//; s/^.*name="\([^"]*\)"\(.*\)$/\1 \2/' | sort
}

# 1. The smoke list: every case passes, and the shards hold the whole list's cases.
STU=$stu "$root/scripts/slurm-regress.sh" smoke 3 "$tmp/smoke" > "$tmp/smoke.out" 2>&1
status=$?
"$stu" cosim -q --regression "$root/tests/regress/smoke.txt" --junit "$tmp/whole.xml" > /dev/null 2>&1
if [[ $status -ne 0 ]] || ! diff <(cases "$tmp/smoke/merged.xml") <(cases "$tmp/whole.xml"); then
  echo "FAIL: smoke on the cluster (status $status) differs from the whole run:"
  sed 's/^/  | /' "$tmp/smoke.out"
  fail=1
else
  echo "ok: smoke in 3 shards on Slurm: $(grep -c '<testcase' "$tmp/smoke/merged.xml") cases, as the whole run"
fi

# 2. A list with a failing case: the regression fails, the merged report names it.
printf 'mbarrier seeds=2 txns=300\ncoalescer variant=broken seeds=1 first=7 txns=50\n' > "$tmp/bad.txt"
STU=$stu "$root/scripts/slurm-regress.sh" "$tmp/bad.txt" 2 "$tmp/bad" > "$tmp/bad.out" 2>&1
status=$?
if [[ $status -ne 1 ]] || ! grep -q "FAILED coalescer:broken seed 7" "$tmp/bad.out" ||
   [[ $(grep -c '<failure' "$tmp/bad/merged.xml") != 1 ]] || ! ls "$tmp"/bad/cosim_coalescer_broken_seed7.fst >/dev/null 2>&1; then
  echo "FAIL: a failing case on the cluster (status $status):"
  sed 's/^/  | /' "$tmp/bad.out"
  fail=1
else
  echo "ok: a failing case fails the regression (exit 1), with its waveform"
fi
# 3. Mutation on the farm: scripts/slurm-mutate.sh splits a file's mutants into tasks of 4 and
# merges the tasks' reports; tests/farm/mutate_stub.sh stands in for mutate.py's builds (a real
# task rebuilds the store path for each mutant: minutes). Every mutant lands in the table once;
# a survivor makes the run exit 1 and the merge name it.
file=rtl/stu_sector_mask.sv
n=$(python3 "$root/scripts/mutate.py" --list --files $file | wc -l)
MUTATE=$root/tests/farm/mutate_stub.sh BUILD_ROOT=$tmp/builds "$root/scripts/slurm-mutate.sh" \
  $file 4 "$tmp/mut" > "$tmp/mut.out" 2>&1
status=$?
tasks=$(( (n + 3) / 4 ))
if [[ $status -ne 0 ]] || [[ $(wc -l < "$tmp/mut/tasks.txt") != "$tasks" ]] ||
   ! grep -q "| \`stu_sector_mask.sv\` | $n | 0 | $n | 0 | 0 | 100 % |" "$tmp/mut/table.md"; then
  echo "FAIL: mutation of $file on the cluster (status $status, $n mutants in $tasks tasks):"
  sed 's/^/  | /' "$tmp/mut.out" "$tmp/mut/table.md" 2>/dev/null
  fail=1
else
  echo "ok: mutation on Slurm: $n mutants in $tasks tasks, one table"
fi
survivor=""  # a mutant the equivalents file does not explain
for m in $(python3 "$root/scripts/mutate.py" --list --files $file | cut -d: -f1-3); do
  grep -q "^${m#rtl/} " "$root/tests/regress/mutation-equivalent.txt" || { survivor=$m; break; }
done
STUB_SURVIVOR=${survivor#rtl/} MUTATE=$root/tests/farm/mutate_stub.sh BUILD_ROOT=$tmp/builds \
  "$root/scripts/slurm-mutate.sh" $file 4 "$tmp/mut2" > "$tmp/mut2.out" 2>&1
status=$?
if [[ $status -ne 1 ]] || ! grep -q "${survivor#rtl/}" "$tmp/mut2.out"; then
  echo "FAIL: a surviving mutant on the cluster (status $status, survivor $survivor):"
  sed 's/^/  | /' "$tmp/mut2.out"
  fail=1
else
  echo "ok: a surviving mutant fails the run (exit 1) and is named"
fi
exit $fail
