/// @brief Contour and smoothing of a binary crop with VTK (discrete flying edges + windowed sinc).
#include "SurfaceContour.h"

#include "lucent/core/Errors.h"

#include <vtkCallbackCommand.h>
#include <vtkCellArray.h>
#include <vtkCellArrayIterator.h>
#include <vtkCommand.h>
#include <vtkDiscreteFlyingEdges3D.h>
#include <vtkImageData.h>
#include <vtkNew.h>
#include <vtkPointData.h>
#include <vtkPoints.h>
#include <vtkPolyData.h>
#include <vtkSmartPointer.h>
#include <vtkUnsignedCharArray.h>
#include <vtkWindowedSincPolyDataFilter.h>

#include <limits>
#include <mutex>
#include <string>

namespace lucent::io::detail {

namespace {

/// Forwards one filter's progress events to the caller's range [from, to] and asks the filter to
/// abort when the caller cancels. Flying edges may report from its SMP threads: calls are serialised.
struct ProgressRelay {
    const StageProgress* progress = nullptr;
    double from = 0, to = 1;
    bool cancelled = false;
    std::mutex mutex;

    static void onProgress(vtkObject* caller, unsigned long, void* clientData, void* callData) {
        auto* self = static_cast<ProgressRelay*>(clientData);
        const double amount = callData ? *static_cast<double*>(callData) : 0.0;
        std::lock_guard lock(self->mutex);
        if (self->cancelled || !self->progress || !*self->progress) return;
        if (!(*self->progress)(self->from + (self->to - self->from) * amount)) {
            self->cancelled = true;
            if (auto* algorithm = vtkAlgorithm::SafeDownCast(caller)) algorithm->SetAbortExecute(1);
        }
    }
};

/// Runs `algorithm` with its progress relayed into [from, to]; Cancelled when the caller stopped it.
void runStage(vtkAlgorithm* algorithm, const StageProgress& progress, double from, double to) {
    ProgressRelay relay;
    relay.progress = &progress;
    relay.from = from;
    relay.to = to;
    vtkNew<vtkCallbackCommand> observer;
    observer->SetCallback(&ProgressRelay::onProgress);
    observer->SetClientData(&relay);
    const unsigned long tag = algorithm->AddObserver(vtkCommand::ProgressEvent, observer);
    algorithm->Update();
    algorithm->RemoveObserver(tag);
    if (relay.cancelled) throw Cancelled();
    if (progress && !progress(to)) throw Cancelled();
}

vtkSmartPointer<vtkImageData> toImage(const BinaryCrop& crop) {
    auto image = vtkSmartPointer<vtkImageData>::New();
    image->SetDimensions(crop.dims[0], crop.dims[1], crop.dims[2]);
    image->SetSpacing(crop.spacing.x, crop.spacing.y, crop.spacing.z);
    image->SetOrigin(0, 0, 0);
    vtkNew<vtkUnsignedCharArray> scalars;
    // Borrow the crop's buffer (save = 1: VTK never frees it); the crop outlives the pipeline.
    scalars->SetArray(const_cast<std::uint8_t*>(crop.mask.data()), static_cast<vtkIdType>(crop.mask.size()), 1);
    scalars->SetName("label");
    image->GetPointData()->SetScalars(scalars);
    return image;
}

RawMesh toRawMesh(vtkPolyData* poly) {
    RawMesh mesh;
    vtkPoints* points = poly->GetPoints();
    const vtkIdType pointCount = points ? points->GetNumberOfPoints() : 0;
    if (pointCount > static_cast<vtkIdType>(std::numeric_limits<std::uint32_t>::max()))
        throw IoError("surface: " + std::to_string(pointCount) + " points exceed the 32-bit indices of a mesh");
    mesh.points.resize(static_cast<std::size_t>(pointCount) * 3);
    for (vtkIdType p = 0; p < pointCount; ++p) points->GetPoint(p, &mesh.points[static_cast<std::size_t>(p) * 3]);
    vtkCellArray* polys = poly->GetPolys();
    if (!polys) return mesh;
    mesh.triangles.reserve(static_cast<std::size_t>(polys->GetNumberOfCells()) * 3);
    auto cells = vtk::TakeSmartPointer(polys->NewIterator());
    for (cells->GoToFirstCell(); !cells->IsDoneWithTraversal(); cells->GoToNextCell()) {
        vtkIdType size = 0;
        const vtkIdType* ids = nullptr;
        cells->GetCurrentCell(size, ids);
        // Flying edges emits triangles only; a fan keeps any polygon closed all the same.
        for (vtkIdType t = 1; t + 1 < size; ++t)
            for (const vtkIdType id : {ids[0], ids[t], ids[t + 1]})
                mesh.triangles.push_back(static_cast<std::uint32_t>(id));
    }
    return mesh;
}

}  // namespace

bool contourAvailable() { return true; }

void requireContour() {}

RawMesh contourAndSmooth(const BinaryCrop& crop, int iterations, double passBand, const StageProgress& progress) {
    const auto image = toImage(crop);
    vtkNew<vtkDiscreteFlyingEdges3D> contour;
    contour->SetInputData(image);
    contour->SetValue(0, 1.0);
    contour->ComputeNormalsOff();
    contour->ComputeGradientsOff();
    contour->ComputeScalarsOff();
    const double contourShare = iterations > 0 ? 0.4 : 1.0;
    runStage(contour, progress, 0.0, contourShare);
    if (iterations <= 0) return toRawMesh(contour->GetOutput());

    vtkNew<vtkWindowedSincPolyDataFilter> smooth;
    smooth->SetInputConnection(contour->GetOutputPort());
    smooth->SetNumberOfIterations(iterations);
    smooth->SetPassBand(passBand);
    // Normalised coordinates keep the filter stable whatever the size in mm; boundary and feature
    // smoothing stay off (a closed surface has no boundary; features would keep voxel steps).
    smooth->NormalizeCoordinatesOn();
    smooth->BoundarySmoothingOff();
    smooth->FeatureEdgeSmoothingOff();
    smooth->NonManifoldSmoothingOn();
    runStage(smooth, progress, contourShare, 1.0);
    return toRawMesh(smooth->GetOutput());
}

}  // namespace lucent::io::detail
