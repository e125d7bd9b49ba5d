#!/usr/bin/env bash
# @brief Here: copy pybind11's headers and CMake files (Debian pybind11-dev) into .carry/pybind11, the
# layout its config expects (include/, share/cmake/pybind11/), for tests/gpu/device-python.sh there.
set -euo pipefail
cd "$(dirname "$0")/../.."
rm -rf .carry/pybind11
mkdir -p .carry/pybind11/include .carry/pybind11/share/cmake
cp -r /usr/include/pybind11 .carry/pybind11/include/
cp -r /usr/lib/cmake/pybind11 .carry/pybind11/share/cmake/
du -sh .carry/pybind11
