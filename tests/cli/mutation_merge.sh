#!/usr/bin/env bash
# scripts/mutate.py --merge: the table from two reports (the later report's row for a mutant
# wins) with a survivor explained as equivalent, against a hand-checked table
# (tests/data/mutation/merge.expected: a.sv 1 killed, 1 invalid, 1 equivalent; b.sv 9:2
# killed by the second report, 12:4 survived; 2 of the 3 others killed); exit 1 for the
# unexplained survivor; bad input is an error with its line and exit 2; --renumber's line map;
# the recorded runs have no unexplained survivor and no unrun mutant.
#   tests/cli/mutation_merge.sh PYTHON
set -u
py=${1:?usage: mutation_merge.sh PYTHON}
root=$(cd "$(dirname "$0")/../.." && pwd)
data=$root/tests/data/mutation
tmp=$(mktemp -d)
trap 'rm -rf "$tmp"' EXIT
status=0
cd "$data"
"$py" "$root/scripts/mutate.py" --merge report_a.tsv report_b.tsv --equivalent equivalent.txt \
  >"$tmp/out"
rc=$?
if [[ $rc != 1 ]]; then echo "FAIL: exit $rc, expected 1 (an unexplained survivor)"; status=1; fi
if ! diff -u merge.expected "$tmp/out"; then echo "FAIL: the merged table differs"; status=1; fi
# expect_usage_error WHAT MESSAGE ARGS...: mutate.py ARGS exits 2 and says MESSAGE on stderr.
expect_usage_error() {
  local what=$1 message=$2 rc
  shift 2
  "$py" "$root/scripts/mutate.py" "$@" >/dev/null 2>"$tmp/err"
  rc=$?
  if [[ $rc != 2 ]] || ! grep -qF "$message" "$tmp/err"; then
    echo "FAIL: $what: exit $rc, $(cat "$tmp/err")"
    status=1
  fi
}
printf 'a.sv:4 rel no column\n' >"$tmp/eq.txt"
expect_usage_error "a bad equivalents line" "eq.txt:1: expected 'FILE.sv:LINE:COL OP REASON'" \
  --merge report_a.tsv --equivalent "$tmp/eq.txt"
printf 'a.sv\t1\n' >"$tmp/bad.tsv"
expect_usage_error "a bad report row" "bad.tsv:1: not a mutation report row" \
  --merge "$tmp/bad.tsv" --equivalent equivalent.txt
# A file whose every row went stale (its lines changed since) is still the reports' file: its
# mutants are listed as in no report and the merge fails (exit 1), not left out of the table.
printf '# stu mutation report, seed 1\nfile\tline\tcol\top\tstatus\tseconds\toriginal\tmutant\n' \
  >"$tmp/stale.tsv"
printf 'rtl/stu_sector_mask.sv\t1\t1\tconst\tkilled\t1\tno such line\tnor this one\n' >>"$tmp/stale.tsv"
"$py" "$root/scripts/mutate.py" --merge "$tmp/stale.tsv" --equivalent equivalent.txt >"$tmp/stale.out" 2>&1
rc=$?
if [[ $rc != 1 ]] || ! grep -q "mutants of these files are in no report" "$tmp/stale.out" ||
   ! grep -q "stu_sector_mask.sv:" "$tmp/stale.out"; then
  echo "FAIL: a file whose rows all went stale: exit $rc, $(head -3 "$tmp/stale.out")"
  status=1
fi
# --mutants that names no mutant of the files run, or a file not run, is an error (exit 2), not
# an empty run; a named mutant is listed, with or without rtl/ before its file.
expect_usage_error "--mutants of no mutant" "no mutant at stu_coalescer.sv:1:1" \
  --list --files stu_coalescer.sv --mutants stu_coalescer.sv:1:1
expect_usage_error "--mutants of a file not run" "names stu_mbarrier.sv, not among the files run" \
  --list --files stu_coalescer.sv --mutants stu_mbarrier.sv:40:1
"$py" "$root/scripts/mutate.py" --list --files stu_coalescer.sv >"$tmp/list"
one=$(head -1 "$tmp/list" | cut -d: -f1-3)
if [[ $("$py" "$root/scripts/mutate.py" --list --files stu_coalescer.sv --mutants "$one" |
  cut -d: -f1-3) != "$one" ]]; then
  echo "FAIL: --mutants $one does not list that mutant alone"
  status=1
fi
# --renumber's line map: a line inserted after line 1 and line 3 changed; lines 1, 2 and 4 keep
# their text and move to 1, 3 and 4 (line 3 has no new number: its rows go stale).
got=$(cd "$root/scripts" && "$py" -c "import mutate; print(sorted(mutate.line_map_texts('a\nb\nc\nd', 'a\nx\nb\nC\nd').items()))")
if [[ $got != "[(1, 1), (2, 3), (4, 5)]" ]]; then
  echo "FAIL: --renumber's line map: $got"
  status=1
fi
# The recorded runs (tests/data/mutation/runs/) with the checked-in equivalents: every survivor
# is explained and every mutant of the files in them has a row (exit 0), so a stale or removed
# explanation, or an RTL edit whose mutants were not run, fails here.
if ! "$py" "$root/scripts/mutate.py" --merge "$data"/runs/*.tsv >"$tmp/runs" 2>&1; then
  echo "FAIL: the recorded mutation runs have unexplained survivors or unrun mutants:"
  grep '^survived\|in no report' "$tmp/runs"
  status=1
fi
exit $status
