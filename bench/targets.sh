#!/usr/bin/env bash
# The TLM model's speed against the issue's targets (LT >= 1M warp stores/s, AT >= 100k on the
# long runs, BM_TlmStoreLong), on a host whose speed drifts: runs bench_sim RUNS times, each
# run the two long benchmarks, the golden reference on the same stores
# (BM_GoldenReference/0: stream, width 4) and the host's memory latency just after
# (BM_HostMemoryLatency), and prints every run, then each figure's best and median.
#
# The verdict is on the best run of each benchmark: the host's other tenants only ever slow a
# run down, so the best run is the nearest to what the code does on a host of its own (the
# silicon figures in data/hw are bests of 3-10 runs likewise). The medians and the host's
# latency say how much the host took away. docs/tlm.md ("Speed and memory") has the protocol.
#
#   bench/targets.sh [-n RUNS] [BENCH_SIM]     (RUNS: 10; BENCH_SIM: build/bench_sim)
#
# Exit status: 0 both targets met, 1 one or both not met, 2 a usage error or a failed run.
set -euo pipefail

here=$(cd "$(dirname "${BASH_SOURCE[0]}")" && pwd)
# shellcheck source=bench/lib/rates.sh
source "$here/lib/rates.sh"

runs=10
usage() {
  echo "usage: bench/targets.sh [-n RUNS] [BENCH_SIM]" >&2
  exit 2
}
while getopts "n:h" o; do
  case $o in
    n) runs=$OPTARG ;;
    *) usage ;;
  esac
done
shift $((OPTIND - 1))
[ $# -le 1 ] || usage
[[ $runs =~ ^[1-9][0-9]*$ ]] || usage
bin=${1:-build/bench_sim}
[ -x "$bin" ] || { echo "bench/targets.sh: $bin: not an executable" >&2; exit 2; }

log=$(mktemp)
trap 'rm -f "$log"' EXIT
for ((i = 1; i <= runs; i++)); do
  if ! bench_rates "$bin" 'TlmStoreLong|GoldenReference/0/|HostMemoryLatency' |
      sed "s/^/$i /" >> "$log"; then
    echo "bench/targets.sh: run $i failed" >&2
    exit 2
  fi
  awk -v r="$i" -v n="$runs" '$1 == r {
      if ($2 ~ /TlmStoreLong\/0\//) lt = $4; else if ($2 ~ /TlmStoreLong\/1\//) at = $4
      else if ($2 ~ /GoldenReference/) g = $4; else if ($3 == "ns_per_load") ns = $4 }
    END { printf "run %d of %d: LT %.0fk, AT %.1fk, golden %.2fM warp stores/s; host memory %.0f ns a load\n",
                 r, n, lt / 1e3, at / 1e3, g / 1e6, ns }' "$log"
done

awk "$bench_median_awk"'
  { key = $2; v = $4; n[key]++; val[key, n[key]] = v; if (v > best[key]) best[key] = v
    if (!(key in low) || v < low[key]) low[key] = v }
  END {
    split("BM_TlmStoreLong/0/ BM_TlmStoreLong/1/", want, " ")
    label["BM_TlmStoreLong/0/"] = "LT long run (stream width 4, 1M warps)"; target["BM_TlmStoreLong/0/"] = 1e6
    label["BM_TlmStoreLong/1/"] = "AT long run (stream width 16, 200k warps)"; target["BM_TlmStoreLong/1/"] = 1e5
    met = 0
    for (k in n) {
      delete arr; for (i = 1; i <= n[k]; i++) arr[i] = val[k, i]
      med[k] = median(arr, n[k])
    }
    for (w = 1; w <= 2; w++) {
      for (k in n) if (index(k, want[w]) == 1) {
        ok = best[k] >= target[want[w]]; met += ok
        printf "%s: best %.4g, median %.4g warp stores/s; target %.4g: %s\n", label[want[w]],
               best[k], med[k], target[want[w]], ok ? "met" : "NOT met"
      }
    }
    for (k in n) if (index(k, "BM_GoldenReference") == 1)
      printf "golden reference (stream width 4, 100k warps): best %.4g, median %.4g warp stores/s\n",
             best[k], med[k]
    for (k in n) if (index(k, "BM_HostMemoryLatency") == 1)
      printf "host memory: %.0f-%.0f ns a dependent load, median %.0f (about 180 when quiet)\n",
             low[k], best[k], med[k]
    exit met == 2 ? 0 : 1
  }' "$log"
