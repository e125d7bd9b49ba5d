# @brief Finds DCMTK; without it volume files still load and DICOM paths get a clear error.
set(LUCENT_HAVE_DICOM OFF)
if(LUCENT_WITH_DICOM)
  find_package(DCMTK CONFIG QUIET)
  if(DCMTK_FOUND)
    set(LUCENT_HAVE_DICOM ON)
  endif()
  set_package_properties(DCMTK PROPERTIES TYPE RECOMMENDED PURPOSE "DICOM series loading")
endif()
