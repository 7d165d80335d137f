#!/usr/bin/env bash
# The directed library (tests/sts) on silicon (docs/sts-format.md, "On a GPU").
#   gpu_library.sh STU compile   translate every test and build the programs with nvcc, for
#                                sm_90a and for sm_100a (one batch per target); skipped (77)
#                                where nvcc is not installed
#   gpu_library.sh STU run       run every test on the GPU; skipped (77) without a GPU
set -u
stu=$1
mode=$2
root=$(cd "$(dirname "$0")/../.." && pwd)
nvcc=${STU_NVCC:-nvcc}
if ! command -v "$nvcc" >/dev/null 2>&1 && [[ ! -x /usr/local/cuda/bin/nvcc ]]; then
  echo "nvcc not found: skipped"
  exit 77
fi
command -v "$nvcc" >/dev/null 2>&1 || export STU_NVCC=/usr/local/cuda/bin/nvcc
tmp=$(mktemp -d)
trap 'rm -rf "$tmp"' EXIT
case $mode in
  compile)
    rc=0
    for arch in sm_90a sm_100a; do
      "$stu" run --on gpu --compile-only --gpu-arch "$arch" --gpu-dir "$tmp/$arch" "$root"/tests/sts/*.sts ||
        rc=1
    done
    exit $rc
    ;;
  run)
    if ! command -v nvidia-smi >/dev/null 2>&1 || ! nvidia-smi -L >/dev/null 2>&1; then
      echo "no GPU: skipped"
      exit 77
    fi
    "$stu" run --on gpu --gpu-dir "$tmp" "$root"/tests/sts/*.sts
    rc=$?
    ((rc == 2)) && { echo "the GPU cannot run these tests: skipped"; exit 77; }
    exit $rc
    ;;
  *)
    echo "usage: $0 STU compile|run" >&2
    exit 2
    ;;
esac
