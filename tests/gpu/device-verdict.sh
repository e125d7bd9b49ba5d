#!/usr/bin/env bash
# @brief device-check.sh's verdict from its logs in OUT_DIR: exits 1 when any part failed, else 0.
# Failed: a step's "... exit N" line with N > 0 (ctest, the skip check, compute-sanitizer, the live
# tests), ctest's summary with failures ("N tests failed", N > 0; "0 tests failed" is a pass), a
# GoogleTest "[  FAILED  ]" line, or (with live-cuda.log) a live test skipped on the GPU machine.
# tests/ci/test_ci_checks.py feeds it made-up logs.
# usage: bash tests/gpu/device-verdict.sh OUT_DIR
set -uo pipefail
out=${1:?usage: device-verdict.sh OUT_DIR}
log=$out/device-check.log
[[ -f $log ]] || { echo "device-check: no log at $log"; exit 1; }
failed=0
if grep -E "exit [1-9][0-9]*( |\(|$)" "$log"; then failed=1; fi
if grep -E "[0-9]+% tests passed, [1-9][0-9]* tests? failed" "$log"; then failed=1; fi
if grep -E "^\[  FAILED  \]|\((Failed|Timeout|SEGFAULT|Subprocess aborted|Not Run)\)" "$log"; then failed=1; fi
if [[ -f $out/live-cuda.log ]] && grep -E "^\[  SKIPPED \]" "$out/live-cuda.log"; then
  echo "device-check: a live test skipped on the GPU machine"; failed=1
fi
[[ $failed == 0 ]] && echo "device-check: every part passed" || echo "device-check: FAILED (the lines above)"
exit $failed
