/// @brief What LabelSurfaces holds: the smoothed polygons in patient mm, with the label per point.
#pragma once

#include "lucent/render/LabelSurfaces.h"

#include <vtkPolyData.h>
#include <vtkSmartPointer.h>

namespace lucent::render {

struct LabelSurfaces {
    vtkSmartPointer<vtkPolyData> polygons;  ///< point scalars: the label value
    SurfaceFigures figures;
};

/// One triangle at `at` (patient mm, sides `size`) with the point data built surfaces have (normals,
/// label values), of label 0, which the surfaces' colour tables make fully transparent: drawn, it makes
/// the GL programs drawing surfaces needs (a software GL makes them only for fragments drawn), and
/// changes no pixel.
vtkSmartPointer<vtkPolyData> unseenTriangleLikeSurfaces(const double at[3], double size);

}  // namespace lucent::render
