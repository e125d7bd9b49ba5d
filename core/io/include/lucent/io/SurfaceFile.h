/// @brief Writes label surfaces as binary STL or Wavefront OBJ, atomically, in LPS (default) or RAS millimetres.
#pragma once

#include "lucent/io/LabelSurface.h"

#include <string>
#include <vector>

namespace lucent::io {

/// True for .stl and .obj (case-insensitive).
bool isSurfaceFileName(const std::string& path);

/// Writes `surfaces` (points in LPS, as buildLabelSurface gives them) to `path`, chosen by extension:
/// - .stl: binary STL, all surfaces as one merged solid; the 80-byte header starts with "SPACE=LPS"
///   or "SPACE=RAS", as 3D Slicer writes and reads it;
/// - .obj: a "# SPACE=LPS" (or RAS) comment, then per surface an `o` and a `g` line named after it
///   (white space in names becomes '_'), its `v` and `vn` lines and its `f` lines.
/// With `ras`, x and y are negated (a rotation by 180 degrees about z: the winding stays outward).
/// The file is built in memory and written with writeFileAtomically: nothing partial is ever left.
/// IoError names the file: another extension, no surface, an empty mesh, or the write failing.
void writeSurfaceFile(const std::vector<NamedSurface>& surfaces, const std::string& path, bool ras = false);

}  // namespace lucent::io
