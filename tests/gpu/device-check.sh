#!/usr/bin/env bash
# @brief On the GPU machine (CUDA toolkit, cmake, GoogleTest sources; no DCMTK, Qt or VTK): build core,
# gpu, the CLI and the tests without the optional parts, run every test, and record the device.
# usage: bash tests/gpu/device-check.sh OUT_DIR
set -uo pipefail
out=${1:-/tmp/lucent-device}
mkdir -p "$out"
cd "$(dirname "$0")/../.."
export PATH=/usr/local/cuda/bin:$PATH
{
  nvidia-smi --query-gpu=name,memory.total,driver_version --format=csv,noheader
  cmake -S . -B build-device -G Ninja -DCMAKE_BUILD_TYPE=Release -DLUCENT_WITH_DICOM=OFF -DLUCENT_WITH_GUI=OFF \
    -DCMAKE_CUDA_ARCHITECTURES="90-real;90-virtual" -DLUCENT_DATA=/nonexistent 2>&1 | sed -n '/following features/,$p'
  cmake --build build-device -j"$(nproc)" 2>&1 | tail -3
  build-device/bin/lucent version
  (cd build-device && ctest -j8 --output-on-failure 2>&1 | tail -15)
  (cd build-device && ctest -R DeviceVolume -V 2>&1 | grep -E "RUN|OK|SKIP|FAIL" )
} 2>&1 | tee "$out/device-check.log"
