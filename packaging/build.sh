#!/usr/bin/env bash
# @brief Installs missing Debian 12 dependencies, configures and builds Lucent into build/ (ccache-cached).
set -euo pipefail
cd "$(dirname "$0")/.."
bash packaging/install-deps.sh
export CCACHE_DIR=${CCACHE_DIR:-$HOME/.cache/lucent/ccache}
# Paths inside the checkout are hashed relative to it: a clone in another folder reuses the cache.
export CCACHE_BASEDIR=${CCACHE_BASEDIR:-$PWD} CCACHE_NOHASHDIR=${CCACHE_NOHASHDIR:-1}
cmake -S . -B build -G Ninja -DCMAKE_BUILD_TYPE=Release "$@" >build-configure.log 2>&1 || { cat build-configure.log; exit 1; }
sed -n '/The following features have been enabled/,/^-- Configuring done/p' build-configure.log
cmake --build build -j"$(nproc)"
