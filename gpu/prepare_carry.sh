#!/usr/bin/env bash
# Builds what gpu/device_run.sh needs into DIR (default .devcarry, ignored by git): the stu
# binary with every shared library it loads (the device machine runs another distribution),
# the SASS corpus cubins (ptxas here) and gpu/store_bench (nvcc here).
#   gpu/prepare_carry.sh [BUILD_DIR] [DIR]
set -eu
root=$(cd "$(dirname "$0")/.." && pwd)
build=${1:-$root/build}
dir=${2:-$root/.devcarry}
rm -rf "$dir"
mkdir -p "$dir/lib"
cp "$build/stu" "$dir/stu"
ldd "$build/stu" | awk '/=>/ {print $3} /ld-linux/ {print $1}' | while read -r so; do
  [[ -f $so ]] && cp -L "$so" "$dir/lib/"
done
python3 "$root/scripts/gen_sass_corpus.py" --out "$root/tests/data/sass" >/dev/null
for t in sm_90a sm_100a; do
  ptxas -arch=$t -lineinfo -o "$dir/$t.cubin" "$root/tests/data/sass/$t.ptx" 2>/dev/null
done
nvcc -O3 -std=c++17 -arch=sm_90a -I "$root/include" -o "$dir/store_bench" "$root/gpu/store_bench.cu"
nvcc -O3 -std=c++17 -arch=sm_90a -o "$dir/probes" "$root/gpu/probes.cu"
nvcc -O3 -std=c++17 -arch=sm_90a -o "$dir/l1_probe" "$root/gpu/l1_probe.cu"
# the `stu check` speed inputs: the corpus mix and gen_big_ptx, 200,000 stores each
STU_BENCH_WRITE_MODULE="$dir/mix.ptx" "$build/bench_check" --benchmark_filter=CorpusMix \
  --benchmark_min_time=0.01 >/dev/null
python3 "$root/scripts/gen_big_ptx.py" --stores 200000 >"$dir/big.ptx"
gzip -9 "$dir/mix.ptx" "$dir/big.ptx"  # the carry is limited to 64 MiB with the tree
du -sh "$dir"
