#!/usr/bin/env bash
# @brief Builds the Debian package (CPack DEB) on Debian 12 and prints the path of the .deb on stdout.
# Usage: packaging/make-deb.sh [BUILD_DIR] [CMAKE_ARGS...]
# BUILD_DIR defaults to build-deb/, configured as a Release build without tests or benchmarks; an
# existing build folder (such as build/, which packaging/test.sh has just built) is reused as it is,
# so only what is out of date is built. CUDA is compiled in when nvcc is found (/usr/local/cuda), with
# the CUDA runtime linked statically; without nvcc the package has the CPU engines only.
set -euo pipefail
cd "$(dirname "$0")/.."
bash packaging/install-deps.sh >&2
export CCACHE_DIR=${CCACHE_DIR:-$HOME/.cache/lucent/ccache}
build=${1:-build-deb}
[[ $# -gt 0 ]] && shift
started=$SECONDS
mkdir -p "$build"
log=$build/make-deb.log
if [[ ! -f $build/CMakeCache.txt ]]; then
  cmake -S . -B "$build" -G Ninja -DCMAKE_BUILD_TYPE=Release -DLUCENT_BUILD_TESTS=OFF \
    -DLUCENT_BUILD_BENCHMARKS=OFF "$@" >"$log" 2>&1 || { cat "$log" >&2; exit 1; }
else
  cmake -S . -B "$build" "$@" >"$log" 2>&1 || { cat "$log" >&2; exit 1; }
fi
type=$(sed -n 's/^CMAKE_BUILD_TYPE:[A-Z]*=//p' "$build/CMakeCache.txt")
[[ $type == Release ]] || echo "make-deb: warning: $build is a '$type' build, not Release" >&2
grep -A8 'The following features have been enabled' "$log" | grep '^ \* ' >&2 || true
cmake --build "$build" -j"$(nproc)" >>"$log" 2>&1 || { tail -50 "$log" >&2; exit 1; }
rm -f "$build"/lucent_*.deb
# dpkg-shlibdeps (CPACK_DEBIAN_PACKAGE_SHLIBDEPS) derives the library dependencies from the binary.
(cd "$build" && cpack -G DEB) >>"$log" 2>&1 || { tail -30 "$log" >&2; exit 1; }
deb=$(ls "$build"/lucent_*.deb)
echo "make-deb: $(basename "$deb") ($(du -h "$deb" | cut -f1)) in $((SECONDS - started)) s" >&2
dpkg-deb -f "$deb" Depends >&2
realpath "$deb"
