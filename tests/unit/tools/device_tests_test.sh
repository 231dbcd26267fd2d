#!/bin/bash
# tools/device-tests.sh with a fake ctest: each test's outcome named as it was (passed, failed,
# skipped, not found, stopped at the deadline), a test whose estimate does not fit left
# unstarted, exit 1 where any one did not pass, and a malformed TEST:SECONDS refused first.
set -uo pipefail
tool=$1
fail() { echo "FAIL: $*" >&2; exit 1; }
work=$(mktemp -d)
trap 'rm -rf "$work"' EXIT
mkdir -p "$work/bin" "$work/build"
touch "$work/build/labbook" "$work/build/labbook-grade"
chmod +x "$work/build/labbook" "$work/build/labbook-grade"
printf '#!/bin/sh\necho "fake $0"\n' >"$work/bin/nvidia-smi"
cat >"$work/bin/ctest" <<'FAKE'
#!/bin/bash
case $2 in
  '^passes$') echo "100% tests passed, 0 tests failed out of 1" ;;
  '^fails$') echo "0% tests passed, 1 tests failed out of 1"; exit 8 ;;
  '^skips$') echo "1/1 Test #1: skips ....***Skipped   0.01 sec"; echo "100% tests passed, 0 tests failed out of 1" ;;
  '^slow$') sleep 20 ;;
  *) echo "No tests were found!!!" ;;
esac
FAKE
chmod +x "$work/bin/nvidia-smi" "$work/bin/ctest"
run() { (cd "$work" && PATH="$work/bin:$PATH" bash "$tool" "$work/out" "$@"); }

printed=$(run 4 passes:1 fails:1 skips:1 missing:1 huge:100 slow:1)
rc=$?
[ $rc -eq 1 ] || fail "exit $rc with failures, not 1"
for line in "passes: passed" "fails: FAILED" "skips: skipped" "missing: no such test" "not started: huge" \
             "slow: stopped at the deadline"; do
  grep -qF "$line" <<<"$printed" || fail "no '$line' in: $printed"
done
[ -s "$work/out/fails.log" ] || fail "no log kept for a failed test"
run 30 passes:1 >/dev/null || fail "exit $? when every test passed"
for outcome in fails:1 skips:1 missing:1 huge:100; do
  run 30 passes:1 "$outcome" >/dev/null && fail "exit 0 with $outcome"
done
grep -q "not started: passes" <<<"$(run 0 passes:0)" || fail "a test started with no time left"
message=$(run 30 passes:1 bad 2>&1)
rc=$?
[ $rc -eq 2 ] && grep -q "'bad' is not TEST:SECONDS" <<<"$message" || fail "a malformed test spec: exit $rc, '$message'"
grep -q "passes" <<<"$message" && fail "a test ran before the malformed spec was refused"
echo "device-tests.sh: outcomes, deadline and exit codes as expected"
