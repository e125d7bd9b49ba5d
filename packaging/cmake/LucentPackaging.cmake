# @brief Installs the package documents and configures CPack for a Debian package: `cpack -G DEB` in a
# build folder (packaging/make-deb.sh does it on a fresh Debian 12). Names used by assets/ are set here.
include(GNUInstallDirs)

set(LUCENT_APPSTREAM_ID org.lucentviewer.Lucent)
set(LUCENT_ICON_SIZES 16 22 24 32 48 64 128 256)
set(LUCENT_SUMMARY "CT and MR viewer with interactive segmentation on the GPU")
set(LUCENT_PACKAGE_MAINTAINER "Lucent maintainers <maintainers@users.noreply.a-seed-09c94a37.example>"
  CACHE STRING "Maintainer field of the Debian package (Name <address>)")

# The Debian changelog is made from the newest release of the AppStream metadata, so the package,
# the metainfo and project() name one version (tests/packaging/check-metadata.sh fails when the
# metainfo's newest release is not project()'s version).
set(lucent_metainfo ${PROJECT_SOURCE_DIR}/assets/desktop/${LUCENT_APPSTREAM_ID}.metainfo.xml)
set_property(DIRECTORY APPEND PROPERTY CMAKE_CONFIGURE_DEPENDS ${lucent_metainfo})
file(STRINGS ${lucent_metainfo} lucent_release REGEX "<release " LIMIT_COUNT 1)
string(REGEX MATCH "date=\"([0-9-]+)\"" _ "${lucent_release}")
set(LUCENT_RELEASE_DATE ${CMAKE_MATCH_1})
string(REGEX MATCH "version=\"([^\"]+)\"" _ "${lucent_release}")
if(NOT CMAKE_MATCH_1 STREQUAL PROJECT_VERSION)
  message(WARNING "Lucent: ${lucent_metainfo} names ${CMAKE_MATCH_1} as its newest release, project() says "
    "${PROJECT_VERSION}: add a <release> for ${PROJECT_VERSION}")
endif()
execute_process(COMMAND date -u -R -d "${LUCENT_RELEASE_DATE} 12:00" OUTPUT_VARIABLE LUCENT_CHANGELOG_DATE
  OUTPUT_STRIP_TRAILING_WHITESPACE)
set(LUCENT_CHANGELOG_VERSION ${PROJECT_VERSION})
configure_file(${PROJECT_SOURCE_DIR}/packaging/debian/changelog.in ${PROJECT_BINARY_DIR}/packaging/changelog @ONLY)
# Debian wants these two in /usr/share/doc/<package>, the changelog compressed without a time stamp.
add_custom_command(OUTPUT ${PROJECT_BINARY_DIR}/packaging/changelog.gz
  COMMAND gzip -9nkf ${PROJECT_BINARY_DIR}/packaging/changelog
  DEPENDS ${PROJECT_BINARY_DIR}/packaging/changelog VERBATIM)
add_custom_target(lucent_changelog ALL DEPENDS ${PROJECT_BINARY_DIR}/packaging/changelog.gz)
install(FILES ${PROJECT_SOURCE_DIR}/packaging/debian/copyright ${PROJECT_BINARY_DIR}/packaging/changelog.gz
  DESTINATION ${CMAKE_INSTALL_DATADIR}/doc/lucent)

set(CPACK_GENERATOR DEB)
set(CPACK_PACKAGE_NAME lucent)
set(CPACK_PACKAGE_VERSION ${PROJECT_VERSION})
set(CPACK_PACKAGE_CONTACT ${LUCENT_PACKAGE_MAINTAINER})
set(CPACK_PACKAGE_DESCRIPTION_SUMMARY ${LUCENT_SUMMARY})
# One line per source line: Debian wants the long description wrapped under 80 columns.
string(JOIN "\n" CPACK_PACKAGE_DESCRIPTION
  "Lucent opens DICOM series and NIfTI, NRRD and MetaImage volumes in linked"
  "axial, coronal and sagittal views and segments them interactively: seeded"
  "region growing, fuzzy connectedness, fuzzy C-means and a region snake, each"
  "step drawn in the views. With an NVIDIA GPU and its driver the volume stays on"
  "the GPU and the CUDA engines run there; without them the same methods run on"
  "the CPU. The lucent command also converts volumes, describes files and"
  "segments without a window.")
set(CPACK_PACKAGING_INSTALL_PREFIX /usr)
set(CPACK_STRIP_FILES ON)
set(CPACK_DEBIAN_FILE_NAME DEB-DEFAULT)
set(CPACK_DEBIAN_PACKAGE_SECTION science)
set(CPACK_DEBIAN_PACKAGE_PRIORITY optional)
set(CPACK_DEBIAN_COMPRESSION_TYPE xz)
# Library dependencies come from the binary (dpkg-shlibdeps); these are what it loads without linking.
set(CPACK_DEBIAN_PACKAGE_SHLIBDEPS ON)
set(lucent_depends "")
if(LUCENT_HAVE_DICOM)
  # DCMTK reads its data dictionary from /usr/share/libdcmtk17/*.dic at run time. The package that
  # ships it is the one of DCMTK's libraries, so dpkg-shlibdeps names it too; it is named here as
  # well so the dictionary stays a dependency whatever becomes of the linking.
  list(APPEND lucent_depends libdcmtk17)
endif()
if(LUCENT_HAVE_GUI)
  # The HUD loads DejaVu Sans by path (fontconfig is content with any of several font packages).
  # Qt's X11 platform plugin is in libqt6gui6 itself on Debian 12 (the smoke test's screenshot).
  list(APPEND lucent_depends fonts-dejavu-core)
  # --record OUT.mp4 pipes frames to ffmpeg; without it the frames are written as PNGs.
  set(CPACK_DEBIAN_PACKAGE_RECOMMENDS ffmpeg)
endif()
if(LUCENT_HAVE_QT_SERVICES)
  # The study database opens SQLite through Qt SQL's driver, a plugin dpkg-shlibdeps cannot see.
  list(APPEND lucent_depends libqt6sql6-sqlite)
endif()
if(LUCENT_HAVE_PYTHON)
  # The lucent Python module (/usr/lib/python3/dist-packages/lucent) is loaded by Python 3 and
  # imports NumPy; its batches run on Dask (python3 -m lucent.batch), which only they need.
  list(APPEND lucent_depends python3 python3-numpy)
  list(APPEND lucent_suggests python3-distributed python3-nibabel)
  list(JOIN lucent_suggests ", " CPACK_DEBIAN_PACKAGE_SUGGESTS)
  # prerm removes the byte-code caches Python writes beside the module, so a purge leaves nothing.
  set(CPACK_DEBIAN_PACKAGE_CONTROL_EXTRA "${CMAKE_SOURCE_DIR}/packaging/debian/prerm")
  set(CPACK_DEBIAN_PACKAGE_CONTROL_STRICT_PERMISSION ON)
endif()
list(JOIN lucent_depends ", " CPACK_DEBIAN_PACKAGE_DEPENDS)
include(CPack)
