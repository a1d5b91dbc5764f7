#!/usr/bin/env bash
# A real one-machine SLURM cluster for the jobscript tests (docs/running.md "SLURM on one machine"):
# munged, slurmctld and slurmd started by hand, every file under one folder D.
#
#   fixture.sh start D   make D, write munge key and slurm.conf, start the daemons, wait for `idle`
#   fixture.sh env D     print `export SLURM_CONF=...` (eval it in every shell that uses SLURM)
#   fixture.sh stop D    stop the daemons by the PIDs in D/*.pid (never by name), wait for them
#
# start exits 77 (ctest SKIP_RETURN_CODE) with "SKIP: ..." when the SLURM packages are missing
# and cannot be installed (.ci/slurm-packages.sh is tried once; KIRCHHOFF_SLURM_INSTALL=0 stops
# that), when not run as root (slurmd must start jobs as the submitting user), or when
# KIRCHHOFF_SLURM=off. Ports are chosen free at start, so two fixtures can run at once.
# KillWait is short (5 s) and the scheduler runs every 2 s, so a chain of dependent jobs moves
# on within seconds. The node
# offers KIRCHHOFF_SLURM_CPUS CPUs (default 4, SlurmdParameters=config_overrides: more than the
# machine's cores), so a test's jobs run side by side instead of queueing for a core.
set -euo pipefail
cmd=${1:?usage: fixture.sh start|env|stop DIR}
D=${2:?usage: fixture.sh start|env|stop DIR}
case $D in /*) ;; *) D=$PWD/$D ;; esac
here=$(cd "$(dirname "${BASH_SOURCE[0]}")" && pwd)
export PATH="$PATH:/usr/sbin:/sbin"

skip() { echo "SKIP: $*" >&2; exit 77; }
die() { echo "fixture: $*" >&2; [ -d "$D" ] && for f in "$D"/log/*.log; do [ -f "$f" ] && { echo "--- $f" >&2; tail -20 "$f" >&2; }; done; exit 1; }

have_slurm() {
  command -v munged >/dev/null && command -v slurmctld >/dev/null && command -v slurmd >/dev/null &&
    command -v sbatch >/dev/null && command -v scontrol >/dev/null
}

# free_port: a TCP port nobody listens on (bound and released by the kernel's choice).
free_port() {
  /usr/bin/python3 -c 'import socket; s=socket.socket(); s.bind(("127.0.0.1",0)); print(s.getsockname()[1])'
}

write_conf() {
  local ctld_port=$1 slurmd_port=$2
  cat > "$D/slurm.conf" <<CONF
# One-machine test cluster (tests/slurm/fixture.sh); everything under $D
ClusterName=kirchhofftest
SlurmctldHost=localhost
SlurmctldPort=$ctld_port
SlurmdPort=$slurmd_port
SlurmUser=root
SlurmdUser=root
AuthType=auth/munge
AuthInfo=socket=$D/munge/munge.socket.2
CredType=cred/munge
ProctrackType=proctrack/linuxproc
TaskPlugin=task/none
MpiDefault=none
SelectType=select/cons_tres
SelectTypeParameters=CR_Core
JobAcctGatherType=jobacct_gather/none
AccountingStorageType=accounting_storage/none
JobCompType=jobcomp/filetxt
JobCompLoc=$D/log/jobcomp.txt
MailProg=/bin/true
ReturnToService=2
MinJobAge=600
KillWait=5
InactiveLimit=0
JobRequeue=1
SchedulerParameters=sched_interval=2
StateSaveLocation=$D/state
SlurmdSpoolDir=$D/spool
SlurmctldPidFile=$D/slurmctld.pid
SlurmdPidFile=$D/slurmd.pid
SlurmctldLogFile=$D/log/slurmctld.log
SlurmdLogFile=$D/log/slurmd.log
TmpFS=$D/tmp
SlurmdParameters=config_overrides
NodeName=localhost NodeAddr=127.0.0.1 CPUs=${KIRCHHOFF_SLURM_CPUS:-4} RealMemory=20000 State=UNKNOWN
PartitionName=debug Nodes=localhost Default=YES MaxTime=INFINITE State=UP
CONF
}

start() {
  [ "${KIRCHHOFF_SLURM:-on}" != off ] || skip "SLURM tests turned off (KIRCHHOFF_SLURM=off)"
  [ "$(id -u)" = 0 ] || skip "the one-machine SLURM fixture needs root (slurmd runs jobs as their user)"
  if ! have_slurm && [ "${KIRCHHOFF_SLURM_INSTALL:-1}" != 0 ] && [ -f "$here/../../.ci/slurm-packages.sh" ]; then
    bash "$here/../../.ci/slurm-packages.sh" >&2 || true
  fi
  have_slurm || skip "SLURM packages (slurmctld slurmd slurm-client munge) are not installed and could not be installed"
  [ -e "$D/slurm.conf" ] && die "$D already holds a cluster (stop it first)"
  [ ${#D} -le 80 ] || die "$D is too long for a unix socket path (at most 80 characters; set TMPDIR shorter)"
  mkdir -p "$D"/{munge,state,spool,log,tmp}
  chmod 0711 "$D/munge"
  # A fresh key for this cluster only (1 KiB random), mode 0400 as munged demands.
  head -c 1024 /dev/urandom > "$D/munge/munge.key"
  chmod 0400 "$D/munge/munge.key"
  munged --force -S "$D/munge/munge.socket.2" --key-file="$D/munge/munge.key" \
    --pid-file="$D/munged.pid" --log-file="$D/log/munged.log" --seed-file="$D/munge/munged.seed" \
    || die "munged did not start"
  wait_for "munged socket" 10 test -S "$D/munge/munge.socket.2"
  write_conf "$(free_port)" "$(free_port)"
  export SLURM_CONF=$D/slurm.conf
  slurmctld -f "$SLURM_CONF" || die "slurmctld did not start"
  wait_for "slurmctld" 20 scontrol ping
  slurmd -f "$SLURM_CONF" -N localhost || die "slurmd did not start"
  wait_for "node idle" 30 node_idle
  echo "fixture: SLURM up in $D ($(sinfo -h -o '%P %D %T %c'))" >&2
}

node_idle() { [ "$(sinfo -h -o %T 2>/dev/null | head -1)" = idle ]; }

# wait_for WHAT SECONDS CMD...: polls CMD every 0.1 s.
wait_for() {
  local what=$1 secs=$2; shift 2
  local n=$((secs * 10))
  while ! "$@" >/dev/null 2>&1; do
    n=$((n - 1))
    [ $n -gt 0 ] || die "timed out after ${secs}s waiting for $what"
    sleep 0.1
  done
}

# stop_pid FILE SECONDS: SIGTERM to the PID in FILE, then SIGKILL if it outlives SECONDS.
stop_pid() {
  local f=$1 secs=$2 pid
  [ -s "$f" ] || return 0
  pid=$(cat "$f")
  if kill -0 "$pid" 2>/dev/null; then
    kill -TERM "$pid" 2>/dev/null || true
    local n=$((secs * 10))
    while kill -0 "$pid" 2>/dev/null && [ $n -gt 0 ]; do sleep 0.1; n=$((n - 1)); done
    if kill -0 "$pid" 2>/dev/null; then
      echo "fixture: $(basename "$f" .pid) ($pid) ignored SIGTERM for ${secs}s, killing" >&2
      kill -KILL "$pid" 2>/dev/null || true
    fi
  fi
  rm -f "$f"
}

stop() {
  [ -d "$D" ] || return 0
  if [ -f "$D/slurm.conf" ] && command -v scancel >/dev/null; then
    SLURM_CONF=$D/slurm.conf scancel --quiet --full --user=root 2>/dev/null || true  # jobs of this cluster only
  fi
  stop_pid "$D/slurmd.pid" 10
  stop_pid "$D/slurmctld.pid" 10
  stop_pid "$D/munged.pid" 5
}

case "$cmd" in
  start) start ;;
  env) echo "export SLURM_CONF=$D/slurm.conf" ;;
  stop) stop ;;
  *) echo "usage: fixture.sh start|env|stop DIR" >&2; exit 64 ;;
esac
