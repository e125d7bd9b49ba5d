/// @brief What Scene3D shows: the volume read in place (a coarse copy above Scene3D::kShownVoxels) with a preset, the label volume (nearest
/// voxel, label colours), accepted label surfaces, and the slice planes and crosshair at the cursor.
#include "LabelSurfacesImpl.h"
#include "Scene3DImpl.h"
#include "lucent/core/VolumeReduction.h"
#include "lucent/render/PlaneOutline.h"

#include <vtkCellArray.h>
#include <vtkCellData.h>
#include <vtkColorTransferFunction.h>
#include <vtkFloatArray.h>
#include <vtkPiecewiseFunction.h>
#include <vtkPointData.h>
#include <vtkPoints.h>
#include <vtkShortArray.h>
#include <vtkUnsignedCharArray.h>

#include <algorithm>

namespace lucent::render {

namespace {

/// An image of `g`'s dimensions and spacing at the origin, without scalars; the user matrix puts it
/// in patient space (oblique grids included).
vtkSmartPointer<vtkImageData> emptyImage(const Geometry& g) {
    auto image = vtkSmartPointer<vtkImageData>::New();
    image->SetDimensions(g.dims[0], g.dims[1], g.dims[2]);
    image->SetSpacing(g.spacing.x, g.spacing.y, g.spacing.z);
    image->SetOrigin(0, 0, 0);
    return image;
}

vtkSmartPointer<vtkMatrix4x4> matrixOf(const Geometry& g) {
    auto m = vtkSmartPointer<vtkMatrix4x4>::New();
    for (int r = 0; r < 3; ++r) {
        for (int c = 0; c < 3; ++c) m->SetElement(r, c, g.direction.at(r, c));
        m->SetElement(r, 3, g.origin[r]);
    }
    return m;
}

/// The 1st and 99.5th percentiles of a sample of the voxels: MR's bright outliers must not squash
/// the ramp.
std::pair<double, double> robustRange(const Volume& v) {
    const std::size_t n = v.voxelCount(), stride = std::max<std::size_t>(1, n / 500000);
    std::vector<double> sample;
    sample.reserve(n / stride + 1);
    for (std::size_t i = 0; i < n; i += stride) sample.push_back(v.value(i));
    if (sample.empty()) return {0, 1};
    auto at = [&](double q) {
        auto it = sample.begin() + std::ptrdiff_t(q * double(sample.size() - 1));
        std::nth_element(sample.begin(), it, sample.end());
        return *it;
    };
    const double lo = at(0.01), hi = at(0.995);
    return {lo, hi > lo ? hi : lo + 1};
}

/// A label's opacity in 3D (surfaces and label volume): the background and hidden labels draw
/// nothing; a label without an entry is opaque.
double labelAlpha(const LabelTable& table, int value) {
    const LabelInfo* info = value ? table.find(std::uint8_t(value)) : nullptr;
    return value == 0 || (info && !info->visible) ? 0.0 : (info ? info->opacity : 1.0);
}

}  // namespace

void Scene3D::setVolume(std::shared_ptr<const Volume> volume) {
    m->volume = std::move(volume);
    m->labels.reset();
    m->labelProp->VisibilityOff();
    m->surfaces.reset();
    m->showSurfaceLayers();
    m->liveSurfaces.reset();
    m->liveActor->VisibilityOff();
    if (!m->volume || m->volume->empty()) {
        m->volume.reset();
        m->shown.reset();
        m->prop->VisibilityOff();
        m->planesActor->VisibilityOff();
        return;
    }
    const LabelReduction plan = planLabelReduction(m->volume->geometry().dims, m->shownVoxels);
    m->shown = plan.factor == 1 ? m->volume : std::make_shared<const Volume>(reduceVolume(*m->volume, plan));
    const Volume& v = *m->shown;
    m->image = emptyImage(v.geometry());
    // Read in place (save = 1: VTK never frees the voxels); the scene keeps the volume alive. The
    // texture is uploaded once, at the first render.
    if (v.pixelType() == PixelType::Int16) {
        auto a = vtkSmartPointer<vtkShortArray>::New();
        a->SetVoidArray(const_cast<std::int16_t*>(v.int16Data()), vtkIdType(v.voxelCount()), 1);
        m->image->GetPointData()->SetScalars(a);
    } else {
        auto a = vtkSmartPointer<vtkFloatArray>::New();
        a->SetVoidArray(const_cast<float*>(v.float32Data()), vtkIdType(v.voxelCount()), 1);
        m->image->GetPointData()->SetScalars(a);
    }
    m->mapper->SetInputData(m->image);
    m->mapper->SetAutoAdjustSampleDistances(0);
    m->mapper->LockSampleDistanceToInputSpacingOn();
    m->prop->SetUserMatrix(matrixOf(v.geometry()));
    std::tie(m->lo, m->hi) = robustRange(v);
    const Geometry& fine = m->volume->geometry();
    m->cursor = {(fine.dims[0] - 1) / 2.0, (fine.dims[1] - 1) / 2.0, (fine.dims[2] - 1) / 2.0};
    m->applyPreset();
    m->updatePlanes();
    resetCamera();
}

bool Scene3D::hasVolume() const { return m->volume != nullptr; }

Geometry Scene3D::shownGeometry() const { return m->shown ? m->shown->geometry() : Geometry{}; }

void Scene3D::setShownVoxels(std::size_t voxels) { m->shownVoxels = std::max<std::size_t>(1, voxels); }

std::pair<double, double> Scene3D::valueRange() const { return {m->lo, m->hi}; }

void Scene3D::setPreset(Preset3D preset) {
    m->preset = preset;
    m->applyPreset();
}

Preset3D Scene3D::preset() const { return m->preset; }

void Scene3D::Impl::applyPreset() {
    const auto points = transferPoints(preset, lo, hi);
    prop->SetVisibility(volume && !points.empty());
    if (points.empty()) return;
    auto colour = vtkSmartPointer<vtkColorTransferFunction>::New();
    auto opacity = vtkSmartPointer<vtkPiecewiseFunction>::New();
    for (const auto& p : points) {
        colour->AddRGBPoint(p.value, p.rgb[0], p.rgb[1], p.rgb[2]);
        opacity->AddPoint(p.value, p.alpha);
    }
    property->SetColor(colour);
    property->SetScalarOpacity(opacity);
    property->SetScalarOpacityUnitDistance(1.0);  // the presets' opacities are per millimetre
    property->SetInterpolationTypeToLinear();
    property->ShadeOn();
    property->SetAmbient(0.25);
    property->SetDiffuse(0.75);
    property->SetSpecular(0.2);
    property->SetSpecularPower(12);
}

void Scene3D::setLabelVolume(std::shared_ptr<const LabelMap> labels, const LabelTable& table) {
    m->table = table;
    m->labels = std::move(labels);
    if (!m->labels || m->labels->voxelCount() == 0) {
        m->labels.reset();
        m->labelProp->VisibilityOff();
        return;
    }
    // Above the budget, the label volume is a coarse copy too (it shows until the surfaces come).
    const LabelReduction plan = planLabelReduction(m->labels->geometry().dims, m->shownVoxels);
    if (plan.factor > 1) reduceLabels(*m->labels, plan, m->labelCells);
    else m->labelCells = LabelMap();
    const LabelMap& shown = plan.factor > 1 ? m->labelCells : *m->labels;
    const Geometry& g = shown.geometry();
    m->labelImage = emptyImage(g);
    auto a = vtkSmartPointer<vtkUnsignedCharArray>::New();
    a->SetVoidArray(const_cast<std::uint8_t*>(shown.data()), vtkIdType(shown.voxelCount()), 1);
    m->labelImage->GetPointData()->SetScalars(a);
    m->labelMapper->SetInputData(m->labelImage);
    m->labelMapper->SetAutoAdjustSampleDistances(0);
    m->labelMapper->LockSampleDistanceToInputSpacingOn();
    m->labelProp->SetUserMatrix(matrixOf(g));
    m->applyLabelTable();
    m->labelProp->VisibilityOn();
}

bool Scene3D::labelVolumeShown() const { return m->labels && m->labelProp->GetVisibility(); }

void Scene3D::setLabelTable(const LabelTable& table) {
    m->table = table;
    m->applyLabelTable();
}

void Scene3D::Impl::applyLabelTable() {
    auto colour = vtkSmartPointer<vtkColorTransferFunction>::New();
    auto opacity = vtkSmartPointer<vtkPiecewiseFunction>::New();
    // A point per value: the nearest-voxel samples are exact label values, so each gets its own.
    for (int v = 0; v < 256; ++v) {
        const auto c = table.colourOf(std::uint8_t(v));
        const double alpha = labelAlpha(table, v);
        const double r = c[0] / 255.0, g = c[1] / 255.0, b = c[2] / 255.0;
        colour->AddRGBPoint(v, r, g, b);
        opacity->AddPoint(v, 0.9 * alpha);
        solidSurfaces.colours->SetTableValue(v, r, g, b, alpha >= 1.0 ? 1.0 : 0.0);
        translucentSurfaces.colours->SetTableValue(v, r, g, b, alpha < 1.0 ? alpha : 0.0);
    }
    labelProperty->SetColor(colour);
    labelProperty->SetScalarOpacity(opacity);
    labelProperty->SetScalarOpacityUnitDistance(1.0);
    labelProperty->SetInterpolationTypeToNearest();
    labelProperty->ShadeOn();
    labelProperty->SetAmbient(0.35);
    labelProperty->SetDiffuse(0.65);
    solidSurfaces.colours->Modified();
    translucentSurfaces.colours->Modified();
    showSurfaceLayers();
    for (int v = 0; v < 256; ++v) {
        const auto c = table.colourOf(liveTargets[std::size_t(v)]);
        liveColours->SetTableValue(v, c[0] / 255.0, c[1] / 255.0, c[2] / 255.0, v ? 1.0 : 0.0);
    }
    liveColours->Modified();
}

void Scene3D::Impl::showSurfaceLayers() {
    bool solid = false, translucent = false;
    if (surfaces)
        for (std::uint8_t label : surfaces->figures.labels) {
            const double alpha = labelAlpha(table, label);
            solid = solid || alpha >= 1.0;
            translucent = translucent || (alpha > 0.0 && alpha < 1.0);
        }
    solidSurfaces.actor->SetVisibility(solid);
    translucentSurfaces.actor->SetVisibility(translucent);
}

void Scene3D::setLiveTargets(const std::array<std::uint8_t, 256>& targets) {
    if (targets == m->liveTargets) return;
    m->liveTargets = targets;
    m->applyLabelTable();
}

void Scene3D::setSurfaces(std::shared_ptr<const LabelSurfaces> surfaces) {
    m->surfaces = std::move(surfaces);
    if (m->surfaces && !m->surfaces->polygons) m->surfaces.reset();
    for (auto* layer : {&m->solidSurfaces, &m->translucentSurfaces})
        layer->mapper->SetInputData(m->surfaces ? m->surfaces->polygons : nullptr);
    m->showSurfaceLayers();
}

void Scene3D::setLiveSurfaces(std::shared_ptr<const LabelSurfaces> surfaces) {
    m->liveSurfaces = std::move(surfaces);
    if (!m->liveSurfaces || !m->liveSurfaces->polygons) {
        m->liveSurfaces.reset();
        m->liveActor->VisibilityOff();
        return;
    }
    m->liveMapper->SetInputData(m->liveSurfaces->polygons);
    m->liveActor->VisibilityOn();
}

void Scene3D::setDraft(bool draft) {
    const double pixels = draft ? 2.0 : 1.0;
    m->mapper->SetImageSampleDistance(pixels);
    m->labelMapper->SetImageSampleDistance(pixels);
}

void Scene3D::setCursor(Vec3 voxel) {
    m->cursor = voxel;
    m->updatePlanes();
}

void Scene3D::setPlanesVisible(bool visible) {
    m->planesVisible = visible;
    m->updatePlanes();
}

void Scene3D::setPatientPlanes(bool patient) {
    m->patientPlanes = patient;
    m->updatePlanes();
}

void Scene3D::Impl::updatePlanes() {
    planesActor->SetVisibility(volume && planesVisible);
    if (!volume) return;
    const Geometry& g = volume->geometry();
    const Vec3 hiIdx{g.dims[0] - 1.0, g.dims[1] - 1.0, g.dims[2] - 1.0};
    Vec3 c = cursor;
    for (int a = 0; a < 3; ++a) c[a] = std::clamp(c[a], 0.0, hiIdx[a]);
    auto points = vtkSmartPointer<vtkPoints>::New();
    auto lines = vtkSmartPointer<vtkCellArray>::New();
    auto colours = vtkSmartPointer<vtkUnsignedCharArray>::New();
    colours->SetNumberOfComponents(3);
    auto add = [&](Vec3 ijk) {
        const Vec3 p = g.voxelToPatient(ijk);
        return points->InsertNextPoint(p.x, p.y, p.z);
    };
    // The plane normal to index axis a: red for k (the acquisition plane), green for j, blue for i,

    const unsigned char planeColour[3][3] = {{100, 150, 255}, {90, 215, 100}, {240, 90, 90}};
    const unsigned char crossColour[3] = {255, 217, 26};
    if (patientPlanes) {
        // The patient's axial, coronal and sagittal planes through the cursor, cut by the volume's
        // box, each in the colour of the index plane nearest it; the crosshair along the patient axes.
        const Vec3 at = g.voxelToPatient(c);
        for (const Vec3 normal : {Vec3{1, 0, 0}, Vec3{0, 1, 0}, Vec3{0, 0, 1}}) {
            int nearest = 0;
            for (int a = 1; a < 3; ++a)
                if (std::abs(dot(g.direction.col[a], normal)) > std::abs(dot(g.direction.col[nearest], normal))) nearest = a;
            const std::vector<Vec3> outline = planeOutline(g, at, normal);
            if (outline.empty()) continue;
            std::vector<vtkIdType> ids;
            for (const Vec3& p : outline) ids.push_back(points->InsertNextPoint(p.x, p.y, p.z));
            ids.push_back(ids.front());
            lines->InsertNextCell(vtkIdType(ids.size()), ids.data());
            colours->InsertNextTypedTuple(planeColour[nearest]);
            if (const auto ends = lineInBox(g, at, normal)) {
                const vtkIdType pair[2] = {points->InsertNextPoint((*ends)[0].x, (*ends)[0].y, (*ends)[0].z),
                                           points->InsertNextPoint((*ends)[1].x, (*ends)[1].y, (*ends)[1].z)};
                lines->InsertNextCell(2, pair);
                colours->InsertNextTypedTuple(crossColour);
            }
        }
        planes->SetPoints(points);
        planes->SetLines(lines);
        planes->GetCellData()->SetScalars(colours);
        planes->Modified();
        return;
    }
    for (int a = 0; a < 3; ++a) {
        const int u = (a + 1) % 3, v = (a + 2) % 3;
        vtkIdType ids[5];
        for (int corner = 0; corner < 4; ++corner) {
            Vec3 p = c;
            p[u] = (corner == 1 || corner == 2) ? hiIdx[u] : 0.0;
            p[v] = corner >= 2 ? hiIdx[v] : 0.0;
            ids[corner] = add(p);
        }
        ids[4] = ids[0];
        lines->InsertNextCell(5, ids);
        colours->InsertNextTypedTuple(planeColour[a]);
    }
    for (int a = 0; a < 3; ++a) {
        Vec3 p0 = c, p1 = c;
        p0[a] = 0.0;
        p1[a] = hiIdx[a];
        const vtkIdType ids[2] = {add(p0), add(p1)};
        lines->InsertNextCell(2, ids);
        colours->InsertNextTypedTuple(crossColour);
    }
    planes->SetPoints(points);
    planes->SetLines(lines);
    planes->GetCellData()->SetScalars(colours);
    planes->Modified();
}

}  // namespace lucent::render
