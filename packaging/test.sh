#!/usr/bin/env bash
# @brief Installs, builds, fetches the real sample data and runs every test; prints CTest's summary.
set -euo pipefail
cd "$(dirname "$0")/.."
bash packaging/build.sh
export LUCENT_DATA=$(bash tests/fetch-data.sh)
# Configure again so the tests see where the data is.
cmake -S . -B build -DLUCENT_DATA="$LUCENT_DATA" >/dev/null
cd build
ctest -j"$(nproc)" --output-on-failure --timeout 600
