#!/usr/bin/env bash
# Build stu and run its tests.
#
#   scripts/test.sh               Release build in build/, every test except labels `long`, `farm`
#   scripts/test.sh --long        ... and the long regressions too
#   scripts/test.sh --farm        the farm tests alone (installs slurm-wlm and munge; needs root)
#   scripts/test.sh --sanitize    ASan + UBSan build (RelWithDebInfo) in build-sanitize/
#   scripts/test.sh -- ARGS...    pass ARGS on to ctest (e.g. -- -R SectorMask, -- -L rtl)
set -euo pipefail
# shellcheck source-path=SCRIPTDIR source=lib/setup.sh
source "$(dirname "${BASH_SOURCE[0]}")/lib/setup.sh"

build_dir=build
cmake_args=(-DCMAKE_BUILD_TYPE=Release)
label_args=(-LE 'long|farm')
while (($#)); do
  case $1 in
    --sanitize)
      build_dir=build-sanitize
      cmake_args=(-DCMAKE_BUILD_TYPE=RelWithDebInfo -DSTU_SANITIZE=ON)
      export ASAN_OPTIONS=${ASAN_OPTIONS:-halt_on_error=1:detect_leaks=1}
      export UBSAN_OPTIONS=${UBSAN_OPTIONS:-halt_on_error=1:print_stacktrace=1}
      ;;
    --long) label_args=(-LE farm) ;;
    --farm)
      label_args=(-L farm)
      STU_PACKAGES+=(slurm-wlm munge)
      ;;
    --) shift; break ;;
    -h|--help) sed -n '2,9p' "$0"; exit 0 ;;
    *) echo "test.sh: unknown option $1 (see --help)" >&2; exit 2 ;;
  esac
  shift
done

stu_install_packages
stu_build "$build_dir" "${cmake_args[@]}"
exec ctest --test-dir "$build_dir" --output-on-failure "${label_args[@]}" -j2 "$@"
