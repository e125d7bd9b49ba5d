#!/usr/bin/env bash
# @brief The package test: builds the .deb (packaging/make-deb.sh), runs lintian on it (an error
# fails; warnings are listed) and the smoke test in a clean Debian 12 root (smoke.sh).
# Usage: tests/packaging/run.sh [BUILD_DIR]   (BUILD_DIR as make-deb.sh: reused when it exists)
set -euo pipefail
cd "$(dirname "$0")/../.."
started=$SECONDS
deb=$(bash packaging/make-deb.sh "$@")
echo "lintian: $(basename "$deb")"
lintian_started=$SECONDS
# Lintian says that running as root is not recommended; it reads the package only.
lintian --fail-on error --tag-display-limit 0 "$deb" 2> >(grep -v 'root privileges' >&2) ||
  { echo "lintian: errors in $(basename "$deb")" >&2; exit 1; }
echo "lintian: no errors in $((SECONDS - lintian_started)) s"
SUDO=""
[[ $(id -u) -ne 0 ]] && SUDO="sudo"
$SUDO bash tests/packaging/smoke.sh "$deb" "${LUCENT_DATA:-${XDG_CACHE_HOME:-$HOME/.cache}/lucent/data}"
echo "packaging: make-deb, lintian and the smoke test passed in $((SECONDS - started)) s"
