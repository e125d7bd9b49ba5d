#!/usr/bin/env bash
# @brief Here, before a device call: builds the viewer, its live tests and its frame benchmark (with CUDA) and packs them
# into OUT_DIR/viewer.tar.xz with ../shared/device/viewer-run.sh beside it, for
# `tests/gpu/device-check.sh OUT --viewer OUT_DIR/viewer.tar.xz` on the GPU machine (which has no Qt,
# VTK or DCMTK). Carry OUT_DIR (it must be a folder the repo ignores, e.g. .carry).
# usage: bash tests/gpu/device-viewer-bundle.sh [BUILD_DIR] [OUT_DIR]   (defaults: build .carry)
set -euo pipefail
cd "$(dirname "$0")/../.."
build=${1:-build}; out=${2:-.carry}
run=${LUCENT_VIEWER_RUN:-../shared/device/viewer-run.sh}
[[ -n $(find "$build/gpu" -name '*.cu.o' -print -quit 2>/dev/null) ]] ||
  { echo "device-viewer-bundle: $build is not a build with CUDA (nvcc missing?)" >&2; exit 1; }
# The live tests of every method (the 3D snake and grow from seeds have programs of their own), the CUDA
# engines' tests (compared with the CPU engines on the device) and the frame and engine benchmarks.
programs=(lucent lucent_live_tests lucent_snake3d_live_tests lucent_growcut_tests lucent_gpu_tests lucent_bench_viewer
          lucent_bench_viewer_growcut lucent_bench_growcut)
cmake --build "$build" -j"$(nproc)" --target "${programs[@]}" >/dev/null
tmp=$(mktemp -d); trap 'rm -rf "$tmp"' EXIT
for p in "${programs[@]}"; do cp "$build/bin/$p" "$tmp/"; done
# lucent hands the viewer to lucent-viewer (app/CMakeLists.txt): viewer-bundle-small.sh puts it where lucent looks
cp "$build/libexec/lucent/lucent-viewer" "$tmp/"
mkdir -p "$out"
bash tests/gpu/viewer-bundle-small.sh "$tmp" "$out/viewer.tar.xz"
cp "$run" "$out/viewer-run.sh"
