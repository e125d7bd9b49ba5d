#!/usr/bin/env bash
# @brief Installs, builds, fetches the real data and runs every test; then the core, io and seg tests
# under AddressSanitizer + UBSan and a short run of every fuzz target.
set -euo pipefail
cd "$(dirname "$0")/.."
bash packaging/build.sh
# A plain assignment, so a failed fetch stops the run here instead of letting real-data tests skip.
data=$(bash tests/fetch-data.sh)
export LUCENT_DATA=$data
export CCACHE_DIR=${CCACHE_DIR:-$HOME/.cache/lucent/ccache}
# Configure again so the tests see where the data is.
cmake -S . -B build -DLUCENT_DATA="$LUCENT_DATA" >/dev/null
(cd build && ctest -j"$(nproc)" --output-on-failure --timeout 600)

# The core, io and seg tests again, built with -fsanitize=address,undefined in a folder of their
# own (CPU only, no viewer): any report aborts the test binary and so fails the run.
started=$SECONDS
echo "sanitizers: building the core, io and seg tests with address,undefined (build-sanitize/)"
mkdir -p build-sanitize
log=build-sanitize/build.log
cmake -S . -B build-sanitize -G Ninja -DCMAKE_BUILD_TYPE=Release -DLUCENT_SANITIZE=address,undefined \
  -DLUCENT_WITH_CUDA=OFF -DLUCENT_WITH_GUI=OFF -DLUCENT_BUILD_BENCHMARKS=OFF -DLUCENT_DATA="$LUCENT_DATA" \
  >"$log" 2>&1 || { cat "$log"; exit 1; }
cmake --build build-sanitize -j"$(nproc)" --target lucent_core_tests lucent_io_tests lucent_seg_tests \
  >>"$log" 2>&1 || { tail -50 "$log"; exit 1; }
export UBSAN_OPTIONS=${UBSAN_OPTIONS:-print_stacktrace=1}
for t in core io seg; do
  echo "sanitizers: lucent_${t}_tests"
  build-sanitize/bin/lucent_${t}_tests --gtest_brief=1
done
echo "sanitizers: passed in $((SECONDS - started)) s"

# Every fuzz target for 20 s (clang, libFuzzer, ASan + UBSan; build-fuzz/): a finding fails the run.
started=$SECONDS
bash tests/fuzz/run.sh 20
echo "fuzzing: passed in $((SECONDS - started)) s"
echo "test.sh: CTest, sanitizer tests and fuzzing passed"
