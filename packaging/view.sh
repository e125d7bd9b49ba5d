#!/usr/bin/env bash
# @brief Installs what is missing, builds, fetches the real samples and plays the demo on the real CT
# head: a paced snake on an axial slice, then region growing of the skull (lucent --demo). Without a
# display it records the demo to lucent-demo.mp4 under Xvfb instead (numbered PNGs in lucent-demo/
# without ffmpeg). Arguments go to lucent (--record-every K, --record-fps F, --backend cpu ...).
set -euo pipefail
cd "$(dirname "$0")/.."
bash packaging/build.sh
data=$(bash tests/fetch-data.sh)
ct="$data/cranium/cranium.mhd"
if [[ -n "${DISPLAY:-}" || -n "${WAYLAND_DISPLAY:-}" ]]; then
  exec build/bin/lucent --demo "$ct" "$@"
fi
echo "No display: recording the demo to lucent-demo.mp4 under Xvfb instead."
# An X server of its own (tests/support/on_xvfb.py: xvfb-run's cleanup now and then replaced the
# viewer's exit status with its own).
python3 tests/support/on_xvfb.py --screen 1920x1080x24 env QT_QPA_PLATFORM=xcb \
  build/bin/lucent --demo "$ct" --record lucent-demo.mp4 "$@"
