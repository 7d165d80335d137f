#!/usr/bin/env bash
# The testplan (tests/testplan/*.json) against what exists: one plan per registered block,
# every test it names among the CTest tests of this build, every coverage bin among the bins
# the benches declare (stu testplan --check); and docs/testplan.md as `stu testplan --markdown`
# writes it.
#   tests/cli/testplan_checks.sh path/to/stu BUILD_DIR
set -u
stu=${1:?usage: testplan_checks.sh path/to/stu BUILD_DIR}
build=${2:?usage: testplan_checks.sh path/to/stu BUILD_DIR}
root=$(cd "$(dirname "$0")/../.." && pwd)
tmp=$(mktemp -d)
trap 'rm -rf "$tmp"' EXIT
status=0
ctest --test-dir "$build" -N | sed -n 's/^ *Test *#[0-9]*: //p' >"$tmp/tests"
if ! "$stu" testplan --check --dir "$root/tests/testplan" --known-tests "$tmp/tests"; then
  echo "FAIL: stu testplan --check"
  status=1
fi
"$stu" testplan --markdown --dir "$root/tests/testplan" >"$tmp/testplan.md"
if ! diff -u "$root/docs/testplan.md" "$tmp/testplan.md" >"$tmp/diff"; then
  echo "FAIL: docs/testplan.md is not what 'stu testplan --markdown' writes; refresh it with"
  echo "  build/stu testplan --markdown > docs/testplan.md"
  head -30 "$tmp/diff"
  status=1
fi
exit $status
