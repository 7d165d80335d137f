# What bench/ab.sh and bench/targets.sh share (sourced, not run).
#
# bench_rates BIN FILTER: runs BIN (a bench_sim executable) once with the Google Benchmark
# filter and prints one line per figure: BENCHMARK KEY VALUE, KEY being items_per_second (warp
# stores per second) or ns_per_load (BM_HostMemoryLatency), VALUE a plain number. Returns 1,
# with the run's last lines on stderr, when the run fails.
bench_rates() {
  local bin=$1 filter=$2 out
  if ! out=$("$bin" --benchmark_filter="$filter" 2>&1); then
    echo "$bin failed:" >&2
    echo "$out" | tail -5 >&2
    return 1
  fi
  echo "$out" | awk '
    /^BM_/ {
      for (i = 2; i <= NF; i++) {
        if (split($i, kv, "=") != 2 || (kv[1] != "items_per_second" && kv[1] != "ns_per_load"))
          continue
        v = kv[2]; m = 1
        if (v ~ /k\/s$/ || v ~ /k$/) m = 1e3; else if (v ~ /M\/s$/ || v ~ /M$/) m = 1e6
        else if (v ~ /G\/s$/ || v ~ /G$/) m = 1e9
        sub(/[kMG]?(\/s)?$/, "", v)
        print $1, kv[1], v * m
      }
    }'
}

# The awk function median(arr, n): the median of arr[1..n] (sorts arr in place). For
# `awk "$bench_median_awk"'...'`.
bench_median_awk='
  function median(arr, n,   i, j, t) {
    for (i = 2; i <= n; i++) { t = arr[i]; for (j = i - 1; j >= 1 && arr[j] > t; j--) arr[j + 1] = arr[j]; arr[j + 1] = t }
    return n % 2 ? arr[(n + 1) / 2] : (arr[n / 2] + arr[n / 2 + 1]) / 2
  }'
