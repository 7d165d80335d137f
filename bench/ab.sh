#!/usr/bin/env bash
# Host speed of two builds, A against B, on a host whose speed drifts: runs the two bench_sim
# binaries alternately (A B A B ...) and, per benchmark, prints each one's median and best
# warp stores per second, in how many pairs B was faster, and the median of B/A over the pairs.
# A step is worth keeping when B is faster in most pairs; one pair proves nothing on a shared
# host (docs/performance-notes.md, "How to measure").
#
#   bench/ab.sh [-n PAIRS] [-f FILTER] BENCH_SIM_A BENCH_SIM_B
#
# PAIRS: 8 by default. FILTER: a Google Benchmark filter, TlmStoreLong by default.
# Exit status: 0, or 2 on a usage error or when a binary fails.
set -euo pipefail

pairs=8
filter=TlmStoreLong
usage() {
  echo "usage: bench/ab.sh [-n PAIRS] [-f FILTER] BENCH_SIM_A BENCH_SIM_B" >&2
  exit 2
}
while getopts "n:f:h" o; do
  case $o in
    n) pairs=$OPTARG ;;
    f) filter=$OPTARG ;;
    *) usage ;;
  esac
done
shift $((OPTIND - 1))
[ $# -eq 2 ] || usage
[[ $pairs =~ ^[1-9][0-9]*$ ]] || usage
for b in "$1" "$2"; do
  [ -x "$b" ] || { echo "bench/ab.sh: $b: not an executable" >&2; exit 2; }
done

here=$(cd "$(dirname "${BASH_SOURCE[0]}")" && pwd)
# shellcheck source=bench/lib/rates.sh
source "$here/lib/rates.sh"
log=$(mktemp)
trap 'rm -f "$log"' EXIT
# One line per run and benchmark: side (A or B), pair, benchmark name, items per second.
run() {
  local side=$1 pair=$2 bin=$3
  if ! bench_rates "$bin" "$filter" |
      awk -v s="$side" -v p="$pair" '$2 == "items_per_second" { print s, p, $1, $3 }' >> "$log"; then
    echo "bench/ab.sh: $bin failed" >&2
    exit 2
  fi
}
for ((i = 1; i <= pairs; i++)); do
  run A "$i" "$1"
  run B "$i" "$2"
  echo "pair $i of $pairs done" >&2
done

awk "$bench_median_awk"'
  { v[$1, $3, $2] = $4; names[$3] = 1; if ($2 > np) np = $2 }
  END {
    for (b in names) {
      na = nb = nr = faster = 0; besta = bestb = 0
      for (p = 1; p <= np; p++) {
        if ((("A", b, p) in v) && (("B", b, p) in v)) {
          a = v["A", b, p]; c = v["B", b, p]
          A[++na] = a; B[++nb] = c; R[++nr] = c / a
          if (c > a) faster++
          if (a > besta) besta = a
          if (c > bestb) bestb = c
        }
      }
      if (!nr) continue
      printf "%s\n  A: median %.4g, best %.4g warp stores/s\n  B: median %.4g, best %.4g\n  B faster in %d of %d pairs; median B/A %.3f\n",
             b, median(A, na), besta, median(B, nb), bestb, faster, nr, median(R, nr)
    }
  }' "$log"
