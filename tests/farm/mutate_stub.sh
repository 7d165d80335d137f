#!/usr/bin/env bash
# Stand-in for scripts/mutate.py in the farm test (run_farm_test.sh): takes a task's arguments
# (--top --files F --mutants F:L:C,... --build-dir D --report R) and, instead of building and
# running each mutant, writes the report rows mutate.py would: every mutant "killed", except
# the one named in STUB_SURVIVOR (F:L:C), "survived". The mutants' operators and texts come
# from the real mutate.py --list, so the merge sees the rows of real mutants.
set -euo pipefail
root=$(cd "$(dirname "${BASH_SOURCE[0]}")/../.." && pwd)
files="" mutants="" report=""
while (($#)); do
  case $1 in
    --files) files=$2; shift ;;
    --mutants) mutants=$2; shift ;;
    --report) report=$2; shift ;;
    --build-dir) mkdir -p "$2"; shift ;;
  esac
  shift
done
[[ -n $files && -n $mutants && -n $report ]] || { echo "mutate_stub: missing arguments" >&2; exit 2; }
printf '# stu mutation report, seed 0\nfile\tline\tcol\top\tstatus\tseconds\toriginal\tmutant\n' >"$report"
python3 "$root/scripts/mutate.py" --list --files "$files" |
  awk -v want="$mutants" -v survivor="${STUB_SURVIVOR:-}" '
    BEGIN { n = split(want, w, ","); for (i = 1; i <= n; ++i) { sub(/^rtl\//, "", w[i]); pick[w[i]] = 1 } }
    { split($0, f, ":"); file = f[1]; sub(/^rtl\//, "", file); id = file ":" f[2] ":" f[3]
      if (!(id in pick)) next
      op = f[4]; sub(/^ /, "", op)
      text = $0; sub(/^[^:]*:[^:]*:[^:]*: [^:]*: /, "", text)
      status = (id == survivor) ? "survived" : "killed"
      printf "rtl/%s\t%s\t%s\t%s\t%s\t0\t-\t%s\n", file, f[2], f[3], op, status, text }' >>"$report"
echo "mutate_stub: $(($(wc -l <"$report") - 2)) rows in $report"
[[ -z ${STUB_SURVIVOR:-} ]] || ! grep -q survived "$report"
