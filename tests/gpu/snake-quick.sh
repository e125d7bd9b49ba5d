#!/usr/bin/env bash
# @brief On the GPU machine, the snake's quick loop in one call: build the GPU tests, the GPU benchmark
# and the CLI (build-device/, no DICOM or GUI), run the snake's GPU and host tests, compute-sanitizer
# memcheck and racecheck on the small case, `lucent_bench_gpu --snake-only` once per EXTRA_ENVS entry
# ("-" for none, VAR=VALUE, several joined by commas), then with LUCENT_SNAKE_PROFILE=1, and the real
# CT head through `lucent segment` on both backends. Data: .carry/data (cranium, itk), when carried.
# A tree to compare with in the same call: `git archive --format=tar COMMIT > .carry/old.tar`.
# usage: OUT=DIR [TESTS=filter] [SANITIZE=0] [PROFILE=0] [CTHEAD=0] [EXTRA_ENVS="- A=1 B=2,C=3"] bash tests/gpu/snake-quick.sh
set -uo pipefail
out=${OUT:-/tmp/out}; mkdir -p "$out"
cd "$(dirname "$0")/../.."
export PATH=/usr/local/cuda/bin:$PATH
export LUCENT_DATA=$(pwd)/.carry/data
{
nvidia-smi --query-gpu=name,driver_version,clocks.sm --format=csv,noheader
cmake -S . -B build-device -G Ninja -DCMAKE_BUILD_TYPE=Release -DLUCENT_WITH_DICOM=OFF -DLUCENT_WITH_GUI=OFF \
  -DCMAKE_CUDA_ARCHITECTURES="90-real;90-virtual" -DLUCENT_DATA="$LUCENT_DATA" > "$out/cmake.log" 2>&1 || tail -20 "$out/cmake.log"
time cmake --build build-device -j16 --target lucent_gpu_tests lucent_bench_gpu lucent 2>&1 | grep -E "error|FAILED" | head -20
if [[ -f .carry/old.tar ]]; then
  mkdir -p /tmp/old && tar -xf .carry/old.tar -C /tmp/old
  (cd /tmp/old && cmake -S . -B b -G Ninja -DCMAKE_BUILD_TYPE=Release -DLUCENT_WITH_DICOM=OFF -DLUCENT_WITH_GUI=OFF \
    -DCMAKE_CUDA_ARCHITECTURES="90-real" > "$out/old-cmake.log" 2>&1 && cmake --build b -j12 --target lucent_bench_gpu > "$out/old-build.log" 2>&1) &
  oldpid=$!
fi
echo "== snake tests"
build-device/bin/lucent_gpu_tests --gtest_filter="${TESTS:-CudaSnake*:SnakeReplica*}" > "$out/tests.log" 2>&1
grep -E "^\[ +(OK|SKIPPED|FAILED|PASSED) +\]|tests ran" "$out/tests.log" | tail -30
if [[ ${SANITIZE:-1} == 1 ]]; then
  for tool in memcheck racecheck; do
    timeout 200 compute-sanitizer --tool $tool --error-exitcode 9 build-device/bin/lucent_gpu_tests \
      --gtest_filter='CudaSnake.SmallCasesForTheSanitizers' > "$out/sanitizer-$tool.log" 2>&1
    echo "$tool exit $? ($(grep -cE '^========= (Invalid|Race|Error)' "$out/sanitizer-$tool.log") reports): $(tail -1 "$out/sanitizer-$tool.log")"
  done
fi
[[ -n ${oldpid:-} ]] && { wait $oldpid; echo "old build: $(tail -1 $out/old-build.log)"; }
} 2>&1 | tee "$out/check.log"
if [[ -x /tmp/old/b/bin/lucent_bench_gpu ]]; then
  echo "== bench OLD (HEAD before this change)" | tee -a "$out/bench.log"
  /tmp/old/b/bin/lucent_bench_gpu --snake-only 2>&1 | tee -a "$out/bench.log"
fi
for envs in ${EXTRA_ENVS:--}; do
  echo "== bench $envs" | tee -a "$out/bench.log"
  if [[ $envs == - ]]; then build-device/bin/lucent_bench_gpu --snake-only 2>&1 | tee -a "$out/bench.log"
  else env ${envs//,/ } build-device/bin/lucent_bench_gpu --snake-only 2>&1 | tee -a "$out/bench.log"; fi
done
if [[ ${PROFILE:-1} == 1 ]]; then
  echo "== profile" | tee -a "$out/bench.log"
  LUCENT_SNAKE_PROFILE=1 build-device/bin/lucent_bench_gpu --snake-only --repeats 1 2>&1 | tee -a "$out/bench.log"
fi
if [[ ${CTHEAD:-1} == 1 ]]; then
  echo "== CT head" | tee -a "$out/bench.log"
  for b in cuda cpu; do
    build-device/bin/lucent segment .carry/data/cranium/cranium.mhd --method snake --slice 54 --rect 30,30,225,225 \
      --backend $b -o "$out/head-$b.nii" --stats "$out/head-$b.json" 2>&1 | tail -3; cat "$out/head-$b.json"; echo | tee -a "$out/bench.log"
  done
  cmp "$out/head-cuda.nii" "$out/head-cpu.nii" && echo "masks identical" | tee -a "$out/bench.log"
fi
