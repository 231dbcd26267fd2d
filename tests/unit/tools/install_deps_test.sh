#!/bin/bash
# CPU test of tools/install-deps: which command it runs for which machine. Fake dpkg,
# apt-get, sudo and id on PATH record their calls; nothing is installed.
#   install_deps_test.sh SOURCE_DIR
set -uo pipefail
script=$1/tools/install-deps
work=$(mktemp -d)
trap 'rm -rf "$work"' EXIT
mkdir -p "$work/bin"
log=$work/calls

# FAKE_INSTALLED: packages dpkg knows; FAKE_UID: what id -u prints; FAKE_SUDO=ok|denied;
# FAKE_APT=ok|fail.
cat >"$work/bin/dpkg" <<'EOF'
#!/bin/bash
[ "$1" = -s ] && [[ " $FAKE_INSTALLED " == *" $2 "* ]]
EOF
cat >"$work/bin/apt-get" <<'EOF'
#!/bin/bash
echo "apt-get $*" >>"$FAKE_LOG"
[ "$FAKE_APT" = ok ]
EOF
cat >"$work/bin/sudo" <<'EOF'
#!/bin/bash
[ "$1" = -n ] || exit 1
[ "$FAKE_SUDO" = ok ] || exit 1
shift
[ "$1" = true ] && exit 0
echo -n "sudo " >>"$FAKE_LOG"
"$@"
EOF
cat >"$work/bin/id" <<'EOF'
#!/bin/bash
echo "$FAKE_UID"
EOF
chmod +x "$work/bin"/*

all="libcmark-gfm-dev libcmark-gfm-extensions-dev libtomlplusplus-dev nlohmann-json3-dev libcli11-dev libsimdjson-dev libgtest-dev libgmock-dev chromium bubblewrap libseccomp-dev zlib1g-dev"
failures=0
# expect NAME WANT_EXIT WANT_CALLS WANT_STDERR_PART ENV... -- ARGS...
expect() {
  local name=$1 want_exit=$2 want_calls=$3 want_err=$4; shift 4
  local envs=() args=()
  while [ "$1" != -- ]; do envs+=("$1"); shift; done; shift
  args=("$@")
  : >"$log"
  local rc=0
  env -i PATH="$work/bin:/usr/bin:/bin" FAKE_LOG="$log" FAKE_INSTALLED="$all" FAKE_UID=1000 FAKE_SUDO=denied \
      FAKE_APT=ok "${envs[@]}" bash "$script" "${args[@]}" >"$work/out" 2>"$work/err" || rc=$?
  local calls
  calls=$(cat "$log")
  if [ "$rc" != "$want_exit" ] || [ "$calls" != "$want_calls" ] || { [ -n "$want_err" ] && ! grep -qF -- "$want_err" "$work/err"; }; then
    echo "FAIL: $name: exit $rc (want $want_exit)"
    echo "  calls: [$calls]"; echo "  want:  [$want_calls]"
    echo "  stderr: $(cat "$work/err")"; echo "  want in stderr: $want_err"
    failures=$((failures + 1))
  else
    echo "ok: $name"
  fi
}

expect "everything installed: nothing to do" 0 "" "" --
grep -qx "labbook: the $(wc -w <<<"$all") Debian packages it needs are installed (tools/install-deps)" "$work/out" ||
  { echo "FAIL: everything installed: no line saying so, got [$(cat "$work/out")]"; failures=$((failures + 1)); }
expect "root, two missing: apt-get for exactly those" 0 \
  "apt-get update -q
apt-get install -y -q libtomlplusplus-dev libgmock-dev" "" \
  FAKE_UID=0 "FAKE_INSTALLED=libcmark-gfm-dev libcmark-gfm-extensions-dev nlohmann-json3-dev libcli11-dev libsimdjson-dev libgtest-dev chromium bubblewrap libseccomp-dev zlib1g-dev" --
expect "user with sudo -n: through sudo" 0 \
  "sudo apt-get update -q
sudo apt-get install -y -q doxygen" "" FAKE_SUDO=ok -- docs
expect "slurm: Slurm's daemons and munge besides" 0 \
  "apt-get update -q
apt-get install -y -q slurmctld slurmd slurm-client munge" "" FAKE_UID=0 -- slurm
expect "user without sudo: the one line to run, no apt-get" 1 "" \
  "install them with:  sudo apt-get install -y libcli11-dev" \
  "FAKE_INSTALLED=libcmark-gfm-dev libcmark-gfm-extensions-dev libtomlplusplus-dev nlohmann-json3-dev libsimdjson-dev libgtest-dev libgmock-dev chromium bubblewrap libseccomp-dev zlib1g-dev" --
expect "apt-get fails: exit 1 with the line" 1 \
  "apt-get update -q" "apt-get could not install libgtest-dev" \
  FAKE_UID=0 FAKE_APT=fail "FAKE_INSTALLED=libcmark-gfm-dev libcmark-gfm-extensions-dev libtomlplusplus-dev nlohmann-json3-dev libcli11-dev libsimdjson-dev libgmock-dev chromium bubblewrap libseccomp-dev zlib1g-dev" --
expect "LABBOOK_SKIP_DEPS=1: nothing, even with packages missing" 0 "" "" \
  LABBOOK_SKIP_DEPS=1 FAKE_INSTALLED= --
expect "bad argument: usage, exit 2" 2 "" "usage: tools/install-deps" -- everything

[ "$failures" -eq 0 ] || { echo "$failures case(s) failed"; exit 1; }
