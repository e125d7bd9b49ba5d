#!/usr/bin/env bash
# @brief Installs, builds, fetches the real data and runs every test; then the sanitizer passes
# (AddressSanitizer + UBSan, ThreadSanitizer), a short run of every fuzz target and the Debian package test.
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
# --no-tests=error: a build that registered no test fails. Then tests/ci/check_tests.py: every test
# of tests/expected-tests.txt registered and run, none unlisted, and no skip (of a ctest test, of a
# GoogleTest case inside a viewer test, of a Python contract's part) that tests/allowed-skips.txt
# does not allow here.
rm -rf build/test-results
(cd build && ctest -j"$(nproc)" --no-tests=error --output-on-failure --timeout 600 \
  --output-junit "$PWD/test-results/ctest.xml")
python3 tests/ci/check_tests.py build --junit build/test-results/ctest.xml --inventory

# The sanitizer passes (tests/sanitize/run.sh, CPU engines, build folders of their own): address +
# undefined over the core, io, seg and surface tests and every viewer test; thread over the seg tests
# and the live and loader viewer tests. Any report aborts its test binary and so fails the run.
started=$SECONDS
bash tests/sanitize/run.sh address thread
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
