#!/usr/bin/env bash
# @brief Builds the libFuzzer targets (clang, ASan + UBSan), seeds their corpora, runs each for SECONDS; fails on any finding.
#
# usage: tests/fuzz/run.sh SECONDS [OUT_DIR]
#
# CMake cannot build some targets of one build folder with another compiler, so the fuzz targets
# get a build folder of their own (build-fuzz/, or $LUCENT_FUZZ_BUILD) configured with clang-14 and
# -DLUCENT_FUZZ=ON. OUT_DIR (default build-fuzz/out) keeps the seeds, the corpora (grown by every
# run), one log per target and any finding (findings/TARGET-crash-..., a file that reproduces it
# with `build-fuzz/bin/lucent_fuzz_TARGET FILE`). Seeds come from tests/fuzz/make_seeds.py and the
# real data under $LUCENT_DATA (else ~/.cache/lucent/data; absent data means generated seeds only).
# A crash, leak, timeout (30 s for one input), out-of-memory (2 GiB resident) or sanitizer report
# fails the run. One allocation may reach 4.1 GiB: where DCMTK cannot leave a value on disk (a
# deflated dataset) it allocates the length its header claims, up to the 4 GiB a 32-bit length field
# holds, before it finds the stream too short; that memory is never touched outside ASan (which
# writes its shadow, 1/8 of it), and the resident limit still catches any real growth.
# LUCENT_FUZZ_RUNS=N stops each target after N inputs instead (or at SECONDS, whichever comes first);
# LUCENT_FUZZ_TARGETS="nrrd dicom_header" runs only those.
set -euo pipefail
root=$(cd "$(dirname "$0")/../.." && pwd)
if [[ $# -lt 1 || $# -gt 2 || ! $1 =~ ^[0-9]+$ || $1 -lt 1 ]]; then
  echo "usage: tests/fuzz/run.sh SECONDS [OUT_DIR]" >&2
  exit 2
fi
seconds=$1
build=${LUCENT_FUZZ_BUILD:-$root/build-fuzz}
out=$(mkdir -p "${2:-$build/out}" && cd "${2:-$build/out}" && pwd)
data=${LUCENT_DATA:-${XDG_CACHE_HOME:-$HOME/.cache}/lucent/data}
export CCACHE_DIR=${CCACHE_DIR:-$HOME/.cache/lucent/ccache}

cmake -S "$root" -B "$build" -G Ninja -DCMAKE_BUILD_TYPE=Release \
  -DCMAKE_CXX_COMPILER=clang++-14 -DCMAKE_C_COMPILER=clang-14 -DLUCENT_FUZZ=ON \
  -DLUCENT_WITH_GUI=OFF -DLUCENT_WITH_CUDA=OFF -DLUCENT_BUILD_TESTS=OFF -DLUCENT_BUILD_BENCHMARKS=OFF \
  >"$out/configure.log" 2>&1 || { cat "$out/configure.log"; exit 1; }
cmake --build "$build" --target lucent_fuzzers -j"$(nproc)" >"$out/build.log" 2>&1 || { tail -50 "$out/build.log"; exit 1; }

rm -rf "$out/seeds"
python3 "$root/tests/fuzz/make_seeds.py" "$out/seeds" "$([[ -d $data ]] && echo "$data")" >/dev/null
mkdir -p "$out/findings"

# Every report ends the run with a non-zero status; the log is searched as well, so that nothing
# that prints a report and carries on can pass.
export ASAN_OPTIONS=${ASAN_OPTIONS:-detect_leaks=1:abort_on_error=0:symbolize=1}
export UBSAN_OPTIONS=${UBSAN_OPTIONS:-print_stacktrace=1:halt_on_error=1}
# One target a job, as many at once as there are cores (but dicom_header, below): each still has a core
# for its SECONDS.
fuzz_target() {  # TARGET: runs it; prints its summary line; writes TARGET.failed on a finding
  local target=$1 bin=$build/bin/lucent_fuzz_$1
  local seeds=$out/seeds/${target%_*} corpus=$out/corpus/$target log=$out/$target.log max_len=16384 status=0
  [[ $target == dicom_* ]] && seeds=$out/seeds/dicom
  mkdir -p "$corpus"
  # DICOM seeds include real 130-150 KB images; the volume formats' seeds are under 3 KB.
  [[ $target == dicom_* ]] && max_len=155000
  (cd "$out" && "$bin" -max_total_time="$seconds" -runs="${LUCENT_FUZZ_RUNS:--1}" -max_len=$max_len \
    -timeout=30 -rss_limit_mb=2048 -malloc_limit_mb=4200 -print_final_stats=1 \
    -artifact_prefix="$out/findings/$target-" "$corpus" "$seeds" >"$log" 2>&1) || status=$?
  local runs rate rss secs
  runs=$(sed -n 's/^stat::number_of_executed_units: *//p' "$log")
  rate=$(sed -n 's/^stat::average_exec_per_sec: *//p' "$log")
  rss=$(sed -n 's/^stat::peak_rss_mb: *//p' "$log")
  secs=$(sed -n 's/^Done [0-9]* runs in \([0-9]*\) second.*/\1/p' "$log")
  echo "fuzz $target: ${runs:-?} runs in ${secs:-?} s (${rate:-?}/s), corpus $(ls "$corpus" | wc -l) inputs, peak ${rss:-?} MB"
  if [[ $status -ne 0 ]] || grep -qE 'ERROR: (AddressSanitizer|LeakSanitizer|libFuzzer)|runtime error:|SUMMARY: ' "$log"; then
    echo "fuzz $target: FINDING (exit $status), log $log:"
    { grep -E -A30 'ERROR: |runtime error:' "$log" || tail -40 "$log"; } | head -60
    grep -E 'Test unit written to' "$log" || true
    touch "$out/$target.failed"
  fi
}

failed=0
targets=()
for target in ${LUCENT_FUZZ_TARGETS:-nifti nrrd metaimage dicom_header dicom_pixels}; do
  # A target that was not built fails the run (never a quiet skip): the DICOM ones need DCMTK, which
  # CI has; LUCENT_FUZZ_TARGETS names fewer targets on purpose.
  bin=$build/bin/lucent_fuzz_$target
  [[ -x $bin ]] || { echo "fuzz $target: FAILED: not built ($bin; the DICOM targets need DCMTK)" >&2; failed=1; continue; }
  targets+=("$target")
done
# dicom_header runs alone, after the others: DCMTK allocates what a header claims (up to 4 GiB, whose
# shadow ASan writes), so it is bound by memory and ran about 5 times fewer inputs beside another target.
for target in "${targets[@]}"; do
  [[ $target == dicom_header ]] && continue
  while [[ $(jobs -rp | wc -l) -ge $(nproc) ]]; do wait -n || true; done
  rm -f "$out/$target.failed"
  fuzz_target "$target" >"$out/$target.summary" 2>&1 &
done
wait
for target in "${targets[@]}"; do
  [[ $target == dicom_header ]] || continue
  rm -f "$out/$target.failed"
  fuzz_target "$target" >"$out/$target.summary" 2>&1
done
for target in "${targets[@]}"; do
  if [[ -e $out/$target.failed ]]; then cat "$out/$target.summary" >&2; failed=1; else cat "$out/$target.summary"; fi
done
exit $failed
