#!/usr/bin/env bash
# Runs a cosimulation regression list on a Slurm cluster as a job array, one shard per task,
# then merges the shards' JUnit reports (docs/verification.md).
#
#   scripts/slurm-regress.sh LIST SHARDS [OUTDIR]
#
#   LIST     a regression list: smoke, nightly (tests/regress/NAME.txt) or a file
#   SHARDS   array tasks; task i runs `stu cosim --regression LIST --shard i/SHARDS`
#   OUTDIR   where shard_<i>.xml, shard_<i>.log, failing runs' waveforms and merged.xml go
#            (default: regress-<list>-<date> in the current folder)
#
# Environment: STU (the stu binary, default build/stu; every node must reach it and the list),
# SBATCH_ARGS (more sbatch options: partition, account, time limit...), SLURM_CONF as usual.
# Exit status: 0 when every case passed, 1 when a case failed or a shard wrote no report, 2 on
# a usage or submission error.
set -euo pipefail

root=$(cd "$(dirname "${BASH_SOURCE[0]}")/.." && pwd)
if (($# < 2)); then
  sed -n '2,16p' "$0" >&2
  exit 2
fi
list=$1
shards=$2
[[ -f $list ]] || list=$root/tests/regress/$1.txt
if [[ ! -f $list ]]; then
  echo "slurm-regress.sh: no regression list '$1' (tests/regress/*.txt or a file)" >&2
  exit 2
fi
if ! [[ $shards =~ ^[1-9][0-9]*$ ]]; then
  echo "slurm-regress.sh: SHARDS must be a positive integer (got '$shards')" >&2
  exit 2
fi
stu=$(realpath "${STU:-$root/build/stu}")
list=$(realpath "$list")
name=$(basename "$list" .txt)
out=${3:-regress-$name-$(date +%Y%m%d-%H%M%S)}
mkdir -p "$out"
out=$(realpath "$out")
command -v sbatch >/dev/null 2>&1 || { echo "slurm-regress.sh: no sbatch on the PATH" >&2; exit 2; }

echo "slurm-regress.sh: $name in $shards shards, results in $out"
# sbatch --wait returns when the whole array has ended, with its highest exit status: a shard
# with a failing case exits 1, which the merge below reports; only the reports matter here.
# shellcheck disable=SC2086
sbatch --wait --parsable --job-name="stu-$name" --array="0-$((shards - 1))" \
  --output="$out/shard_%a.log" ${SBATCH_ARGS:-} \
  --wrap="'$stu' cosim -q --regression '$list' --shard \$SLURM_ARRAY_TASK_ID/$shards --junit '$out/shard_'\$SLURM_ARRAY_TASK_ID.xml --wave-dir '$out'" ||
  true

reports=()
missing=0
for ((i = 0; i < shards; ++i)); do
  if [[ -s $out/shard_$i.xml ]]; then
    reports+=("$out/shard_$i.xml")
  else
    echo "slurm-regress.sh: shard $i wrote no report (see $out/shard_$i.log)" >&2
    missing=1
  fi
done
((${#reports[@]})) || exit 1
status=0
"$stu" cosim --merge "${reports[@]}" --junit "$out/merged.xml" || status=$?
((missing)) && status=1
exit "$status"
