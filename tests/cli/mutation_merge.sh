#!/usr/bin/env bash
# scripts/mutate.py --merge: the table from two reports (the later report's row for a mutant
# wins) with a survivor explained as equivalent, against a hand-checked table
# (tests/data/mutation/merge.expected: a.sv 1 killed, 1 invalid, 1 equivalent; b.sv 9:2
# killed by the second report, 12:4 survived; 2 of the 3 others killed); exit 1 for the
# unexplained survivor; bad input is an error with its line and exit 2; the recorded runs have
# no unexplained survivor.
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
printf 'a.sv:4 rel no column\n' >"$tmp/eq.txt"
"$py" "$root/scripts/mutate.py" --merge report_a.tsv --equivalent "$tmp/eq.txt" >/dev/null 2>"$tmp/err"
rc=$?
if [[ $rc != 2 ]] || ! grep -q "eq.txt:1: expected 'FILE.sv:LINE:COL OP REASON'" "$tmp/err"; then
  echo "FAIL: a bad equivalents line: exit $rc, $(cat "$tmp/err")"
  status=1
fi
printf 'a.sv\t1\n' >"$tmp/bad.tsv"
"$py" "$root/scripts/mutate.py" --merge "$tmp/bad.tsv" --equivalent equivalent.txt >/dev/null 2>"$tmp/err"
rc=$?
if [[ $rc != 2 ]] || ! grep -q "bad.tsv:1: not a mutation report row" "$tmp/err"; then
  echo "FAIL: a bad report row: exit $rc, $(cat "$tmp/err")"
  status=1
fi
# --mutants that names no mutant of the files run, or a file not run, is an error (exit 2), not
# an empty run; a named mutant is listed, with or without rtl/ before its file.
"$py" "$root/scripts/mutate.py" --list --files stu_coalescer.sv --mutants stu_coalescer.sv:1:1 \
  >/dev/null 2>"$tmp/err"
rc=$?
if [[ $rc != 2 ]] || ! grep -q "no mutant at stu_coalescer.sv:1:1" "$tmp/err"; then
  echo "FAIL: --mutants of no mutant: exit $rc, $(cat "$tmp/err")"
  status=1
fi
"$py" "$root/scripts/mutate.py" --list --files stu_coalescer.sv --mutants stu_mbarrier.sv:40:1 \
  >/dev/null 2>"$tmp/err"
rc=$?
if [[ $rc != 2 ]] || ! grep -q "names stu_mbarrier.sv, not among the files run" "$tmp/err"; then
  echo "FAIL: --mutants of a file not run: exit $rc, $(cat "$tmp/err")"
  status=1
fi
"$py" "$root/scripts/mutate.py" --list --files stu_coalescer.sv >"$tmp/list"
one=$(head -1 "$tmp/list" | cut -d: -f1-3)
if [[ $("$py" "$root/scripts/mutate.py" --list --files stu_coalescer.sv --mutants "$one" |
  cut -d: -f1-3) != "$one" ]]; then
  echo "FAIL: --mutants $one does not list that mutant alone"
  status=1
fi
# The recorded runs (tests/data/mutation/runs/) with the checked-in equivalents: every survivor
# is explained (exit 0), so a stale or removed explanation fails here.
if ! "$py" "$root/scripts/mutate.py" --merge "$data"/runs/*.tsv >"$tmp/runs" 2>&1; then
  echo "FAIL: the recorded mutation runs have unexplained survivors:"
  grep '^survived' "$tmp/runs"
  status=1
fi
exit $status
