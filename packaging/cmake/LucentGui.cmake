# @brief Finds Qt 6 and Dear ImGui (the viewer), Qt Network and SQL (DICOMweb, the study database) and, separately, VTK 9 (the 3D view and surface export).
# VTK has its own switch so that a viewer without it (the GPU machine's bundle, which must stay small)
# still has the slice views, and a headless build can still write surfaces when VTK is present.
set(LUCENT_HAVE_GUI OFF)
set(LUCENT_HAVE_VTK OFF)
if(LUCENT_WITH_GUI)
  find_package(Qt6 QUIET COMPONENTS Widgets OpenGLWidgets Test)
  find_package(PkgConfig QUIET)
  if(PkgConfig_FOUND)
    pkg_check_modules(IMGUI QUIET IMPORTED_TARGET imgui)
  endif()
  set_package_properties(Qt6 PROPERTIES TYPE RECOMMENDED PURPOSE "viewer window")
  if(Qt6_FOUND AND IMGUI_FOUND)
    set(LUCENT_HAVE_GUI ON)
  endif()
endif()
# DICOMweb (Qt Network) and the local study database (Qt SQL) need Qt 6 but not the viewer: a build
# without them answers a DICOMweb URL or `lucent db` with a message saying so.
set(LUCENT_HAVE_QT_SERVICES OFF)
if(LUCENT_WITH_GUI)
  find_package(Qt6 QUIET COMPONENTS Network Sql)
  if(TARGET Qt6::Network AND TARGET Qt6::Sql)
    set(LUCENT_HAVE_QT_SERVICES ON)
  endif()
endif()
if(LUCENT_WITH_VTK)
  # VTK's config must be given its components, or it goes looking for Qt 5.
  find_package(VTK COMPONENTS CommonCore CommonDataModel CommonTransforms ImagingCore
    RenderingCore RenderingOpenGL2 RenderingVolumeOpenGL2 InteractionStyle FiltersCore
    FiltersGeneral FiltersGeometry FiltersModeling FiltersSources IOGeometry RenderingAnnotation RenderingFreeType)
  set_package_properties(VTK PROPERTIES TYPE RECOMMENDED PURPOSE "3D view, label surfaces and STL / OBJ export")
  if(VTK_FOUND)
    set(LUCENT_HAVE_VTK ON)
  endif()
endif()
