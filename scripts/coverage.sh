#!/usr/bin/env bash
# RTL code coverage: line and toggle points of every block's own Verilated model, and line points
# of the store path's (docs/verification.md), counted while the coverage regression
# (tests/regress/coverage.txt) runs; merged with verilator_coverage, an lcov HTML report, and a
# check that at least MIN % of the measured RTL lines were hit and that every line not hit has a
# reason in rtl/coverage_waivers.txt.
#
#   scripts/coverage.sh [--list FILE] [--min PERCENT] [--build DIR]
#
# Output in DIR/coverage/: html/index.html, rtl.info (lcov), merged.dat, report.txt.
set -euo pipefail
# shellcheck source-path=SCRIPTDIR source=lib/setup.sh
source "$(dirname "${BASH_SOURCE[0]}")/lib/setup.sh"

list=tests/regress/coverage.txt
min=95
dir=build-coverage
while (($#)); do
  case $1 in
    --list) list=$2; shift ;;
    --min) min=$2; shift ;;
    --build) dir=$2; shift ;;
    -h|--help) sed -n '2,11p' "$0"; exit 0 ;;
    *) echo "coverage.sh: unknown option $1 (see --help)" >&2; exit 2 ;;
  esac
  shift
done

STU_PACKAGES+=(lcov)
stu_install_packages
start=$SECONDS
generator=()
if [[ ! -f "$dir/CMakeCache.txt" ]] && command -v ninja >/dev/null 2>&1; then generator=(-G Ninja); fi
# Only what the measurement runs: the stu program with the Verilated blocks.
cmake -S "$STU_ROOT" -B "$dir" "${generator[@]}" -DCMAKE_BUILD_TYPE=Release -DSTU_RTL_COVERAGE=ON \
  -DSTU_BUILD_SYSTEMC=OFF -DSTU_BUILD_TESTS=OFF -DSTU_BUILD_BENCH=OFF >/dev/null
cmake --build "$dir" --target stu -j"$(nproc)"
echo "coverage: build took $((SECONDS - start)) s"

out=$dir/coverage
rm -rf "$out"
mkdir -p "$out/dat"
export STU_CODE_COVERAGE_DIR=$out/dat
start=$SECONDS
"$dir/stu" cosim --regression "$list" --junit "$out/cosim.xml"
echo "coverage: runs took $((SECONDS - start)) s ($(find "$out/dat" -name '*.dat' | wc -l) count files)"
unset STU_CODE_COVERAGE_DIR

find "$out/dat" -name '*.dat' -print0 | xargs -0 verilator_coverage --write "$out/merged.dat"
verilator_coverage --write-info "$out/rtl.info" "$out/merged.dat"
genhtml --quiet --output-directory "$out/html" --title "stu RTL" "$out/rtl.info" >/dev/null
python3 "$STU_ROOT/scripts/coverage_report.py" --min "$min" --waivers rtl/coverage_waivers.txt \
  "$out/rtl.info" | tee "$out/report.txt"
