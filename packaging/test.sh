#!/usr/bin/env bash
# @brief Installs, builds, fetches the real data and runs every test; then the core, io and seg tests
# under AddressSanitizer + UBSan, a short run of every fuzz target and the Debian package test.
set -euo pipefail
cd "$(dirname "$0")/.."
bash packaging/build.sh
# A plain assignment, so a failed fetch stops the run here instead of letting real-data tests skip.
data=$(bash tests/fetch-data.sh)
export LUCENT_DATA=$data
export CCACHE_DIR=${CCACHE_DIR:-$HOME/.cache/lucent/ccache}
# Paths inside the checkout are hashed relative to it: a clone in another folder reuses the cache.
export CCACHE_BASEDIR=${CCACHE_BASEDIR:-$PWD} CCACHE_NOHASHDIR=${CCACHE_NOHASHDIR:-1}
# Configure again so the tests see where the data is.
cmake -S . -B build -DLUCENT_DATA="$LUCENT_DATA" >/dev/null
(cd build && ctest -j"$(nproc)" --output-on-failure --timeout 600)

# The core, io, seg and surface tests again, built with -fsanitize=address,undefined in a folder of their
# own (CPU only, no viewer): any report aborts the test binary and so fails the run.
started=$SECONDS
echo "sanitizers: building the core, io, seg and surface tests with address,undefined (build-sanitize/)"
mkdir -p build-sanitize
log=build-sanitize/build.log
cmake -S . -B build-sanitize -G Ninja -DCMAKE_BUILD_TYPE=Release -DLUCENT_SANITIZE=address,undefined \
  -DLUCENT_WITH_CUDA=OFF -DLUCENT_WITH_GUI=OFF -DLUCENT_BUILD_BENCHMARKS=OFF -DLUCENT_DATA="$LUCENT_DATA" \
  >"$log" 2>&1 || { cat "$log"; exit 1; }
cmake --build build-sanitize -j"$(nproc)" --target lucent_core_tests lucent_io_tests lucent_seg_tests lucent_surface_tests \
  >>"$log" 2>&1 || { tail -50 "$log"; exit 1; }
export UBSAN_OPTIONS=${UBSAN_OPTIONS:-print_stacktrace=1}
for t in core io seg surface; do
  echo "sanitizers: lucent_${t}_tests"
  build-sanitize/bin/lucent_${t}_tests --gtest_brief=1
done
echo "sanitizers: passed in $((SECONDS - started)) s"

# Every fuzz target for 20 s (clang, libFuzzer, ASan + UBSan; build-fuzz/): a finding fails the run.
started=$SECONDS
bash tests/fuzz/run.sh 20
echo "fuzzing: passed in $((SECONDS - started)) s"
# The Debian package made from build/ (already built, so only cpack runs), lintian on it, and the
# smoke test: apt installs it into a clean Debian 12 root (debootstrap), lucent runs there, and it is
# purged (tests/packaging/run.sh; about 4 minutes, the first time 1-2 more for the root).
# LUCENT_TEST_PACKAGE=0 skips it.
if [[ ${LUCENT_TEST_PACKAGE:-1} != 0 ]]; then
  bash tests/packaging/run.sh build
fi
echo "test.sh: CTest, sanitizer tests, fuzzing and the package test passed"
