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

}  // namespace lucent::render
