#!/usr/bin/env bash
# dcsim sweeps as job arrays of a real Slurm (issue 30): a single-node
# cluster of Debian's slurmctld, slurmd and munge, started here by hand
# (no systemd) on a private configuration in a temporary folder, with its
# own state, spool, logs, ports, munge key and socket; clients reach it
# through SLURM_CONF. The arrays submit scripts/slurm/sweep.sbatch, the
# script docs/cluster.md shows.
#
#   bash tests/cluster/slurm.sh        (bash scripts/test runs it)
#
# Checks: arrays 0-3, 1-4%2 and 0-6:2 merge to the unsharded sweep's
# bytes, and so does a merge job submitted with --dependency=afterok;
# the task's --jobs default is its --cpus-per-task; the same range
# resubmitted with --skip-existing reruns nothing, and after one result is
# deleted reruns only that run; a partial resubmission (--array=2,
# --array=1,3) fails, names the fix and writes nothing; a `dcsim
# reproduce --quick` array (scripts/slurm/reproduce.sbatch) merges to the
# unsharded report's CSV, and resubmitted reruns nothing.
#
# Installs the packages when missing (apt-get; sudo when not root). Where
# it cannot run, prints `slurm: skipped (REASON)`; DCSIM_SKIP_SLURM=1 skips
# it on purpose. Every daemon it starts is stopped by its PID on exit.
# The last line is `slurm: N passed, N failed (S s)`. About 15 s once the
# packages are installed. DCSIM_SLURM_KEEP=1 keeps the temporary folder.
set -uo pipefail
cd "$(dirname "$0")/../.." || exit 1
ROOT=$PWD
DCSIM=${DCSIM:-$ROOT/engine/target/release/dcsim}
SWEEP_SBATCH=$ROOT/scripts/slurm/sweep.sbatch
SCENARIO=$ROOT/scenarios/websearch-leaf-spine.json
export PATH="$PATH:/usr/sbin:/sbin"
T0=$SECONDS

skip() {
  echo "slurm: skipped ($*)"
  exit 0
}
[ -n "${DCSIM_SKIP_SLURM:-}" ] && skip "DCSIM_SKIP_SLURM is set"
[ "$(uname -s)" = Linux ] || skip "Slurm's daemons need Linux"
if [ ! -x "$DCSIM" ]; then
  echo "slurm: $DCSIM is not built (bash scripts/setup --native)"
  echo "slurm: 0 passed, 1 failed"
  exit 1
fi
SUDO=()
if [ "$(id -u)" -ne 0 ]; then
  sudo -n true 2>/dev/null || skip "not root, and no password-less sudo to install and start the daemons"
  SUDO=(sudo -n)
fi

have_slurm() { command -v munged && command -v slurmctld && command -v slurmd && command -v sbatch; } >/dev/null 2>&1
if ! have_slurm; then
  command -v apt-get >/dev/null || skip "Slurm is not installed and there is no apt-get to install it"
  echo "slurm: installing Debian's slurmctld slurmd slurm-client munge"
  t=$SECONDS
  # Waits for another apt (DPkg::Lock::Timeout) rather than failing.
  if ! { "${SUDO[@]}" apt-get -o DPkg::Lock::Timeout=300 update -qq &&
         "${SUDO[@]}" env DEBIAN_FRONTEND=noninteractive apt-get -o DPkg::Lock::Timeout=300 install -y -qq \
           --no-install-recommends slurmctld slurmd slurm-client munge; } >/tmp/dcsim-slurm-apt.log 2>&1; then
    tail -5 /tmp/dcsim-slurm-apt.log
    skip "apt-get could not install slurmctld slurmd slurm-client munge: see /tmp/dcsim-slurm-apt.log"
  fi
  echo "slurm: installed in $((SECONDS - t)) s"
  have_slurm || skip "installed, but munged, slurmctld, slurmd or sbatch is still missing"
fi

# ---------------------------------------------------------------- checks
passed=0
failed=0
pass() {
  passed=$((passed + 1))
  echo "slurm: ok - $*"
}
fail() {
  failed=$((failed + 1))
  echo "slurm: FAIL - $*"
}
finish() {
  echo "slurm: $passed passed, $failed failed ($((SECONDS - T0)) s)"
  [ "$failed" -eq 0 ] && [ "$passed" -gt 0 ]
  exit
}

# ------------------------------------------------ a private single-node Slurm
T=$(mktemp -d /tmp/dcsim-slurm.XXXXXX)
chmod 755 "$T"
mkdir -p "$T/work" "$T/out" "$T/logs"
"${SUDO[@]}" mkdir -p "$T/munge" "$T/state" "$T/spool" "$T/log" "$T/run"
"${SUDO[@]}" chmod 700 "$T/munge" "$T/state" "$T/spool"
"${SUDO[@]}" chmod 755 "$T/munge"   # clients reach the socket through it
DAEMONS=()   # PIDs of what this script started
JOBS=()      # job ids submitted to it
# shellcheck disable=SC2317  # run by the EXIT trap
cleanup() {
  if [ ${#JOBS[@]} -gt 0 ]; then
    scancel "${JOBS[@]}" 2>/dev/null
  fi
  local p
  for p in "${DAEMONS[@]}"; do "${SUDO[@]}" kill "$p" 2>/dev/null; done
  for _ in $(seq 50); do
    local alive=0
    for p in "${DAEMONS[@]}"; do "${SUDO[@]}" kill -0 "$p" 2>/dev/null && alive=1; done
    [ "$alive" -eq 0 ] && break
    sleep 0.1
  done
  for p in "${DAEMONS[@]}"; do "${SUDO[@]}" kill -9 "$p" 2>/dev/null; done
  if [ -z "${DCSIM_SLURM_KEEP:-}" ]; then "${SUDO[@]}" rm -rf "$T"; else echo "slurm: kept $T"; fi
}
trap cleanup EXIT
trap 'exit 130' INT TERM

# Dies with the daemons' logs: nothing after this can be checked.
broken() {
  fail "$*"
  local f
  for f in "$T"/log/*.log "$T"/munge/munged.log; do
    [ -f "$f" ] && { echo "--- $f"; "${SUDO[@]}" tail -15 "$f"; }
  done
  finish
}

# Two free TCP ports next to each other (slurmctld's and slurmd's).
port_free() { ! (exec 3<>"/dev/tcp/127.0.0.1/$1") 2>/dev/null; }
for _ in $(seq 20); do
  PORT=$((20000 + RANDOM % 30000))
  port_free "$PORT" && port_free $((PORT + 1)) && break
done

HOST=$(hostname -s)
"${SUDO[@]}" dd if=/dev/urandom of="$T/munge/munge.key" bs=1024 count=1 status=none
"${SUDO[@]}" chmod 400 "$T/munge/munge.key"
"${SUDO[@]}" munged --foreground --force --key-file="$T/munge/munge.key" --socket="$T/munge/munge.socket" \
  --pid-file="$T/munge/munged.pid" --log-file="$T/munge/munged.log" --seed-file="$T/munge/munged.seed" \
  >"$T/logs/munged.out" 2>&1 &
DAEMONS+=($!)

export SLURM_CONF=$T/slurm.conf
write_conf() {
  cat >"$SLURM_CONF" <<EOF
ClusterName=dcsimtest
SlurmctldHost=$HOST(127.0.0.1)
SlurmctldPort=$PORT
SlurmdPort=$((PORT + 1))
AuthType=auth/munge
AuthInfo=socket=$T/munge/munge.socket
CredType=cred/munge
SlurmUser=root
SlurmdUser=root
StateSaveLocation=$T/state
SlurmdSpoolDir=$T/spool
SlurmctldPidFile=$T/run/slurmctld.pid
SlurmdPidFile=$T/run/slurmd.pid
SlurmctldLogFile=$T/log/slurmctld.log
SlurmdLogFile=$T/log/slurmd.log
PlugStackConfig=$T/plugstack.conf
ProctrackType=proctrack/linuxproc
TaskPlugin=task/none
SelectType=select/cons_tres
SelectTypeParameters=CR_Core
SchedulerType=sched/builtin
SchedulerParameters=batch_sched_delay=0
AccountingStorageType=accounting_storage/none
JobAcctGatherType=jobacct_gather/none
JobCompType=jobcomp/none
MpiDefault=none
MailProg=/bin/true
ReturnToService=2
MinJobAge=600
$1
PartitionName=test Nodes=ALL Default=YES MaxTime=INFINITE State=UP
EOF
}
: >"$T/plugstack.conf"
# The node as slurmd sees this machine (cores, sockets, threads, memory).
write_conf ""
NODE=$(slurmd -C 2>/dev/null | grep -m1 '^NodeName=' | sed -e "s/^NodeName=[^ ]*/NodeName=$HOST NodeAddr=127.0.0.1/" -e 's/ UpTime=.*//')
[ -n "$NODE" ] || NODE="NodeName=$HOST NodeAddr=127.0.0.1 CPUs=$(nproc) RealMemory=$(($(awk '/MemTotal/ {print $2}' /proc/meminfo) / 1024))"
write_conf "$NODE State=UNKNOWN"

for _ in $(seq 50); do [ -S "$T/munge/munge.socket" ] && break; sleep 0.1; done
[ -S "$T/munge/munge.socket" ] || broken "munged did not start"
"${SUDO[@]}" env SLURM_CONF="$SLURM_CONF" slurmctld -D -i >"$T/logs/slurmctld.out" 2>&1 &
DAEMONS+=($!)
"${SUDO[@]}" env SLURM_CONF="$SLURM_CONF" slurmd -D -N "$HOST" >"$T/logs/slurmd.out" 2>&1 &
DAEMONS+=($!)
state=""
for _ in $(seq 150); do
  state=$(sinfo -h -N -o %T 2>/dev/null | head -1)
  [ "$state" = idle ] && break
  sleep 0.2
done
[ "$state" = idle ] || broken "the node is not idle after 30 s (state: ${state:-no answer})"
pass "Slurm up in $((SECONDS - T0)) s: $NODE"

# ------------------------------------------------------- arrays and waiting
# submit_array VAR SCRIPT RANGE [SBATCH OPTION...]: submits SCRIPT as a
# job array (its output in $T/logs/<job>_<task>.out) and sets VAR to the
# job id. The job gets this shell's environment (sbatch's default), so set
# the script's variables before calling it.
submit_array() {
  local var=$1 script=$2 range=$3 id
  shift 3
  id=$(sbatch --parsable --array="$range" --chdir="$T/work" --output="$T/logs/%A_%a.out" "$@" "$script") || return 1
  id=${id%%;*}
  JOBS+=("$id")
  printf -v "$var" '%s' "$id"
}

# wait_jobs ID...: polls squeue until none of the jobs is pending or
# running (sbatch --wait polls slowly); fails after WAIT_S seconds (120).
wait_jobs() {
  local ids
  ids=$(
    IFS=,
    echo "$*"
  )
  for _ in $(seq $((${WAIT_S:-120} * 5))); do
    [ -z "$(squeue -h -j "$ids" -t PENDING,CONFIGURING,RUNNING,COMPLETING,SUSPENDED 2>/dev/null)" ] && return 0
    sleep 0.2
  done
  return 1
}

# task_states ID: one line per task of the array, `TASK STATE EXITCODE`,
# sorted by task id.
task_states() {
  scontrol -o show job "$1" | sed -E 's/.*ArrayTaskId=([0-9]+) .*JobState=([A-Z_]+) .* ExitCode=([0-9:]+) .*/\1 \2 \3/' | sort -n
}

# all_completed ID: whether every task ran to exit 0 (else prints the others).
all_completed() {
  local states
  states=$(task_states "$1")
  if [ -z "$states" ] || echo "$states" | grep -qv ' COMPLETED 0:0$'; then
    echo "$states" | grep -v ' COMPLETED 0:0$'
    return 1
  fi
}

# A task's output.
task_log() { cat "$T/logs/$1_$2.out" 2>/dev/null; }

# snapshot DIR: every result file with its inode and modification time.
snapshot() { (cd "$1" && stat -c '%n %i %Y.%y' -- [0-9a-f]*.json 2>/dev/null | sort); }

# ------------------------------------------------------------------ sweeps
# The grid of every array: 2 protocols x 2 loads x 2 seeds = 8 runs.
export DCSIM SCENARIO PROTOCOLS=pfabric,dctcp LOADS=0.3,0.6 SEEDS=1,2 FLOWS=40
WHOLE=$T/whole.csv
"$DCSIM" sweep "$SCENARIO" --protocols "$PROTOCOLS" --loads "$LOADS" --seeds "$SEEDS" --flows "$FLOWS" -o "$WHOLE" 2>/dev/null ||
  broken "the unsharded sweep failed"

# --------------------------------------------------- sweeps as job arrays
# sweep_array VAR NAME RANGE: submits scripts/slurm/sweep.sbatch as array
# RANGE writing to $T/out/NAME (one CPU a task); VAR gets the job id.
sweep_array() { OUT=$T/out/$2 submit_array "$1" "$SWEEP_SBATCH" "$3" --cpus-per-task=1; }
from0="" from1="" stepped="" again="" partial="" partial2=""   # job ids

# merged_is NAME JOB EXPECTED MERGE-COMMAND...: every task of JOB ran to
# exit 0, and MERGE-COMMAND prints EXPECTED's bytes.
merged_is() {
  local name=$1 job=$2 expected=$3 bad
  shift 3
  if ! bad=$(all_completed "$job"); then
    fail "$name: tasks did not complete: $bad $(task_log "$job" "$(echo "$bad" | head -1 | cut -d' ' -f1)" | tail -3)"
  elif ! "$@" >"$T/out/$name.csv" 2>"$T/out/$name.err"; then
    fail "$name: merge failed: $(cat "$T/out/$name.err")"
  elif ! cmp -s "$T/out/$name.csv" "$expected"; then
    fail "$name: merged CSV differs from the unsharded one ($(cmp "$T/out/$name.csv" "$expected"))"
  else
    pass "$name: $(task_states "$job" | wc -l) tasks, merged CSV = unsharded CSV ($(($(wc -l <"$expected") - 1)) rows)"
  fi
}

# merged_is_whole NAME JOB: the sweep array JOB (in $T/out/NAME) merges to
# the unsharded sweep's bytes.
merged_is_whole() { merged_is "$1" "$2" "$WHOLE" "$DCSIM" sweep merge "$T/out/$1"; }

# rerun_logs JOB: the tasks' closing lines, `TASK: N run(s) done, M already there`.
rerun_logs() {
  local f
  for f in "$T"/logs/"$1"_*.out; do
    printf '%s: %s\n' "$(basename "$f" .out | cut -d_ -f2)" "$(grep -Eo '[0-9]+ runs? done, [0-9]+ already there' "$f")"
  done | sort -n
}

t=$SECONDS
# From 0, from 1 with at most 2 tasks at a time (%2), and by steps of 2;
# then the merge as a job that waits for the first array (docs/cluster.md).
if ! sweep_array from0 from0 0-3 || ! sweep_array from1 from1 1-4%2 || ! sweep_array stepped stepped 0-6:2; then
  broken "sbatch failed"
fi
merge=$(sbatch --parsable --dependency=afterok:"$from0" --chdir="$T/work" --output="$T/logs/merge.out" \
  --wrap "'$DCSIM' sweep merge '$T/out/from0' -o '$T/out/from0-job.csv'") || broken "sbatch failed"
JOBS+=("$merge")
wait_jobs "$from0" "$from1" "$stepped" "$merge" || broken "the arrays did not finish in ${WAIT_S:-120} s"
merged_is_whole from0 "$from0"
merged_is_whole from1 "$from1"
merged_is_whole stepped "$stepped"
if cmp -s "$T/out/from0-job.csv" "$WHOLE"; then
  pass "merge job after --dependency=afterok: the unsharded CSV"
else
  fail "merge job after --dependency=afterok: $(cat "$T/logs/merge.out")"
fi
echo "slurm: three arrays of 4 tasks and a merge job in $((SECONDS - t)) s"

# The task's --jobs default: its --cpus-per-task (sweep.sbatch gives no --jobs).
if grep -q 'up to 1 at a time (SLURM_CPUS_PER_TASK=1)' "$T/logs/${from0}_0.out"; then
  pass "--cpus-per-task=1: one run at a time"
else
  fail "--cpus-per-task=1 did not set --jobs: $(tail -1 "$T/logs/${from0}_0.out")"
fi

# The same range again: every result is there, nothing reruns.
before=$(snapshot "$T/out/from0")
sweep_array again from0 0-3 || broken "sbatch failed"
wait_jobs "$again" || broken "the resubmission did not finish in ${WAIT_S:-120} s"
logs=$(rerun_logs "$again")
if all_completed "$again" >/dev/null && [ "$(snapshot "$T/out/from0")" = "$before" ] &&
  [ "$(echo "$logs" | grep -c ': 0 runs done, 2 already there')" -eq 4 ]; then
  pass "resubmitted 0-3 with --skip-existing: nothing reran"
else
  fail "resubmitted 0-3: something reran or failed: $logs"
fi

# One result deleted: the same range reruns only that run (run 7 of 8 is
# shard 3, task 2).
lost=$(sed -n 's/.*"file": "\([0-9a-f]*\.json\)".*/\1/p' "$T/out/from0/plan.json" | sed -n 7p)
rm -f "$T/out/from0/$lost"
before=$(snapshot "$T/out/from0")
# Part of the array first: refused, nothing written.
if ! sweep_array partial from0 2 || ! sweep_array partial2 from0 1,3; then broken "sbatch failed"; fi
wait_jobs "$partial" "$partial2" || broken "the partial resubmissions did not finish in ${WAIT_S:-120} s"
states="$(task_states "$partial") / $(task_states "$partial2")"
if [ "$(echo "$states" | grep -o FAILED | wc -l)" -eq 3 ] && [ "$(snapshot "$T/out/from0")" = "$before" ] &&
  grep -q -- '--array=0-3 (4 tasks) with --skip-existing' "$T/logs/${partial}_2.out" &&
  grep -q -- 'task 2 of --array=0-3 is --shard 3/4' "$T/logs/${partial}_2.out" &&
  grep -q -- 'not an evenly spaced range' "$T/logs/${partial2}_3.out"; then
  pass "partial resubmissions (--array=2, --array=1,3) refused, naming the fix, nothing written"
else
  fail "partial resubmissions: $states: $(task_log "$partial" 2 | tail -2)"
fi
sweep_array again from0 0-3 || broken "sbatch failed"
wait_jobs "$again" || broken "the resubmission did not finish in ${WAIT_S:-120} s"
logs=$(rerun_logs "$again")
after=$(snapshot "$T/out/from0")
if all_completed "$again" >/dev/null && [ -f "$T/out/from0/$lost" ] &&
  [ "$(echo "$logs" | grep -c ': 0 runs done, 2 already there')" -eq 3 ] && echo "$logs" | grep -q '^2: 1 run done, 1 already there' &&
  [ "$(comm -23 <(echo "$before") <(echo "$after"))" = "" ]; then
  pass "one result deleted: resubmitting 0-3 reran only it"
else
  fail "one result deleted: $logs"
fi
merged_is_whole from0 "$again"

# ------------------------------------------------ dcsim reproduce --quick
# The fidelity report as an array: scripts/slurm/reproduce.sbatch at the
# quick size, for four claims of three papers (the whole quick report takes
# minutes; engine/cli/tests/reproduce.rs merges it whole), merged into the
# unsharded report's CSV bytes; then resubmitted, rerunning nothing.
export QUICK=1 CLAIMS=pfabric-seamless,pfabric-pdq-one-packet,l2dct-vs-d2tcp,pase-optimizations-overhead
REPRODUCE_SBATCH=$ROOT/scripts/slurm/reproduce.sbatch
"$DCSIM" reproduce --quick -q --filter "$CLAIMS" --csv "$T/reproduce.csv" >/dev/null 2>&1 ||
  broken "the unsharded reproduce --quick failed"
reproduce_array() { OUT=$T/out/$2 submit_array "$1" "$REPRODUCE_SBATCH" "$3" --cpus-per-task=1; }
reproduce_csv() { "$DCSIM" reproduce merge "$1" --csv "$1-report.csv" >/dev/null && cat "$1-report.csv"; }
t=$SECONDS
rep="" rep_again=""
reproduce_array rep reproduce 1-3 || broken "sbatch failed"
wait_jobs "$rep" || broken "the reproduce array did not finish in ${WAIT_S:-120} s"
merged_is reproduce "$rep" "$T/reproduce.csv" reproduce_csv "$T/out/reproduce"
before=$(snapshot "$T/out/reproduce")
reproduce_array rep_again reproduce 1-3 || broken "sbatch failed"
wait_jobs "$rep_again" || broken "the reproduce resubmission did not finish in ${WAIT_S:-120} s"
if all_completed "$rep_again" >/dev/null && [ "$(snapshot "$T/out/reproduce")" = "$before" ] &&
  [ "$(grep -Eho ' 0 runs done' "$T"/logs/"$rep_again"_*.out | wc -l)" -eq 3 ]; then
  pass "reproduce array resubmitted 1-3: nothing reran"
else
  fail "reproduce array resubmitted 1-3: $(tail -qn1 "$T"/logs/"$rep_again"_*.out)"
fi
echo "slurm: reproduce --quick arrays in $((SECONDS - t)) s"

finish
