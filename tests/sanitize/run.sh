#!/usr/bin/env bash
# @brief The sanitizer passes of packaging/test.sh, each in a build folder of its own (CPU engines):
#   address  build-sanitize/  -fsanitize=address,undefined: the core, io, seg and surface tests, then
#                             every viewer test under Xvfb (ctest's *_ui tests);
#   thread   build-tsan/      -fsanitize=thread: the seg tests (engines on several threads, the
#                             session worker), the live and loader viewer tests (worker, loader,
#                             surface jobs and the GUI thread together).
# Any report aborts the test binary and so fails the run. Qt, VTK and Mesa are not instrumented:
# tests/sanitize/tsan.supp and lsan.supp name what is theirs (each entry says why).
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
ui_targets() {  # the executables of the viewer tests that ctest runs under Xvfb
  sed -n 's/^ *lucent_ui_test(\([a-z0-9_]*\) \([a-z0-9_]*\) .*/\2/p' tests/CMakeLists.txt
}

address_pass() {
  local started=$SECONDS
  echo "sanitizers: address,undefined (build-sanitize/)"
  configure build-sanitize address,undefined
  # shellcheck disable=SC2046
  # pacs_ui (a Python driver around its QTest suite, defined where Orthanc and Qt Network are) is
  # among ctest's *_ui tests when the build has it: its executable is built too.
  local pacs=""
  (cd build-sanitize && ctest -N -R '^pacs_ui$' | grep -q pacs_ui) && pacs=lucent_pacs_ui_tests
  build build-sanitize lucent_core_tests lucent_io_tests lucent_seg_tests lucent_surface_tests $(ui_targets) $pacs lucent
  export UBSAN_OPTIONS=print_stacktrace=1 LSAN_OPTIONS=suppressions=$here/lsan.supp
  for t in core io seg surface; do
    echo "sanitizers: lucent_${t}_tests"
    build-sanitize/bin/lucent_${t}_tests --gtest_brief=1
  done
  echo "sanitizers: the viewer tests (ctest -R _ui$)"
  # Leaks are checked above; at a viewer's exit the GL driver, fontconfig and Qt's caches keep what
  # they allocated by design, so only use-after-free, overflows and undefined behaviour count here.
  (cd build-sanitize && ASAN_OPTIONS=detect_leaks=0 ctest -R '_ui$' -j"$(nproc)" --output-on-failure --timeout 900)
  echo "sanitizers: address,undefined passed in $((SECONDS - started)) s"
}

thread_pass() {
  local started=$SECONDS
  echo "sanitizers: thread (build-tsan/)"
  configure build-tsan thread
  build build-tsan lucent_seg_tests lucent_live_tests lucent_loader_tests
  export TSAN_OPTIONS="halt_on_error=1 second_deadlock_stack=1 suppressions=$here/tsan.supp"
  echo "sanitizers: lucent_seg_tests"
  build-tsan/bin/lucent_seg_tests --gtest_brief=1
  echo "sanitizers: the live and loader viewer tests"
  (cd build-tsan && ctest -R '^(live_ui|loader_ui)$' --output-on-failure --timeout 900)
  echo "sanitizers: thread passed in $((SECONDS - started)) s"
}

for p in "${passes[@]}"; do
  case $p in
    address) address_pass ;;
    thread) thread_pass ;;
    *) echo "usage: tests/sanitize/run.sh [address] [thread]" >&2; exit 2 ;;
  esac
done
