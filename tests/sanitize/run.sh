#!/usr/bin/env bash
# @brief The sanitizer passes of packaging/test.sh, each in a build folder of its own (CPU engines):
#   address  build-sanitize/  -fsanitize=address,undefined: the core, io, seg and surface tests, then
#                             every viewer test under Xvfb (ctest label viewer: every *_ui test,
#                             reslice_ui_planes and pacs_ui included);
#   thread   build-tsan/      -fsanitize=thread: the seg, autosave and PACS tests (engines on several
#                             threads, the session worker, the autosave writer, the study database and
#                             retrieve jobs), the live, loader, 3D view and PACS viewer tests (worker,
#                             loader, surface jobs, retrieve jobs and the GUI thread together).
# Each pass builds only the targets it runs. Any report aborts the test binary and so fails the run;
# so does a skip that tests/allowed-skips.txt does not allow (tests/ci/check_tests.py reads ctest's
# and GoogleTest's reports). Qt, VTK and Mesa are not instrumented: tests/sanitize/tsan.supp and
# lsan.supp name what is theirs (each entry says why).
# usage: tests/sanitize/run.sh [address] [thread]   (default: both)
set -euo pipefail
cd "$(dirname "$0")/../.."
here=$PWD/tests/sanitize
passes=("$@"); [[ ${#passes[@]} -eq 0 ]] && passes=(address thread)
data=${LUCENT_DATA:-${XDG_CACHE_HOME:-$HOME/.cache}/lucent/data}

configure() {  # BUILD_DIR SANITIZERS
  mkdir -p "$1"
  cmake -S . -B "$1" -G Ninja -DCMAKE_BUILD_TYPE=Release -DLUCENT_SANITIZE="$2" -DLUCENT_WITH_CUDA=OFF \
    -DLUCENT_BUILD_BENCHMARKS=OFF -DLUCENT_DATA="$data" >"$1/build.log" 2>&1 || { cat "$1/build.log"; exit 1; }
}
build() {  # BUILD_DIR TARGETS...
  local dir=$1; shift
  cmake --build "$dir" -j"$(nproc)" --target "$@" >>"$dir/build.log" 2>&1 || { tail -50 "$dir/build.log"; exit 1; }
}
viewer_targets() {  # the executables of the viewer tests (label viewer), listed by tests/CMakeLists.txt
  cat "$1/tests/viewer-test-targets.txt"
}
gtest() {  # BUILD_DIR NAME: runs bin/NAME with an XML report for the skip check
  echo "sanitizers: $2"
  "$1/bin/$2" --gtest_brief=1 --gtest_output="xml:$1/test-results/$2.xml"
}
check_skips() {  # BUILD_DIR GTEST_NAMES...: the skips of this pass's ctest run and programs
  local dir=$1; shift
  python3 tests/ci/check_tests.py "$dir" --junit "$dir/test-results/ctest.xml" \
    $(for n in "$@"; do echo --gtest-xml "$dir/test-results/$n.xml"; done)
}

address_pass() {
  local started=$SECONDS
  echo "sanitizers: address,undefined (build-sanitize/)"
  configure build-sanitize address,undefined
  rm -rf build-sanitize/test-results
  # shellcheck disable=SC2046
  build build-sanitize lucent_core_tests lucent_io_tests lucent_seg_tests lucent_surface_tests \
    $(viewer_targets build-sanitize) lucent
  export UBSAN_OPTIONS=print_stacktrace=1 LSAN_OPTIONS=suppressions=$here/lsan.supp
  for t in core io seg surface; do gtest build-sanitize lucent_${t}_tests; done
  echo "sanitizers: the viewer tests (ctest -L viewer)"
  # Leaks are checked above; at a viewer's exit the GL driver, fontconfig and Qt's caches keep what
  # they allocated by design, so only use-after-free, overflows and undefined behaviour count here.
  (cd build-sanitize && ASAN_OPTIONS=detect_leaks=0 ctest -L '^viewer$' -j"$(nproc)" --no-tests=error \
    --output-on-failure --timeout 900 --output-junit "$PWD/test-results/ctest.xml")
  check_skips build-sanitize lucent_core_tests lucent_io_tests lucent_seg_tests lucent_surface_tests
  echo "sanitizers: address,undefined passed in $((SECONDS - started)) s"
}

thread_pass() {
  local started=$SECONDS
  echo "sanitizers: thread (build-tsan/)"
  configure build-tsan thread
  rm -rf build-tsan/test-results
  build build-tsan lucent_seg_tests lucent_autosave_tests lucent_pacs_tests lucent_pacs_model_tests \
    lucent_live_tests lucent_loader_tests lucent_view3d_tests lucent_pacs_ui_tests
  export TSAN_OPTIONS="halt_on_error=1 second_deadlock_stack=1 suppressions=$here/tsan.supp"
  for t in lucent_seg_tests lucent_autosave_tests lucent_pacs_tests lucent_pacs_model_tests; do gtest build-tsan $t; done
  echo "sanitizers: the live, loader, 3D view and PACS viewer tests"
  (cd build-tsan && ctest -R '^(live_ui|loader_ui|view3d_ui|pacs_ui)$' -j"$(nproc)" --no-tests=error --output-on-failure \
    --timeout 900 --output-junit "$PWD/test-results/ctest.xml")
  check_skips build-tsan lucent_seg_tests lucent_autosave_tests lucent_pacs_tests lucent_pacs_model_tests
  echo "sanitizers: thread passed in $((SECONDS - started)) s"
}

for p in "${passes[@]}"; do
  case $p in
    address) address_pass ;;
    thread) thread_pass ;;
    *) echo "usage: tests/sanitize/run.sh [address] [thread]" >&2; exit 2 ;;
  esac
done
