#!/usr/bin/env bash
# @brief Renders the committed PNG icons (hicolor sizes) from lucent.svg with rsvg-convert (librsvg2-bin).
# Run it after changing lucent.svg; the package installs the SVG and these PNGs as they are committed.
set -euo pipefail
cd "$(dirname "$0")"
command -v rsvg-convert >/dev/null || { echo "render-icons: needs rsvg-convert (apt-get install librsvg2-bin)" >&2; exit 1; }
for size in 16 22 24 32 48 64 128 256; do
  rsvg-convert -w "$size" -h "$size" lucent.svg -o "lucent-$size.png"
done
echo "render-icons: wrote lucent-{16,22,24,32,48,64,128,256}.png"
