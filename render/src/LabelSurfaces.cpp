/// @brief Label surfaces for the 3D view from io::buildLabelSurfaces (discrete flying edges +
/// windowed sinc in patient mm, the same surfaces STL / OBJ export writes), gathered into one
/// polygon set with the label value per point for the colour table.
#include "LabelSurfacesImpl.h"

#include "lucent/core/Errors.h"
#include "lucent/core/LabelReduction.h"
#include "lucent/io/LabelSurface.h"

#include <algorithm>

#include <vtkCellArray.h>
#include <vtkFloatArray.h>
#include <vtkPointData.h>
#include <vtkPoints.h>
#include <vtkUnsignedCharArray.h>

namespace lucent::render {

namespace {

/// The arrays of a surface polygon set as the 3D view's mappers read them: float points, per-point
/// normals ("Normals") and label values ("label", the colour table's index), triangles.
struct SurfaceArrays {
    vtkSmartPointer<vtkPoints> points = vtkSmartPointer<vtkPoints>::New();
    vtkSmartPointer<vtkFloatArray> normals = vtkSmartPointer<vtkFloatArray>::New();
    vtkSmartPointer<vtkUnsignedCharArray> values = vtkSmartPointer<vtkUnsignedCharArray>::New();
    vtkSmartPointer<vtkCellArray> triangles = vtkSmartPointer<vtkCellArray>::New();

    SurfaceArrays() {
        points->SetDataTypeToFloat();
        normals->SetNumberOfComponents(3);
        normals->SetName("Normals");
        values->SetName("label");
    }

    /// The polygon set; the normals only where every point has one.
    vtkSmartPointer<vtkPolyData> polygons() const {
        auto out = vtkSmartPointer<vtkPolyData>::New();
        out->SetPoints(points);
        out->SetPolys(triangles);
        out->GetPointData()->SetScalars(values);
        if (normals->GetNumberOfTuples() == points->GetNumberOfPoints()) out->GetPointData()->SetNormals(normals);
        return out;
    }
};

}  // namespace

std::shared_ptr<const LabelSurfaces> buildLabelSurfaces(const LabelMap& labels, const std::atomic<bool>* cancel) {
    std::vector<io::NamedSurface> named;
    try {
        named = io::buildLabelSurfaces(labels, LabelTable{}, {}, {},
                                       [cancel](std::size_t, std::size_t) { return !(cancel && cancel->load()); });
    } catch (const Cancelled&) {
        return nullptr;
    }
    if (named.empty() || (cancel && cancel->load())) return nullptr;

    SurfaceArrays a;
    auto out = std::make_shared<LabelSurfaces>();
    for (const auto& s : named) {
        if (s.mesh.empty()) continue;
        const vtkIdType first = a.points->GetNumberOfPoints();
        const bool withNormals = s.mesh.normals.size() == s.mesh.points.size();
        for (std::size_t p = 0; p < s.mesh.pointCount(); ++p) {
            a.points->InsertNextPoint(s.mesh.points.data() + 3 * p);
            if (withNormals) a.normals->InsertNextTypedTuple(s.mesh.normals.data() + 3 * p);
            a.values->InsertNextValue(s.label);
        }
        for (std::size_t t = 0; t < s.mesh.triangleCount(); ++t) {
            const vtkIdType ids[3] = {first + s.mesh.triangles[3 * t], first + s.mesh.triangles[3 * t + 1],
                                      first + s.mesh.triangles[3 * t + 2]};
            a.triangles->InsertNextCell(3, ids);
        }
        out->figures.labels.push_back(s.label);
    }
    if (out->figures.labels.empty()) return nullptr;
    out->polygons = a.polygons();
    out->figures.points = std::size_t(a.points->GetNumberOfPoints());
    out->figures.triangles = std::size_t(a.triangles->GetNumberOfCells());
    out->polygons->GetBounds(out->figures.bounds);
    return out;
}

SurfaceFigures surfaceFigures(const LabelSurfaces& surfaces) { return surfaces.figures; }

vtkSmartPointer<vtkPolyData> unseenTriangleLikeSurfaces(const double at[3], double size) {
    SurfaceArrays a;
    const float normal[3] = {0, 0, 1};
    for (int p = 0; p < 3; ++p) {
        a.points->InsertNextPoint(at[0] + (p == 1 ? size : 0.0), at[1] + (p == 2 ? size : 0.0), at[2]);
        a.normals->InsertNextTypedTuple(normal);
        a.values->InsertNextValue(0);  // label 0: no colour, transparent in every surface colour table
    }
    const vtkIdType ids[3] = {0, 1, 2};
    a.triangles->InsertNextCell(3, ids);
    return a.polygons();
}

std::shared_ptr<const LabelSurfaces> buildLabelSurfacesWithin(const LabelMap& labels, std::size_t maxTriangles,
                                                              const std::atomic<bool>* cancel) {
    auto surfaces = buildLabelSurfaces(labels, cancel);
    LabelMap coarser;
    while (surfaces && maxTriangles > 0 && surfaces->figures.triangles > maxTriangles) {
        const LabelMap& from = coarser.voxelCount() ? coarser : labels;
        const LabelReduction plan =
            planLabelReduction(from.geometry().dims, std::max<std::size_t>(1, from.voxelCount() / 8));
        if (plan.factor < 2) break;  // a single cell: nothing coarser to build
        LabelMap next;
        reduceLabels(from, plan, next);
        coarser = std::move(next);
        surfaces = buildLabelSurfaces(coarser, cancel);
    }
    return surfaces;
}

}  // namespace lucent::render
