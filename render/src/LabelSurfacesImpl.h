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

/// One triangle of no area at `at` (patient mm) with the point data built surfaces have (normals, label
/// values): drawn, it makes the GL programs that drawing surfaces needs, and no pixel.
vtkSmartPointer<vtkPolyData> emptyTriangleLikeSurfaces(const double at[3]);

}  // namespace lucent::render
