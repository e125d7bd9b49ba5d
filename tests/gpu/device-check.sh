#!/usr/bin/env bash
# @brief On the GPU machine (CUDA toolkit, cmake, GoogleTest sources; no DCMTK, Qt or VTK): build core,
# gpu, the CLI, the tests and the GPU benchmark without the optional parts; run every test (the GPU
# tests against the CPU engines, on the real CT head when .carry/data holds it); compute-sanitizer
# memcheck and racecheck on small cases; with --viewer, the viewer's live tests on CUDA through
# NVIDIA OpenGL (the bundle from tests/gpu/device-viewer-bundle.sh, built where Qt is); then the
# benchmark and its cupyx peer. One call does all. Exits non-zero when any part failed.
# usage: bash tests/gpu/device-check.sh OUT_DIR [--no-bench] [--viewer BUNDLE.tar.xz]
set -uo pipefail
out=${1:-/tmp/lucent-device}
shift || true
bench=1 viewer=""
while [[ $# -gt 0 ]]; do
  case $1 in
    --no-bench) bench=0 ;;
    --viewer) viewer=$(readlink -f "$2"); shift ;;
    *) echo "device-check: unknown option $1" >&2; exit 2 ;;
  esac
  shift
done
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
  rm -rf build-device/test-results
  (cd build-device && ctest -j8 --no-tests=error --output-on-failure --timeout 300 \
    --output-junit "$PWD/test-results/ctest.xml" >"$out/ctest.log" 2>&1)
  echo "ctest exit $?"
  grep -E "tests passed|tests failed|The following tests FAILED|\(Failed\)" "$out/ctest.log"
  tail -25 "$out/ctest.log"
  # Here a device is present: a CUDA test that skips fails (tests/allowed-skips.txt allows those skips
  # only without a device); the rest of the suite is CI's (packaging/test.sh), so only the GPU suites.
  python3 tests/ci/check_tests.py build-device --junit build-device/test-results/ctest.xml \
    --only 'Cuda*,DeviceVolume.*,GpuContext.*,GpuMemoryLimit.*,LargeVolumeCuda.*,SnakeProgram.*,SnakeReplica.*,gl_interop'
  echo "skip check exit $?"
  echo "== GPU tests, one line each"
  # The 2^32-voxel test ran in ctest above (a minute or more): its line from there, not a second run.
  grep -E "LargeVolumeCuda\." "$out/ctest.log" | head -3
  build-device/bin/lucent_gpu_tests --gtest_filter='-LargeVolumeCuda.*' 2>&1 | grep -E "^\[ +(OK|SKIPPED|FAILED) +\]" | head -40
  echo "== compute-sanitizer"
  small='CudaEngines.SmallCasesForTheSanitizers:CudaRegionGrowing.CheckerboardSeparatesFacesJoinsCorners:CudaSnake.SmallCasesForTheSanitizers:CudaGrowCut.RoiAndMaskAsTheCpu'
  for tool in memcheck racecheck; do
    timeout 150 compute-sanitizer --tool $tool --error-exitcode 9 build-device/bin/lucent_gpu_tests --gtest_filter="$small" \
      >"$out/sanitizer-$tool.log" 2>&1
    rc=$?
    grep -E "^\[ +(OK|FAILED) +\]" "$out/sanitizer-$tool.log"
    echo "$tool exit $rc ($(grep -cE '^========= (Invalid|Race|Error)' "$out/sanitizer-$tool.log") reports): $(tail -1 "$out/sanitizer-$tool.log")"
  done
  if [[ -n $viewer ]]; then
    # LUCENT_LIVE_BACKEND=cuda: every live test runs its engines on CUDA, and the tests of the device
    # paths (interop, soft maps, the device-filled volume texture) fail instead of skipping without one.
    echo "== viewer live tests on CUDA ($(basename "$viewer"))"
    LUCENT_LIVE_BACKEND=cuda bash "$(dirname "$viewer")/viewer-run.sh" "$viewer" -- lucent_live_tests \
      >"$out/live-cuda.log" 2>&1
    echo "lucent_live_tests exit $?"
    grep -E "^\[ +(OK|SKIPPED|FAILED) +\]|tests? ran|PASSED|FAILED TEST" "$out/live-cuda.log"
  fi
} 2>&1 | tee "$out/device-check.log"
failed=0
bash tests/gpu/device-verdict.sh "$out" || failed=1
if [[ $bench == 1 ]]; then
  {
    build-device/bin/lucent_bench_gpu --dump /tmp/lucent-bench
    python3 tests/bench/gpu_peers.py /tmp/lucent-bench
    # Grow from seeds (issue 46): CUDA's first run at 512^3 and update at 512 x 512 x 400 (the CPU rows: BENCHMARKS.md).
    build-device/bin/lucent_bench_growcut --sizes 512x512x512,512x512x400 --backends cuda --no-slicer --repeats 5
  } 2>&1 | tee "$out/bench.log"
fi
exit $failed
