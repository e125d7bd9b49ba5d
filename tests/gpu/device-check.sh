#!/usr/bin/env bash
# @brief On the GPU machine (CUDA toolkit, cmake, GoogleTest sources; no DCMTK, Qt or VTK): build core,
# gpu, the CLI, the tests and the GPU benchmark without the optional parts; run every test (the GPU
# tests against the CPU engines, on the real CT head when .carry/data holds it); compute-sanitizer
# memcheck and racecheck on small cases; then the benchmark and its cupyx peer. One call does all.
# usage: bash tests/gpu/device-check.sh OUT_DIR [--no-bench]
set -uo pipefail
out=${1:-/tmp/lucent-device}
bench=1
[[ ${2:-} == --no-bench ]] && bench=0
mkdir -p "$out"
cd "$(dirname "$0")/../.."
export PATH=/usr/local/cuda/bin:$PATH
data=${LUCENT_DATA:-/nonexistent}
[[ -d .carry/data ]] && data=$(pwd)/.carry/data
export LUCENT_DATA=$data
{
  nvidia-smi --query-gpu=name,memory.total,driver_version,clocks.sm,clocks.mem --format=csv,noheader
  git rev-parse --short HEAD 2>/dev/null || true
  cmake -S . -B build-device -G Ninja -DCMAKE_BUILD_TYPE=Release -DLUCENT_WITH_DICOM=OFF -DLUCENT_WITH_GUI=OFF \
    -DCMAKE_CUDA_ARCHITECTURES="90-real;90-virtual" -DLUCENT_DATA="$data" 2>&1 | sed -n '/following features/,$p'
  time cmake --build build-device -j"$(nproc)" 2>&1 | grep -E "error|warning|FAILED" | head -40
  build-device/bin/lucent version
  # The summary line and any failures first: a long list of skipped tests (no real data carried)
  # would push them out of the tail.
  (cd build-device && ctest -j8 --output-on-failure --timeout 300 >"$out/ctest.log" 2>&1)
  grep -E "tests passed|tests failed|The following tests FAILED|\(Failed\)" "$out/ctest.log"
  tail -25 "$out/ctest.log"
  echo "== GPU tests, one line each"
  build-device/bin/lucent_gpu_tests 2>&1 | grep -E "^\[ +(OK|SKIPPED|FAILED) +\]" | head -40
  echo "== compute-sanitizer"
  small='CudaEngines.SmallCasesForTheSanitizers:CudaRegionGrowing.CheckerboardSeparatesFacesJoinsCorners:CudaSnake.SmallCasesForTheSanitizers'
  for tool in memcheck racecheck; do
    timeout 150 compute-sanitizer --tool $tool --error-exitcode 9 build-device/bin/lucent_gpu_tests --gtest_filter="$small" \
      >"$out/sanitizer-$tool.log" 2>&1
    grep -E "^\[ +(OK|FAILED) +\]" "$out/sanitizer-$tool.log"
    echo "$tool exit $? ($(grep -cE '^========= (Invalid|Race|Error)' "$out/sanitizer-$tool.log") reports): $(tail -1 "$out/sanitizer-$tool.log")"
  done
} 2>&1 | tee "$out/device-check.log"
if [[ $bench == 1 ]]; then
  {
    build-device/bin/lucent_bench_gpu --dump /tmp/lucent-bench
    python3 tests/bench/gpu_peers.py /tmp/lucent-bench
  } 2>&1 | tee "$out/bench.log"
fi
