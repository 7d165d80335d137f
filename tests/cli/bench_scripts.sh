#!/usr/bin/env bash
# bench/targets.sh and bench/ab.sh read Google Benchmark's console lines; here they read those of
# a stand-in bench_sim whose figures are known (one set of figures per call, in order), and
# their bests, medians, verdicts and exit statuses are checked against figures worked out by
# hand. Usage: bench_scripts.sh REPO_ROOT
set -uo pipefail
root=$1
tmp=$(mktemp -d)
trap 'rm -rf "$tmp"' EXIT
fail=0

# fake N LT AT ...: a bench_sim whose k-th call prints LT[k] and AT[k] (warp stores/s, in
# Google Benchmark's own units), a golden rate and a host latency; "fail" as a figure: the
# k-th call exits 1.
fake() {
  local f=$tmp/$1
  shift
  printf '%s\n' "$@" >"$f.figures"
  echo 0 >"$f.calls"
  cat >"$f" <<EOF
#!/usr/bin/env bash
n=\$((\$(cat "$f.calls") + 1)); echo \$n >"$f.calls"
read -r lt at < <(sed -n "\${n}p" "$f.figures")
[ "\$lt" = fail ] && { echo "error: out of memory" >&2; exit 1; }
echo "BM_TlmStoreLong/0/1000000/4/manual_time  1000 ms  1100 ms  1 faults_per_op=0.0156 items_per_second=\$lt peak_rss_MiB=148.4 stream width=4, L2 write-backs lt"
echo "BM_TlmStoreLong/1/200000/16/manual_time  2000 ms  2100 ms  1 faults_per_op=0.093 items_per_second=\$at peak_rss_MiB=199 stream width=16, L2 write-backs at"
echo "BM_GoldenReference/0/100000/manual_time  20 ms  21 ms  33 items_per_second=6.5M/s peak_rss_MiB=199 stream width=4"
echo "BM_HostMemoryLatency/iterations:1/manual_time  500 ms  500 ms  1 ns_per_load=2\${n}0.5"
EOF
  chmod +x "$f"
}
expect() {  # expect PATTERN WHAT
  if ! grep -qE -- "$1" <<<"$out"; then
    echo "FAIL: $2; output:"
    echo "$out"
    fail=1
  fi
}

# Three runs: LT 800k, 1.05M, 900k (best 1.05M: met; median 900k); AT 95k, 99k, 97k (best 99k:
# not met; median 97k). Host latency 210.5, 220.5, 230.5 ns.
fake slow '800k/s 95k/s' '1.05M/s 99k/s' '900k/s 97k/s'
out=$("$root/bench/targets.sh" -n 3 "$tmp/slow" 2>&1)
status=$?
[[ $status -eq 1 ]] || { echo "FAIL: exit $status (want 1: AT's best is below 100k)"; fail=1; }
expect '^run 2 of 3: LT 1050k, AT 99\.0k, golden 6\.50M warp stores/s; host memory 220 ns a load$' \
  "each run's line"
expect '^LT long run .*: best 1\.05e\+06, median 9e\+05 warp stores/s; target 1e\+06: met$' \
  "LT's best and median, met"
expect '^AT long run .*: best 9\.9e\+04, median 9\.7e\+04 warp stores/s; target 1e\+05: NOT met$' \
  "AT's best and median, not met"
expect '^host memory: 210-230 ns a dependent load, median 220 ' "the host latency's range"

fake fast '1.2M/s 101k/s' '990k/s 150k/s'
"$root/bench/targets.sh" -n 2 "$tmp/fast" >/dev/null 2>&1 ||
  { echo "FAIL: exit $? with both bests above their targets"; fail=1; }

fake broken '1.2M/s 101k/s' 'fail fail'
out=$("$root/bench/targets.sh" -n 2 "$tmp/broken" 2>&1)
status=$?
[[ $status -eq 2 ]] || { echo "FAIL: exit $status (want 2) when a run fails"; fail=1; }
expect 'out of memory' "the failed run's own message"
expect 'run 2 failed' "which run failed"
"$root/bench/targets.sh" -n 0 "$tmp/fast" >/dev/null 2>&1
[[ $? -eq 2 ]] || { echo "FAIL: -n 0 is not a usage error"; fail=1; }

# ab.sh alternates A and B: pairs (800k, 880k) and (1.0M, 900k): B faster in 1 of 2, median
# ratio (1.1 + 0.9) / 2 = 1.000.
fake a '800k/s 90k/s' '1M/s 100k/s'
fake b '880k/s 99k/s' '900k/s 120k/s'
out=$("$root/bench/ab.sh" -n 2 "$tmp/a" "$tmp/b" 2>&1)
status=$?
[[ $status -eq 0 ]] || { echo "FAIL: ab.sh exit $status"; fail=1; }
expect '^  A: median 9e\+05, best 1e\+06 warp stores/s$' "ab.sh: A's median and best"
expect '^  B faster in 1 of 2 pairs; median B/A 1\.000$' "ab.sh: pairs faster and the ratio"

exit $fail
