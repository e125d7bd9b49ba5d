#!/usr/bin/env bash
# @brief Installs, builds, fetches the real sample data and runs every test; prints CTest's summary.
set -euo pipefail
cd "$(dirname "$0")/.."
bash packaging/build.sh
# A plain assignment, so a failed fetch stops the run here instead of letting real-data tests skip.
data=$(bash tests/fetch-data.sh)
export LUCENT_DATA=$data
# Configure again so the tests see where the data is.
cmake -S . -B build -DLUCENT_DATA="$LUCENT_DATA" >/dev/null
cd build
ctest -j"$(nproc)" --output-on-failure --timeout 600
