#!/usr/bin/env bash
# A single-node Slurm cluster on this machine, for testing the farm scripts (docs/verification.md).
#
#   scripts/farm/local-slurm.sh start DIR   munge (if not running) + slurmctld + slurmd; the
#                                           configuration, state, spool and logs under DIR;
#                                           prints the line to export (SLURM_CONF=DIR/slurm.conf)
#   scripts/farm/local-slurm.sh stop DIR    stops the daemons it started
#
# Needs root and Debian's slurm-wlm and munge (no systemd). Accounting is off: sbatch --wait gives
# a job array's highest exit status, and results come back as files.
set -euo pipefail

cmd=${1:-}
dir=${2:-}
if [[ -z $cmd || -z $dir ]]; then
  sed -n '2,11p' "$0" >&2
  exit 2
fi
mkdir -p "$dir"
dir=$(cd "$dir" && pwd)
conf=$dir/slurm.conf

# Sends SIGTERM to pid $1 and waits up to 10 s for it to end.
end_process() {
  kill "$1" 2>/dev/null || return 0
  for _ in $(seq 1 100); do
    kill -0 "$1" 2>/dev/null || return 0
    sleep 0.1
  done
  kill -9 "$1" 2>/dev/null || true
}

stop() {
  for d in slurmd slurmctld; do
    if [[ -f $dir/$d.pid ]]; then
      end_process "$(cat "$dir/$d.pid")"
      rm -f "$dir/$d.pid"
    fi
  done
  if [[ -f $dir/munged.started ]]; then
    for pid in $(pgrep -x munged); do end_process "$pid"; done
    rm -f "$dir/munged.started"
  fi
}

case $cmd in
  stop)
    stop
    exit 0
    ;;
  start) ;;
  *)
    echo "local-slurm.sh: unknown command '$cmd' (start, stop)" >&2
    exit 2
    ;;
esac

if [[ $(id -u) -ne 0 ]]; then
  echo "local-slurm.sh: needs root (it starts munged, slurmctld and slurmd)" >&2
  exit 2
fi
for tool in munged slurmctld slurmd sinfo sbatch; do
  if ! command -v "$tool" >/dev/null 2>&1; then
    echo "local-slurm.sh: $tool is missing (Debian: apt-get install slurm-wlm munge)" >&2
    exit 2
  fi
done

# munge: a key, then the daemon as its own user (unless one answers already).
if ! [[ -S /run/munge/munge.socket.2 ]] || ! pgrep -x munged >/dev/null 2>&1; then
  if [[ ! -s /etc/munge/munge.key ]]; then
    mkdir -p /etc/munge
    dd if=/dev/urandom of=/etc/munge/munge.key bs=1024 count=1 status=none
    chown munge:munge /etc/munge/munge.key
    chmod 400 /etc/munge/munge.key
  fi
  mkdir -p /run/munge /var/log/munge /var/lib/munge
  chown munge:munge /run/munge /var/log/munge /var/lib/munge
  runuser -u munge -- munged
  touch "$dir/munged.started"
fi

host=$(hostname -s)
mem_mb=$(awk '/MemTotal/ { print int($2 / 1024 * 0.8) }' /proc/meminfo)
mkdir -p "$dir/state" "$dir/spool"
cat > "$conf" <<CONF
ClusterName=stu-local
SlurmctldHost=$host
SlurmUser=root
AuthType=auth/munge
ProctrackType=proctrack/linuxproc
TaskPlugin=task/none
SelectType=select/cons_tres
SelectTypeParameters=CR_Core
JobAcctGatherType=jobacct_gather/none
AccountingStorageType=accounting_storage/none
MpiDefault=none
ReturnToService=2
StateSaveLocation=$dir/state
SlurmdSpoolDir=$dir/spool
SlurmctldPidFile=$dir/slurmctld.pid
SlurmdPidFile=$dir/slurmd.pid
SlurmctldLogFile=$dir/slurmctld.log
SlurmdLogFile=$dir/slurmd.log
NodeName=$host CPUs=$(nproc) RealMemory=$mem_mb State=UNKNOWN
PartitionName=stu Nodes=ALL Default=YES MaxTime=INFINITE State=UP
CONF

export SLURM_CONF=$conf
slurmctld -f "$conf"
slurmd -f "$conf"
for _ in $(seq 1 60); do
  if [[ $(sinfo -h -o %t 2>/dev/null) == idle* ]]; then
    echo "export SLURM_CONF=$conf"
    exit 0
  fi
  sleep 0.5
done
echo "local-slurm.sh: the node did not become idle in 30 s; logs in $dir" >&2
sinfo >&2 || true
stop
exit 1
