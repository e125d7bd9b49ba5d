#!/usr/bin/env bash
# @brief ../shared/device/viewer-bundle.sh's archive made small enough to carry with data (64 MiB in
# all): libz3 (LLVM links it for its static analyzer; Mesa's llvmpipe in the bundle's X server
# never calls it) and libicudata (Qt uses ICU only for collation and legacy codecs) become stand-ins
# built here, and only three fonts are kept. The viewer, its live runs and lucent_live_tests ran on the GPU
# machine from such a bundle (BENCHMARKS.md).
# usage: bash tests/gpu/viewer-bundle-small.sh BIN_DIR OUT.tar.xz   (BIN_DIR: lucent and any test executables)
set -euo pipefail
bin=$(readlink -f "$1"); out=$(readlink -f "$2")
bundle=${LUCENT_VIEWER_BUNDLE:-$(dirname "$0")/../../../shared/device/viewer-bundle.sh}
tmp=$(mktemp -d); trap 'rm -rf "$tmp"' EXIT
bash "$bundle" "$bin" "$tmp/full.tar.xz"
mkdir "$tmp/root" && xz -dc "$tmp/full.tar.xz" | tar -C "$tmp/root" -xf -
# lucent-viewer where lucent looks for it, as installed: ../libexec/lucent/ from bin/ (app/CMakeLists.txt)
if [[ -f $tmp/root/bin/lucent-viewer ]]; then
  mkdir -p "$tmp/root/libexec/lucent" && mv "$tmp/root/bin/lucent-viewer" "$tmp/root/libexec/lucent/"
fi
# fonts: the HUD's two faces and Qt's fixed-width one; the other eleven DejaVu cuts (~2.5 MB packed)
# are what pushed the bundle plus the tree past the 64 MiB carry
find "$tmp/root/share/fonts" -name '*.ttf' ! -name DejaVuSans.ttf ! -name DejaVuSans-Bold.ttf \
  ! -name DejaVuSansMono.ttf -delete
# libLLVM: every symbol Mesa's swrast_dri imports from it (functions, and four typeinfo / vtable
# objects), under its LLVM_15-style version. Only the X server loads swrast_dri, to offer GLX;
# the clients render through NVIDIA's GLX, and the server draws nothing with GL, so no LLVM code
# runs (checked here: Xvfb with the stand-in offers GLX 1.4 as with the real one). ~25 MB packed.
dri=$tmp/root/lib/dri/swrast_dri.so
llvmlib=$(ls "$tmp"/root/lib/libLLVM-*.so.* 2>/dev/null | head -1)
if [[ -n $llvmlib && -f $dri ]]; then
  version=$(objdump -T "$dri" | grep -o '(LLVM_[0-9]*)' | head -1 | tr -d '()')
  objdump -T "$dri" | awk -v v="($version)" 'NF > 2 && $(NF-1) == v {print $2, $NF}' |
    awk '$1 == "DF" {print "void " $2 "(void) {}"} $1 == "DO" {print "char " $2 "[256];"}' > "$tmp/llvm.c"
  echo "$version { global: *; };" > "$tmp/llvm.map"
  gcc -shared -fPIC -o "$llvmlib" -Wl,-soname,"$(basename "$llvmlib")" -Wl,--version-script="$tmp/llvm.map" "$tmp/llvm.c"
fi
# libz3: every Z3 function libLLVM imports, doing nothing
llvm=$(ls "$tmp"/root/lib/libLLVM-*.so.* 2>/dev/null | head -1)
if [[ -n $llvm && -f $tmp/root/lib/libz3.so.4 ]]; then
  nm -D --undefined-only "$llvm" | awk '/ Z3_/{sub(/@.*/, "", $2); print "void " $2 "(void) {}"}' | sort -u > "$tmp/z3.c"
  gcc -shared -fPIC -o "$tmp/root/lib/libz3.so.4" -Wl,-soname,libz3.so.4 "$tmp/z3.c"
fi
# libicudata: ICU's "stubdata", a common-data header with no entries
icu=$(ls "$tmp"/root/lib/libicudata.so.* 2>/dev/null | head -1)
if [[ -n $icu ]]; then
  name=$(basename "$icu"); version=${name#libicudata.so.}; version=${version%%.*}
  cat > "$tmp/icu.c" <<C
#include <stdint.h>
struct Header {
    uint16_t headerSize; uint8_t magic1, magic2;
    uint16_t size, reserved; uint8_t isBigEndian, charsetFamily, sizeofUChar, reservedByte;
    uint8_t dataFormat[4], formatVersion[4], dataVersion[4];
    uint8_t padding[8];
    uint32_t count, reserved2, toc[4];
};
__attribute__((visibility("default"))) const struct Header icudt${version}_dat = {
    32, 0xda, 0x27, 20, 0, 0, 0, 2, 0, {0x54, 0x6f, 0x43, 0x50}, {1, 0, 0, 0}, {0, 0, 0, 0}, {0}, 0, 0, {0, 0, 0, 0}};
C
  gcc -shared -fPIC -o "$icu" -Wl,-soname,"$name" "$tmp/icu.c"
fi
tar -C "$tmp/root" -cf - . | xz -9e -T0 > "$out"
echo "$(du -h "$out" | cut -f1) $out"
