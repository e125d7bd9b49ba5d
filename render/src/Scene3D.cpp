/// @brief Scene3D's GL life cycle (VTK adopting the caller's context, as DESIGN.md section 3 says)
/// and its camera: anterior by default, rotate / zoom / pan about the focal point.
#include "Gl.h"
#include "LabelSurfacesImpl.h"
#include "Scene3DImpl.h"
#include "TimedSurfaceMapper.h"

#include "lucent/core/StageTimes.h"

#include <vtkCamera.h>
#include <vtkOpenGLState.h>
#include <vtkProperty.h>
#include <vtkRendererCollection.h>

#include <algorithm>
#include <cmath>

namespace lucent::render {

namespace {
constexpr double kLiveOpacity = 0.7;
}  // namespace

Scene3D::Impl::Impl() {
    window = vtkSmartPointer<vtkGenericOpenGLRenderWindow>::New();
    renderer = vtkSmartPointer<vtkRenderer>::New();
    renderer->SetBackground(0.063, 0.078, 0.094);
    renderer->SetBackgroundAlpha(1.0);
    window->AddRenderer(renderer);
    overlay = vtkSmartPointer<vtkRenderer>::New();
    overlay->SetLayer(1);
    overlay->SetActiveCamera(renderer->GetActiveCamera());
    overlay->PreserveColorBufferOn();   // keep the volume rendering underneath
    overlay->PreserveDepthBufferOff();  // but not its depth: the bone must not hide the labels
    overlay->InteractiveOff();
    window->SetNumberOfLayers(2);
    window->AddRenderer(overlay);
    marker = std::make_unique<OrientationMarker>(*window, 2, Scene3D::kMarkerShare);
    window->SetMultiSamples(0);
}

Scene3D::Scene3D() : m(std::make_unique<Impl>()) {
    m->mapper = vtkSmartPointer<vtkGPUVolumeRayCastMapper>::New();
    m->property = vtkSmartPointer<vtkVolumeProperty>::New();
    m->prop = vtkSmartPointer<vtkVolume>::New();
    m->prop->SetMapper(m->mapper);
    m->prop->SetProperty(m->property);
    m->prop->VisibilityOff();
    m->renderer->AddVolume(m->prop);

    m->labelMapper = vtkSmartPointer<vtkGPUVolumeRayCastMapper>::New();
    m->labelProperty = vtkSmartPointer<vtkVolumeProperty>::New();
    m->labelProp = vtkSmartPointer<vtkVolume>::New();
    m->labelProp->SetMapper(m->labelMapper);
    m->labelProp->SetProperty(m->labelProperty);
    m->labelProp->VisibilityOff();
    m->overlay->AddVolume(m->labelProp);

    for (auto* layer : {&m->solidSurfaces, &m->translucentSurfaces}) {
        layer->colours = vtkSmartPointer<vtkLookupTable>::New();
        layer->colours->SetNumberOfTableValues(256);
        layer->colours->SetTableRange(0, 255);
        layer->mapper = vtkSmartPointer<vtkPolyDataMapper>::New();
        layer->mapper->SetLookupTable(layer->colours);
        layer->mapper->SetScalarRange(0, 255);
        layer->mapper->SetScalarModeToUsePointData();
        layer->mapper->SetColorModeToMapScalars();
        layer->actor = vtkSmartPointer<vtkActor>::New();
        layer->actor->SetMapper(layer->mapper);
        layer->actor->VisibilityOff();
        m->overlay->AddActor(layer->actor);  // solid first: the translucent pass blends over its depth
    }
    m->solidSurfaces.actor->ForceOpaqueOn();
    m->translucentSurfaces.actor->ForceTranslucentOn();

    for (int v = 0; v < 256; ++v) m->liveTargets[std::size_t(v)] = std::uint8_t(v);
    m->liveColours = vtkSmartPointer<vtkLookupTable>::New();
    m->liveColours->SetNumberOfTableValues(256);
    m->liveColours->SetTableRange(0, 255);
    m->liveMapper = vtkSmartPointer<TimedSurfaceMapper>::New();
    m->liveMapper->SetLookupTable(m->liveColours);
    m->liveMapper->SetScalarRange(0, 255);
    m->liveMapper->SetScalarModeToUsePointData();
    m->liveMapper->SetColorModeToMapScalars();
    m->liveActor = vtkSmartPointer<vtkActor>::New();
    m->liveActor->SetMapper(m->liveMapper);
    // Lighter than an accepted label, as the slice views hatch a preview: new and old stay apart.
    m->liveActor->GetProperty()->SetOpacity(kLiveOpacity);
    m->liveActor->VisibilityOff();
    m->overlay->AddActor(m->liveActor);

    m->planes = vtkSmartPointer<vtkPolyData>::New();
    m->planesMapper = vtkSmartPointer<vtkPolyDataMapper>::New();
    m->planesMapper->SetInputData(m->planes);
    m->planesMapper->SetScalarModeToUseCellData();
    m->planesActor = vtkSmartPointer<vtkActor>::New();
    m->planesActor->SetMapper(m->planesMapper);
    m->planesActor->GetProperty()->SetLineWidth(1.5);
    m->planesActor->GetProperty()->LightingOff();
    m->planesActor->VisibilityOff();
    m->renderer->AddActor(m->planesActor);
    m->applyLabelTable();
}

Scene3D::~Scene3D() = default;

void Scene3D::initializeGl() {
    auto* w = m->window.Get();
    w->SetOwnContext(false);
    w->SetFrameBlitModeToBlitToCurrent();
    w->SetReadyForRendering(true);
    w->SetIsCurrent(true);
    w->InitializeFromCurrentContext();
    m->glReady = true;
}

void Scene3D::render(int width, int height) {
    if (!m->glReady || width <= 0 || height <= 0) return;
    auto* w = m->window.Get();
    w->SetSize(width, height);
    if (m->volume) {
        // A volume beyond this GL's 3D texture size (a 15 MP single image; a large series on a
        // small GPU) cannot be ray cast: the pane keeps its planes and surfaces, the slice views
        // show the voxels. VTK would otherwise log an error on every frame.
        GLint max3d = 0;
        glGetIntegerv(GL_MAX_3D_TEXTURE_SIZE, &max3d);
        const auto& d = m->volume->geometry().dims;
        if (max3d > 0 && (d[0] > max3d || d[1] > max3d || d[2] > max3d)) {
            m->prop->VisibilityOff();
            m->labelProp->VisibilityOff();
        }
    }
    m->renderer->ResetCameraClippingRange();
    m->marker->follow(*m->renderer->GetActiveCamera());
    // The first translucent surfaces in a context make GL programs (the translucent pass's, the mapper's
    // for surfaces with normals and label colours): a live run's first surfaces would pay for them inside
    // a live frame. The pane's first paint (which uploads the volume) makes them instead, drawing an
    // unseen triangle in the live surfaces' place, at the focal point (in view: drawn, not culled).
    const bool makePrograms = !m->liveProgramsMade && m->volume && !m->liveSurfaces;
    if (makePrograms) {
        vtkCamera* camera = m->renderer->GetActiveCamera();
        double focal[3];
        camera->GetFocalPoint(focal);
        m->liveMapper->SetInputData(unseenTriangleLikeSurfaces(focal, 0.05 * camera->GetDistance()));
        m->liveActor->VisibilityOn();
    }
    // VTK caches GL state; the caller (Qt) changed it behind VTK's back since the last frame.
    w->GetState()->Reset();
    w->GetState()->Push();
    w->Render();
    w->GetState()->Pop();
    if (makePrograms) {
        m->liveActor->VisibilityOff();
        m->liveMapper->SetInputData(nullptr);
    }
    m->liveProgramsMade = m->liveProgramsMade || m->volume != nullptr;
    if (stages::enabled()) {  // where a paint's time went (the benchmarks)
        stages::record("3D pane: paint: the volume's renderer (VTK)", 1000.0 * m->renderer->GetLastRenderTimeInSeconds());
        stages::record("3D pane: paint: the labels' renderer (VTK)", 1000.0 * m->overlay->GetLastRenderTimeInSeconds());
    }
}

void Scene3D::releaseGl() {
    if (!m->glReady) return;
    m->window->ReleaseGraphicsResources(m->window);
    m->glReady = false;
    m->liveProgramsMade = false;
}

bool Scene3D::glReady() const { return m->glReady; }

void Scene3D::resetCamera() {
    vtkCamera* cam = m->renderer->GetActiveCamera();
    double bounds[6] = {-1, 1, -1, 1, -1, 1};
    if (m->volume) {
        // The patient-space box of the voxel centres (the volume prop's own bounds include its
        // user matrix, but a hidden prop would not count).
        const Geometry& g = m->volume->geometry();
        bounds[0] = bounds[2] = bounds[4] = 1e300;
        bounds[1] = bounds[3] = bounds[5] = -1e300;
        for (int c = 0; c < 8; ++c) {
            const Vec3 p = g.voxelToPatient({(c & 1) ? g.dims[0] - 1.0 : 0.0, (c & 2) ? g.dims[1] - 1.0 : 0.0,
                                             (c & 4) ? g.dims[2] - 1.0 : 0.0});
            for (int a = 0; a < 3; ++a) {
                bounds[2 * a] = std::min(bounds[2 * a], p[a]);
                bounds[2 * a + 1] = std::max(bounds[2 * a + 1], p[a]);
            }
        }
    }
    const double cx = 0.5 * (bounds[0] + bounds[1]), cy = 0.5 * (bounds[2] + bounds[3]), cz = 0.5 * (bounds[4] + bounds[5]);
    // Anterior view: LPS -y is anterior, so the camera stands at -y and looks along +y, +z up;
    // the patient's left (+x) is then on the screen's right, as in radiological views.
    cam->SetFocalPoint(cx, cy, cz);
    cam->SetPosition(cx, cy - 1.0, cz);
    cam->SetViewUp(0, 0, 1);
    cam->SetViewAngle(30);
    m->renderer->ResetCamera(bounds);
    // ResetCamera fits the bounds' sphere, which leaves a box seen face-on small in the view.
    cam->Dolly(1.3);
}

void Scene3D::rotate(double azimuthDeg, double elevationDeg) {
    vtkCamera* cam = m->renderer->GetActiveCamera();
    cam->Azimuth(azimuthDeg);
    cam->Elevation(elevationDeg);
    cam->OrthogonalizeViewUp();
}

void Scene3D::zoom(double factor) {
    if (factor > 0) m->renderer->GetActiveCamera()->Dolly(factor);
}

void Scene3D::pan(double dxFraction, double dyFraction) {
    vtkCamera* cam = m->renderer->GetActiveCamera();
    double pos[3], focal[3], up[3], dir[3];
    cam->GetPosition(pos);
    cam->GetFocalPoint(focal);
    cam->GetViewUp(up);
    cam->GetDirectionOfProjection(dir);
    const Vec3 u{up[0], up[1], up[2]}, d{dir[0], dir[1], dir[2]};
    const Vec3 right = normalized(cross(d, u));
    // The view's height at the focal point: a drag across the whole view moves the scene as far.
    const double height = 2.0 * cam->GetDistance() * std::tan(cam->GetViewAngle() * M_PI / 360.0);
    const int* size = m->window->GetSize();
    const double aspect = size[1] > 0 ? double(size[0]) / size[1] : 1.0;
    const Vec3 shift = right * (-dxFraction * height * aspect) + u * (-dyFraction * height);
    cam->SetFocalPoint(focal[0] + shift.x, focal[1] + shift.y, focal[2] + shift.z);
    cam->SetPosition(pos[0] + shift.x, pos[1] + shift.y, pos[2] + shift.z);
}

void Scene3D::camera(Vec3& position, Vec3& focal, Vec3& up) const {
    vtkCamera* cam = m->renderer->GetActiveCamera();
    double p[3], f[3], u[3];
    cam->GetPosition(p);
    cam->GetFocalPoint(f);
    cam->GetViewUp(u);
    position = {p[0], p[1], p[2]};
    focal = {f[0], f[1], f[2]};
    up = {u[0], u[1], u[2]};
}

}  // namespace lucent::render
