# @brief Finds Qt 6, VTK 9 and Dear ImGui; the viewer is built only when all three are present.
set(LUCENT_HAVE_GUI OFF)
if(LUCENT_WITH_GUI)
  find_package(Qt6 QUIET COMPONENTS Widgets OpenGLWidgets Test)
  # VTK's config must be given its components, or it goes looking for Qt 5.
  find_package(VTK QUIET COMPONENTS CommonCore CommonDataModel RenderingCore RenderingOpenGL2
    RenderingVolumeOpenGL2 InteractionStyle FiltersCore FiltersGeometry RenderingAnnotation)
  find_package(PkgConfig QUIET)
  if(PkgConfig_FOUND)
    pkg_check_modules(IMGUI QUIET IMPORTED_TARGET imgui)
  endif()
  set_package_properties(Qt6 PROPERTIES TYPE RECOMMENDED PURPOSE "viewer window")
  set_package_properties(VTK PROPERTIES TYPE RECOMMENDED PURPOSE "3D view and meshes")
  if(Qt6_FOUND AND VTK_FOUND AND IMGUI_FOUND)
    set(LUCENT_HAVE_GUI ON)
  endif()
endif()
