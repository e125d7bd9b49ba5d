#!/usr/bin/env bash
# @brief On the GPU machine: build the lucent Python module against its python3 (pybind11 carried in
# .carry/pybind11 by `tests/gpu/carry-pybind11.sh` here: the machine has no package registry), then
# compare the CUDA engines with the CPU engines from Python (NumPy, CuPy and PyTorch arrays) and run
# the overhead benchmark at 512^3 on both backends.
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
for backend in cuda cpu; do
  "$py" tests/bench/python_overhead.py --size 512 --backend $backend --runs 5 2>&1 | tee "$out/bench-$backend.log"
done
nvidia-smi --query-gpu=name,driver_version --format=csv,noheader | tee "$out/device.txt"
exit $status
