#!/usr/bin/env bash
# Runs mutation testing (scripts/mutate.py) on a Slurm cluster as a job array, a slice of the
# mutants per task, then merges the tasks' reports into one table (docs/verification.md).
#
#   scripts/slurm-mutate.sh FILES PER_TASK [OUTDIR]
#
#   FILES     RTL files, comma-separated (rtl/stu_store_unit.sv,...); their mutants are run with
#             --top (the store path's models rebuilt), as `mutate.py --list --top` lists them
#   PER_TASK  mutants a task runs (a task takes them from one file only); on a 2-core node a
#             store-path mutant takes about 100 s after the task's first build (about 25 min)
#   OUTDIR    where tasks.txt, task_<i>.tsv, task_<i>.log, table.md and merged.tsv go
#             (default: mutation-<date> in the current folder)
#
# Each task works in its own build folder, BUILD_ROOT/stu-mutation-<i> (BUILD_ROOT: the
# environment's, default ${TMPDIR:-/tmp}), from the same source tree (it must be the same
# path on every node). SBATCH_ARGS: more sbatch options (partition, time limit, and `%N` array
# throttling goes in ARRAY_LIMIT, e.g. ARRAY_LIMIT=1 runs one task at a time). Tasks that share
# a build folder must not run at once: set BUILD_ROOT per node-local disk, or ARRAY_LIMIT=1.
# MUTATE: the program a task runs in place of scripts/mutate.py (the farm test's stand-in).
# Exit status: 0 when every valid mutant was killed or explained, 1 when one survived
# unexplained or a task wrote no report, 2 on a usage or submission error.
set -euo pipefail

root=$(cd "$(dirname "${BASH_SOURCE[0]}")/.." && pwd)
if (($# < 2)); then
  sed -n '2,23p' "$0" >&2
  exit 2
fi
files=$1
per_task=$2
if ! [[ $per_task =~ ^[1-9][0-9]*$ ]]; then
  echo "slurm-mutate.sh: PER_TASK must be a positive integer (got '$per_task')" >&2
  exit 2
fi
out=${3:-mutation-$(date +%Y%m%d-%H%M%S)}
mkdir -p "$out"
out=$(realpath "$out")
command -v sbatch >/dev/null 2>&1 || { echo "slurm-mutate.sh: no sbatch on the PATH" >&2; exit 2; }

# The task table: one line per task, FILE then its mutants as --mutants takes them.
if ! python3 "$root/scripts/mutate.py" --list --top --files "$files" >"$out/mutants.txt"; then
  echo "slurm-mutate.sh: mutate.py could not list the mutants of '$files'" >&2
  exit 2
fi
awk -F: -v n="$per_task" '
  { f = $1; id = $1 ":" $2 ":" $3
    if (f != last || count == n) { if (line != "") print line; line = f " " id; count = 0 }
    else line = line "," id
    last = f; ++count }
  END { if (line != "") print line }' "$out/mutants.txt" >"$out/tasks.txt"
tasks=$(wc -l <"$out/tasks.txt")
if ((tasks == 0)); then
  echo "slurm-mutate.sh: no mutants in '$files'" >&2
  exit 2
fi
build_root=${BUILD_ROOT:-${TMPDIR:-/tmp}}
mutate=$(realpath "${MUTATE:-$root/scripts/mutate.py}")
array="0-$((tasks - 1))${ARRAY_LIMIT:+%$ARRAY_LIMIT}"
echo "slurm-mutate.sh: $(wc -l <"$out/mutants.txt") mutants in $tasks tasks, results in $out"

# Task i: line i+1 of tasks.txt. The script it runs reads everything from files, so that the
# command line stays short.
cat >"$out/task.sh" <<EOF
#!/usr/bin/env bash
set -euo pipefail
read -r file mutants < <(sed -n "\$((SLURM_ARRAY_TASK_ID + 1))p" '$out/tasks.txt')
exec '$mutate' --top --files "\$file" --mutants "\$mutants" \\
  --build-dir '$build_root/stu-mutation-'\$SLURM_ARRAY_TASK_ID \\
  --report '$out/task_'\$SLURM_ARRAY_TASK_ID.tsv
EOF
chmod +x "$out/task.sh"
# sbatch --wait returns when the whole array has ended; a task with a survivor exits 1, which
# the merge below reports: only the reports matter here.
# shellcheck disable=SC2086
sbatch --wait --parsable --job-name=stu-mutation --array="$array" \
  --output="$out/task_%a.log" ${SBATCH_ARGS:-} "$out/task.sh" || true

reports=()
missing=0
for ((i = 0; i < tasks; ++i)); do
  if [[ -s $out/task_$i.tsv ]] && (($(grep -vc '^#' "$out/task_$i.tsv") > 1)); then
    reports+=("$out/task_$i.tsv")
  else
    echo "slurm-mutate.sh: task $i wrote no result (see $out/task_$i.log)" >&2
    missing=1
  fi
done
((${#reports[@]})) || exit 1
status=0
python3 "$root/scripts/mutate.py" --merge "${reports[@]}" --markdown "$out/table.md" ||
  status=$?
((missing)) && status=1
exit "$status"
