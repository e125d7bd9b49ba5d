#!/usr/bin/env bash
# @brief On the GPU machine: build the lucent Python module against its python3 (pybind11 carried in
# .carry/pybind11 by `tests/gpu/carry-pybind11.sh` here: the machine has no package registry), then
# compare the CUDA engines with the CPU engines from Python (NumPy arrays, and CuPy and PyTorch arrays
# read where they lie, answered in device memory) and run the overhead benchmark at 512^3: CUDA from
# NumPy and from CuPy input, and the CPU engines.
# Usage (on the device, carrying .carry): bash tests/gpu/device-python.sh OUT_DIR
set -uo pipefail
out=${1:?usage: device-python.sh OUT_DIR}
mkdir -p "$out"
py=$(command -v python3)
include=$("$py" -c 'import sysconfig; print(sysconfig.get_paths()["include"])')
{
  echo "python: $py ($("$py" --version)), headers: $include"
  [[ -f $include/Python.h ]] || { echo "device-python: no Python.h under $include (python3-dev): cannot build the module"; exit 1; }
  cmake -S . -B build-python -G Ninja -DCMAKE_BUILD_TYPE=Release -DLUCENT_WITH_DICOM=OFF -DLUCENT_WITH_GUI=OFF \
    -DLUCENT_BUILD_TESTS=OFF -DLUCENT_BUILD_BENCHMARKS=OFF -DCMAKE_CUDA_ARCHITECTURES="90-real" \
    -DCMAKE_POLICY_VERSION_MINIMUM=3.5 -DPython_EXECUTABLE="$py" -Dpybind11_DIR="$PWD/.carry/pybind11/share/cmake/pybind11" | sed -n '/following features/,$p'
  time cmake --build build-python -j"$(nproc)" --target lucent_python 2>&1 | grep -E "error|FAILED" | head -40
  [[ -n $(ls build-python/python/lucent/_lucent*.so 2>/dev/null) ]] || { echo "device-python: the module did not build"; exit 1; }
} >"$out/build.log" 2>&1 || { cat "$out/build.log"; exit 1; }
tail -3 "$out/build.log"
export PYTHONPATH=$PWD/build-python/python
status=0
"$py" tests/gpu/python_cuda_check.py 2>&1 | tee "$out/cuda-check.log"
[[ ${PIPESTATUS[0]} -eq 0 ]] || status=1
"$py" tests/bench/python_overhead.py --size 512 --backend cuda --runs 5 2>&1 | tee "$out/bench-cuda.log"
"$py" tests/bench/python_overhead.py --size 512 --backend cuda --runs 5 --input cupy 2>&1 | tee "$out/bench-cuda-cupy.log"
[[ ${LUCENT_BENCH_CPU:-1} == 1 ]] && "$py" tests/bench/python_overhead.py --size 512 --backend cpu --runs 5 2>&1 | tee "$out/bench-cpu.log"
# The resident path's C++ tests and the engines' comparisons it touches (LUCENT_GTESTS=0 skips them).
if [[ ${LUCENT_GTESTS:-1} == 1 ]]; then
  { cmake -S . -B build-python -DLUCENT_BUILD_TESTS=ON >/dev/null && cmake --build build-python -j"$(nproc)" --target lucent_gpu_tests 2>&1 | grep -E "error|FAILED" | head -40; } >"$out/gtest-build.log" 2>&1
  build-python/bin/lucent_gpu_tests --gtest_filter='BorrowedDeviceVolume.*:DeviceVolume.RoundTrip*:CudaRegionGrowing.*:CudaFuzzyConnectedness.*:CudaFuzzyCMeans.SoftMaps*' 2>&1 | tail -25 | tee "$out/gtest.log"
  [[ ${PIPESTATUS[0]} -eq 0 ]] || status=1
fi
nvidia-smi --query-gpu=name,driver_version --format=csv,noheader | tee "$out/device.txt"
exit $status
