#!/usr/bin/env bash
# One device session's silicon checks, as run on the lent GPU machine (docs/correlate.md,
# "Recording a device run"). Everything it needs travels in CARRY (built here, see
# gpu/prepare_carry.sh); what it learns goes to OUT as at most 8 files:
#   env.txt        the machine: date, nvidia-smi, nvcc, tools
#   library.tar.gz `stu run --on gpu --gpu-arch sm_90a` on every tests/sts file: log, rc, program
#   sass.tar.gz    nvdisasm -g / cuobjdump -sass of the SASS corpus cubins (tests/data/sass),
#                  the SASS of store_bench and probes, probes.txt, and with the `metrics` part
#                  ncu_metrics.txt (`ncu --query-metrics`: the counters this ncu knows)
#   bench.jsonl    gpu/store_bench on gpu/suite.txt (timings)
#   ncu.csv        Nsight Compute counters of the suite's ncu=1 experiments; ncu_launches.txt
#                  names each launch; ncu_inst.csv the same launches' instruction counters
#   check.txt      `stu check -j N` wall time on the machine's cores (the carried mix.ptx, big.ptx)
#   readback.csv   (part `readback`, on request) the suite's `readback` experiments under Nsight
#                  Compute without cache control: k_rewrite's and k_read's L2 and DRAM counters
#   gpu/device_run.sh CARRY OUT
#   l1_probe.tar.gz (part `l1`, on request) gpu/l1_probe under Nsight Compute: what a store leaves
#                  in the L1 (l1_probe.csv, l1_probe_launches.txt, the table l1_probe.txt)
# STU_DEVICE_PARTS (default library,sass,bench,probes,check; `metrics`, `readback`, `l1` on request) picks the
# sections; STU_DEVICE_STS
# the .sts files of the library section (default tests/sts/*.sts); STU_DEVICE_ONLY (NAME,...)
# the suite experiments of the bench section (default all); STU_DEVICE_SUITE the suite file
# (default gpu/suite.txt); STU_DEVICE_METRICS2 the second ncu pass's metrics (default: the
# instruction counts); STU_DEVICE_NCU_TIMEOUT the seconds each ncu pass may take (default 200);
# STU_DEVICE_COMMIT the commit the carry was built from (written to env.txt);
# STU_DEVICE_READBACK_SUITE the suite file of the readback part (default the suite file).
set -u
ncu_timeout=${STU_DEVICE_NCU_TIMEOUT:-200}
parts=${STU_DEVICE_PARTS:-library,sass,bench,probes,check}
only=()
[[ -n ${STU_DEVICE_ONLY:-} ]] && only=(--only "$STU_DEVICE_ONLY")
suite=${STU_DEVICE_SUITE:-gpu/suite.txt}
want() { [[ ,$parts, == *,$1,* ]]; }
C=$(cd "$1" && pwd)
O=$2
root=$(cd "$(dirname "$0")/.." && pwd)
stu() { "$C/lib/ld-linux-x86-64.so.2" --library-path "$C/lib" "$C/stu" "$@"; }
export -f stu
export C
{
  date -u +%Y-%m-%dT%H:%M:%SZ
  echo "commit: ${STU_DEVICE_COMMIT:-unknown}  parts: $parts  suite: $suite"
  uname -a
  nvidia-smi
  nvidia-smi -q -d CLOCK | head -40
  command -v nvcc ncu cuobjdump nvdisasm
  nvcc --version
  stu --help | head -3
} >"$O/env.txt" 2>&1

# --- the directed library on silicon -------------------------------------------------------
lib=$(mktemp -d)
mkdir -p "$lib/logs" "$lib/progs"
if want library; then
t0=$(date +%s)
ls ${STU_DEVICE_STS:-"$root"/tests/sts/*.sts} | timeout 260 xargs -P 8 -I{} bash -c '
  f={}; n=$(basename "$f" .sts)
  s=$(date +%s.%N)
  stu run --on gpu --gpu-arch sm_90a --gpu-dir '"$lib"'/progs/$n "$f" >'"$lib"'/logs/$n.log 2>&1
  rc=$?
  echo "$n rc=$rc seconds=$(awk "BEGIN{print $(date +%s.%N) - $s}")" >>'"$lib"'/summary.txt'
echo "library wall seconds: $(( $(date +%s) - t0 ))" >>"$lib/summary.txt"
find "$lib/progs" -type f -perm -u+x -delete
tar -C "$lib" -czf "$O/library.tar.gz" summary.txt logs progs
fi

# --- SASS of the corpus ---------------------------------------------------------------------
sass=$(mktemp -d)
want sass && for t in sm_90a sm_100a; do
  timeout 60 nvdisasm -g -c "$C/$t.cubin" >"$sass/$t.nvdisasm.txt" 2>&1
  timeout 60 cuobjdump -sass "$C/$t.cubin" >"$sass/$t.cuobjdump.txt" 2>&1
done
tar -C "$sass" -czf "$O/sass.tar.gz" .

# --- what the L2 keeps (suite kernel `readback`): Nsight Compute without cache control, every
# pass a rerun of the whole program (application replay), so that k_rewrite and k_read find
# the L2 as the writes before them left it ----------------------------------------------------
if want readback; then
  rb_metrics=lts__t_sectors_op_read_lookup_hit.sum,lts__t_sectors_op_read_lookup_miss.sum,lts__t_sectors_op_read.sum,lts__t_sectors_srcunit_tex_op_write_lookup_hit.sum,lts__t_sectors_srcunit_tex_op_write_lookup_miss.sum,lts__t_sectors_op_write.sum,dram__bytes_read.sum,dram__bytes_write.sum,gpu__time_duration.sum
  timeout "$ncu_timeout" ncu --clock-control none --cache-control none --replay-mode application \
    --kernel-name 'regex:k_read|k_rewrite' --csv --metrics "$rb_metrics" \
    "$C/store_bench" "$root/${STU_DEVICE_READBACK_SUITE:-$suite}" --ncu >"$O/readback.csv" \
    2>"$lib/readback.err"
  echo "ncu readback rc=$?" >>"$lib/readback.err"
  grep -v "^==PROF==" "$lib/readback.err" | sed "s/^/readback: /" >>"$O/ncu_launches.txt"
fi
# --- the correlation suite --------------------------------------------------------------------
if want bench; then
timeout 150 "$C/store_bench" "$root/$suite" "${only[@]}" --runs 5 >"$O/bench.jsonl" 2>"$O/bench.err"
echo "store_bench rc=$?" >>"$O/bench.err"
cat "$O/bench.err" >>"$O/env.txt"; rm -f "$O/bench.err"
metrics=dram__bytes_write.sum,dram__bytes_read.sum,lts__t_sectors_op_write.sum,lts__t_requests_op_write.sum,lts__t_sectors_srcunit_tex_op_write.sum,l1tex__t_sectors_pipe_lsu_mem_global_op_st.sum,l1tex__t_requests_pipe_lsu_mem_global_op_st.sum,gpu__time_duration.sum,sm__cycles_elapsed.avg
timeout "$ncu_timeout" ncu --clock-control none --metrics "$metrics" --csv \
  "$C/store_bench" "$root/$suite" "${only[@]}" --ncu >"$O/ncu.csv" 2>>"$O/ncu_launches.txt"
echo "ncu rc=$?" >>"$O/ncu_launches.txt"
# instructions issued (the issue model's input), in a run of its own so that a metric this
# ncu lacks cannot cost the counters above
timeout "$ncu_timeout" ncu --clock-control none --csv \
  --metrics "${STU_DEVICE_METRICS2:-smsp__inst_executed.sum,smsp__inst_executed_op_global_st.sum,sm__cycles_elapsed.avg}" \
  "$C/store_bench" "$root/$suite" "${only[@]}" --ncu >"$O/ncu_inst.csv" 2>&1
echo "ncu inst rc=$?" >>"$O/ncu_launches.txt"
fi
# --- probes: rules the library left open (gpu/probes.cu), each in its own process, 3 times ----
# (STU_DEVICE_PROBE_RUNS=0 skips them)
want probes || STU_DEVICE_PROBE_RUNS=0
for rep in $(seq 1 "${STU_DEVICE_PROBE_RUNS:-3}"); do
  for p in $("$C/probes" --list); do timeout 20 "$C/probes" "$p" || echo "$p rc=$?"; done
done >>"$sass/probes.txt" 2>&1
[[ -f $sass/probes.txt ]] && cp "$sass/probes.txt" "$O/probes.txt"
for b in store_bench probes; do cuobjdump -sass "$C/$b" >"$sass/$b.sass.txt" 2>&1; done
# What a store leaves in the L1 (part `l1`, on request): gpu/l1_probe under Nsight Compute
if want l1; then
  l1=$(mktemp -d)
  timeout "$ncu_timeout" ncu --clock-control none --csv --metrics \
    l1tex__t_sectors_pipe_lsu_mem_global_op_ld_lookup_hit.sum,l1tex__t_sectors_pipe_lsu_mem_global_op_ld_lookup_miss.sum,l1tex__t_sectors_pipe_lsu_mem_global_op_st.sum \
    "$C/l1_probe" >"$l1/l1_probe.csv" 2>"$l1/l1_probe_launches.txt"
  echo "ncu rc=$?" >>"$l1/l1_probe_launches.txt"
  "$root/gpu/l1_probe_table.py" "$l1/l1_probe.csv" "$l1/l1_probe_launches.txt" >"$l1/l1_probe.txt" 2>&1
  tar -C "$l1" -czf "$O/l1_probe.tar.gz" .
fi
for b in l1_probe; do [[ -x $C/$b ]] && cuobjdump -sass "$C/$b" >"$sass/$b.sass.txt" 2>&1; done
want metrics && timeout 60 ncu --query-metrics >"$sass/ncu_metrics.txt" 2>&1
tar -C "$sass" -czf "$O/sass.tar.gz" .
# --- stu check on this machine's cores (issue 22's speed figure), fastest of 5 each ----------
if want check; then
  {
    nproc
    lscpu | grep -E "Model name|^CPU\(s\)|Thread|MHz" 
    for f in mix big; do
      gunzip -c "$C/$f.ptx.gz" >"$lib/$f.ptx"
      for j in 1 2 4 8 16; do
        best=
        for r in 1 2 3 4 5; do
          s=$(date +%s.%N)
          stu check -j "$j" "$lib/$f.ptx" >/dev/null 2>&1
          rc=$?
          t=$(awk "BEGIN{print $(date +%s.%N) - $s}")
          best=$(awk -v a="$t" -v b="$best" 'BEGIN{print (b == "" || a < b) ? a : b}')
        done
        echo "check $f.ptx -j $j rc=$rc best_seconds=$best"
      done
    done
  } >"$O/check.txt" 2>&1
fi
ls -la "$O"
