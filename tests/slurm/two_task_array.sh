#!/bin/bash
# A real two-task Slurm job array on this machine, with the GPU stage skipped: a one-node
# cluster (munged, slurmctld and slurmd from Debian's packages; `tools/install-deps slurm`
# installs them) in a temporary folder, `labbook grade --slurm --build-only` for the planted
# lab4-soa class in tasks of 4, `sbatch --wait`, then: each task's log names exactly its
# slice's students with what their build said, and `--collect` names every student not
# graded (no task ran a GPU stage). Skips (77) without the daemons or without root, which
# they run as here.
#   two_task_array.sh LABBOOK SOURCE
set -uo pipefail
lb=$(readlink -f "$1"); source=$2
for tool in munged slurmctld slurmd sbatch sinfo scontrol; do
  command -v "$tool" >/dev/null || { echo "no $tool (tools/install-deps slurm installs Slurm): skipped"; exit 77; }
done
[ "$(id -u)" = 0 ] || { echo "not root: the one-node cluster's daemons need it; skipped"; exit 77; }

base=$(mktemp -d)
chmod 711 "$base"   # the sandbox's users pass through to grades/; munge/ stays private
planted=$base/class
bash "$source/tests/grading/copy_fixed_class.sh" "$source" "$planted"
export SLURM_CONF=$base/slurm.conf
stop_cluster() {
  scontrol shutdown >/dev/null 2>&1
  for pid_file in "$base"/slurmd.pid "$base"/slurmctld.pid "$base"/munged.pid; do
    [ -f "$pid_file" ] && kill "$(cat "$pid_file")" 2>/dev/null
  done
  sleep 1
  rm -rf "$base"
}
trap stop_cluster EXIT
failures=0
fail() { echo "FAIL: $*"; failures=$((failures + 1)); }
ok() { echo "ok: $*"; }

# munged with its own key and socket, so that a machine's own munge is neither needed nor touched.
mkdir -p "$base"/munge "$base"/state "$base"/spool
chmod 700 "$base"/munge
dd if=/dev/urandom of="$base/munge/key" bs=1024 count=1 status=none
chmod 400 "$base/munge/key"
munged --force --key-file="$base/munge/key" --socket="$base/munge/socket" --pid-file="$base/munged.pid" \
  --log-file="$base/munged.log" --seed-file="$base/munge/seed" || { cat "$base/munged.log"; fail "munged did not start"; exit 1; }

# Ports away from a real cluster's 6817/6818, varied so that two runs at once do not collide.
port=$((20000 + ($$ % 20000) * 2))
cat >"$SLURM_CONF" <<CONF
ClusterName=labbooktest
SlurmctldHost=localhost
SlurmctldPort=$port
SlurmdPort=$((port + 1))
AuthType=auth/munge
CredType=cred/munge
AuthInfo=socket=$base/munge/socket
SlurmUser=root
SlurmdUser=root
StateSaveLocation=$base/state
SlurmdSpoolDir=$base/spool
SlurmctldPidFile=$base/slurmctld.pid
SlurmdPidFile=$base/slurmd.pid
SlurmctldLogFile=$base/slurmctld.log
SlurmdLogFile=$base/slurmd.log
ProctrackType=proctrack/linuxproc
TaskPlugin=task/none
SelectType=select/cons_tres
SelectTypeParameters=CR_CPU
JobAcctGatherType=jobacct_gather/none
MpiDefault=none
ReturnToService=2
NodeName=localhost CPUs=$(nproc) RealMemory=1000 State=UNKNOWN
PartitionName=debug Nodes=ALL Default=YES MaxTime=INFINITE State=UP
CONF
slurmctld -c && slurmd -c || { tail -5 "$base"/*.log; fail "the Slurm daemons did not start"; exit 1; }
for _ in $(seq 60); do
  [ "$(sinfo -h -o %T 2>/dev/null)" = idle ] && break
  sleep 0.5
done
[ "$(sinfo -h -o %T 2>/dev/null)" = idle ] || { tail -5 "$base"/*.log; fail "the node never became idle"; exit 1; }
ok "a one-node cluster is up ($(sinfo -h -o '%N, %c CPUs'))"

out=$base/grades
"$lb" grade lab4-soa "$planted" --out "$out" --slurm --build-only --per-task 4 --time-limit 10 >"$base/slurm.out" ||
  { cat "$base/slurm.out"; fail "--slurm --build-only failed"; exit 1; }
script=$out/slurm/grade.sbatch
grep -q -- '--gres' "$script" && fail "a build-only array asks for GPUs: $(grep -- --gres "$script")"
rc=0
timeout 600 sbatch --wait --quiet "$script" || rc=$?
# Each task holds a submission that does not build or is refused, so each exits 1 and
# sbatch --wait says the array failed.
[ "$rc" = 1 ] && ok "sbatch --wait: exit 1 (each task has a submission that does not build)" || fail "sbatch --wait exited $rc"

expect_log() {   # expect_log TASK STUDENT:STATUS...: the task's log says exactly these, in order
  local task=$1; shift
  local log=$out/slurm/task-$task.log
  [ -f "$log" ] || { fail "task $task wrote no log"; return; }
  local said; said=$(grep -E '^[a-z_]+: (builds|does not build|refused)' "$log" | sed -E 's/^([a-z_]+): (builds|does not build|refused).*/\1:\2/')
  local want; want=$(printf '%s\n' "$@")
  [ "$said" = "$want" ] && ok "task $task built its own slice: $(echo $said)" ||
    fail "task $task: its log says [$(echo $said)], not [$(echo $want)]; log: $(cat "$log")"
}
expect_log 0 ada_fast:builds bob_slow:builds carl_wrong:builds "dana_nocompile:does not build"
expect_log 1 eve_loop:builds finn_oob:builds gina_snoop:refused hugo_off_by_one:builds

rc=0
"$lb" grade --collect "$out" >"$base/collect.out" 2>&1 || rc=$?
everyone="ada_fast, bob_slow, carl_wrong, dana_nocompile, eve_loop, finn_oob, gina_snoop, hugo_off_by_one"
[ "$rc" = 1 ] && grep -qF "8 students not graded (no score.json), left out of the class files: $everyone" "$base/collect.out" &&
  ok "--collect: exit 1, all 8 students named as not graded (no task ran a GPU stage)" ||
  fail "--collect exited $rc: $(cat "$base/collect.out")"

[ "$failures" = 0 ] || { echo "$failures failure(s)"; exit 1; }
